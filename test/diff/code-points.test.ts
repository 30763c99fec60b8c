/**
 * A change that renders alike on both sides (precomposed against combining, Latin against
 * Cyrillic, a real control against its escape typed as text) is told by its code points, in
 * the terminal, the page and the window (found by a red team of the diff); a long one by its
 * first code points that differ and their count, and one text in two normalization forms
 * says so however long it is (a later red team: past 8 code points nothing was said).
 */
import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, describe, expect, it } from 'vitest';
import { cliIn } from '../cli/in-process.js';
import { diffPage } from '../../shared/diff-html.js';
import { diffJson, spanCodePoints, type DiffEntry, type DiffResult } from '../../shared/diff.js';

/**
 * The window's DiffView, loaded through Vite, which compiles its TSX: the tests' own
 * type-check (tsconfig.test.json) has no JSX, so it is named by a path tsc does not follow.
 */
async function diffView(): Promise<ComponentType<Record<string, unknown>>> {
  const file = 'DiffView.tsx';
  const m = (await import(`../../renderer/src/components/${file}`)) as {
    DiffView: ComponentType<Record<string, unknown>>;
  };
  return m.DiffView;
}

const entry = (a: string, b: string) => diffJson({ v: a }, { v: b }).differences[0]!;

describe('spanCodePoints', () => {
  it('names the code points of a short non-ASCII change, and a change of normalization form', () => {
    expect(spanCodePoints(entry('caf\u00e9', 'cafe\u0301'))).toBe(
      'code points U+00E9 against U+0065 U+0301; the same text in another Unicode normalization form',
    );
    expect(spanCodePoints(entry('paypal', 'p\u0430ypal'))).toBe('code points U+0061 against U+0430');
    expect(spanCodePoints(entry('x\u202ey', 'x\\u202ey'))).toMatch(/^code points U\+202E against U\+005C U\+0075/);
    expect(spanCodePoints(entry('ab', 'a\u200bb'))).toBe('code points nothing against U+200B');
    expect(spanCodePoints(entry('a\u{1f600}', 'a\u{1f601}'))).toBe('code points U+1F600 against U+1F601');
  });

  it('says nothing where the text reads as what it is: plain ASCII, a long ASCII span, not strings', () => {
    expect(spanCodePoints(entry('cat', 'cot'))).toBeNull();
    expect(spanCodePoints(entry(`a${'x'.repeat(20)}é`, `a${'y'.repeat(20)}é`))).toBeNull();
    expect(spanCodePoints(diffJson({ v: 1 }, { v: 2 }).differences[0]!)).toBeNull();
  });

  it('is on the page beside the change', () => {
    const result = diffJson({ nfc: 'caf\u00e9' }, { nfc: 'cafe\u0301' });
    const side = { name: 'a', kind: 'unknown', content: 'parsed' };
    const page = diffPage({ title: 't', what: 'w', left: side, right: side, result });
    expect(page).toContain('<small>code points U+00E9 against U+0065 U+0301; the same text');
  });
});

const SAME = 'the same text in another Unicode normalization form';
/** A long text with accents, written precomposed (NFC) and decomposed (NFD). */
const FRENCH = 'Crème brûlée à la carte, déjà payée au café. '.repeat(3);
/** A text, and the same text with its spaces U+00A0 and one Latin `a` Cyrillic: they render alike. */
const LATIN = 'pay the invoice to account 4411 by friday';
const LOOKALIKE = LATIN.replace(/ /g, '\u00a0').replace('account', '\u0430ccount');

describe('spanCodePoints of a long span', () => {
  it('one text in two normalization forms: the note, and the first code points that differ', () => {
    const said = spanCodePoints(entry(FRENCH.normalize('NFC'), FRENCH.normalize('NFD')))!;
    expect(said).toMatch(
      /^code points differ at [\d,]+ places of the span \(\d+ against \d+\): U\+00E8 against U\+0065 \(at 1\)/,
    );
    expect(said.endsWith(`; ${SAME}`)).toBe(true);
  });

  it('lookalikes: the first three places that differ, at their place in the span, and how many more', () => {
    expect(spanCodePoints(entry(LATIN, LOOKALIKE))).toBe(
      'code points differ at 8 places of the span (32 against 32): U+0020 against U+00A0 (at 1), ' +
        'U+0020 against U+00A0 (at 5), U+0020 against U+00A0 (at 13), and 5 more',
    );
  });

  it('bounded: a span of a million code points is said in one short line', () => {
    const a = `x${'a'.repeat(1_000_000)}x`;
    const said = spanCodePoints(entry(a, `x${'\u0430'.repeat(1_000_000)}x`))!;
    expect(said).toContain('code points differ at 1,000,000 places of the span (1,000,000 against 1,000,000)');
    expect(said.length).toBeLessThan(200);
  });
});

const tmp = mkdtempSync(join(tmpdir(), 'reprise-diff-points-'));
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('a long change of normalization form, or of lookalikes, in every view', () => {
  it('the terminal, --json (codePoints), the page and the window say it', async () => {
    const [l, r] = [join(tmp, 'l.json'), join(tmp, 'r.json')];
    await writeFile(l, JSON.stringify({ nfc: FRENCH.normalize('NFC'), pay: LATIN }));
    await writeFile(r, JSON.stringify({ nfc: FRENCH.normalize('NFD'), pay: LOOKALIKE }));
    const text = await cliIn(tmp, 'diff', l, r);
    expect(text.code, text.err).toBe(1);
    const line = (p: string) => text.out.split('\n').find((x) => x.includes(p))!;
    expect(line('/content/nfc')).toContain(`; ${SAME})`);
    expect(line('/content/pay')).toContain('(code points differ at 8 places of the span (32 against 32): U+0020');
    const json = JSON.parse((await cliIn(tmp, 'diff', l, r, '--json')).out) as DiffResult;
    const at = (p: string) => json.differences.find((e) => e.pointer === p) as DiffEntry & { codePoints?: string };
    expect(at('/content/nfc').codePoints).toContain(SAME);
    expect(at('/content/pay').codePoints).toMatch(/^code points differ at 8 places/);
    expect(at('/content/pay').codePoints).toBe(spanCodePoints(at('/content/pay')));
    const result = diffJson({ nfc: FRENCH.normalize('NFC') }, { nfc: FRENCH.normalize('NFD') });
    const side = { name: 's' };
    expect(diffPage({ title: 't', what: 'w', left: side, right: side, result })).toContain(`; ${SAME}</small>`);
    const view = createElement(await diffView(), { result, what: 'w', left: side, right: side, fileBase: 'd' });
    expect(renderToStaticMarkup(view)).toContain(`; ${SAME}</td>`);
  });
});

/**
 * Every character Unicode lets a renderer draw as nothing (Default_Ignorable_Code_Point: the
 * format characters, and the variation selectors, U+180B-U+180F, the Hangul fillers…) is
 * shown escaped in a diff's values, spans and pointers, in the terminal and in the page, so
 * a change or a member added that is only such characters is seen (docs/compare.md, Strings).
 */
import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inProcessCli } from '../helpers/in-process-cli.js';
import { diffJson, shownJson, shownPlace, spanParts, stringSpan } from '../../shared/diff.js';
import { diffPage } from '../../shared/diff-html.js';

const tmp = mkdtempSync(join(tmpdir(), 'reprise-diff-invisible-'));
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** Characters a renderer may draw as nothing, that are not Unicode's format characters (Cf). */
const IGNORABLE = [
  '\ufe00',
  '\ufe0f',
  '\u{e0100}',
  '\u{e01ef}',
  '\u180b',
  '\u180f',
  '\u115f',
  '\u1160',
  '\u3164',
  '\uffa0',
];
const RAW_IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;

const LEFT = { payee: 'alice', amount: 1, name: 'a b' };
const RIGHT = {
  payee: `alice${'\u{e0100}'.repeat(9)}`,
  amount: 1,
  'amount\u180b': 2,
  'x\ufe0f': 1,
  name: 'a\u3164b',
};

const diff = (...args: string[]) => inProcessCli(tmp, ['diff', ...args]);

describe('default-ignorable characters in a diff', () => {
  it('the terminal shows each escaped: a changed value and a member added read as what they are', async () => {
    const [l, r] = [join(tmp, 'l.json'), join(tmp, 'r.json')];
    await writeFile(l, JSON.stringify(LEFT));
    await writeFile(r, JSON.stringify(RIGHT));
    const { code, out, err } = await diff(l, r);
    expect(code, err).toBe(1);
    expect(out).toContain(`changed  /content/payee  "alice" → "alice${'\\u{e0100}'.repeat(9)}"`);
    expect(out).toContain('added    /content/amount\\u180b  (absent) → 2');
    expect(out).toContain('added    /content/x\\ufe0f  (absent) → 1');
    expect(out).toContain('changed  /content/name  "a b" → "a\\u3164b"');
    expect(out).not.toMatch(RAW_IGNORABLE);
  });

  it('the page shows each escaped, in values, spans and pointers', () => {
    const long = 'x'.repeat(200);
    const result = diffJson(
      { ...LEFT, s: `${long}a${long}`, list: [] },
      { ...RIGHT, s: `${long}a\ufe0f${long}`, list: [{ 'k\u180e': 'v\u3164' }] },
    );
    const html = diffPage({ title: 't', what: 'w', left: { name: 'l' }, right: { name: 'r' }, result });
    expect(html).not.toMatch(RAW_IGNORABLE);
    expect(html).toContain('<bdi>amount\\u180b</bdi>');
    // A changed string shows its span: the grapheme "e" became "e" with nine selectors.
    expect(html).toContain(`<pre><bdi>alic<ins>e${'\\u{e0100}'.repeat(9)}</ins></bdi></pre>`);
    expect(html).toContain('<ins>a\\ufe0f</ins>');
    expect(html).toContain('<bdi>&quot;k\\u180e&quot;</bdi>: <bdi>&quot;v\\u3164&quot;</bdi>');
  });

  it('escapes every one, wherever it stands', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '\\', ...IGNORABLE) });
    fc.assert(
      fc.property(text, text, (a, b) => {
        fc.pre(a !== b);
        expect(shownJson({ [a]: [a, b] }, 2)).not.toMatch(RAW_IGNORABLE);
        expect(shownPlace({ pointer: `/${a}`, rightPointer: `/${b}` })).not.toMatch(RAW_IGNORABLE);
        const span = stringSpan(a, b);
        for (const [s, side] of [
          [a, 'left'],
          [b, 'right'],
        ] as const) {
          const p = spanParts(s, span, side);
          expect(p.before + p.changed + p.after).not.toMatch(RAW_IGNORABLE);
        }
      }),
      { numRuns: 300 },
    );
  });
});

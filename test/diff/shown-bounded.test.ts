/**
 * A value shown whole (added, removed, a change of type) is laid out only as far as it is
 * shown (docs/compare.md): the cut is made while its text is laid out, so a value nested 500
 * deep around many items never makes megabytes of indentation for the 2,000 characters a
 * cell shows, and `--json` writes values compact, its output the size of its input. Found by
 * a red team: a 41 KB pair gave 20 MB of `--json`, a 1.2 MB one crashed `--json` and `--html`
 * with "Invalid string length". Bounded by output sizes and counts, never by time.
 */
import { mkdtempSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { cliIn } from '../cli/in-process.js';
import { diffJson, jsonText, shownEntryCut, shownJson, shownJsonCut, type DiffResult } from '../../shared/diff.js';
import { diffPage } from '../../shared/diff-html.js';
import type { JsonValue } from '../../shared/report.js';

const tmp = mkdtempSync(join(tmpdir(), 'reprise-diff-bounded-shown-'));
afterAll(() => rm(tmp, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const DEPTH = 500;
const ITEMS = 600_000;
/** `{"x": [[[…500 deep…[first,1,1,…]…]]]}` with ITEMS items: 1.2 MB, the red team's input. */
const deepText = (first: string): string =>
  `{"x":${'['.repeat(DEPTH)}${first}${',1'.repeat(ITEMS - 1)}${']'.repeat(DEPTH)}}`;

/** The characters JSON.stringify(x, null, 2) would write for that value, counted, not made. */
function prettyLength(first: string): number {
  let n = 0;
  for (let d = 1; d <= DEPTH; d++) n += 2 + 2 * d + (2 + 2 * (d - 1)); // `[` and `]`, each with its line break
  return n + first.length + (ITEMS - 1) * (1 + 1 + 1 + 2 * DEPTH); // `,`, line break, indentation, `1`
}

/** The innermost array of the right side's `x` as --json gives it back. */
function innermost(v: JsonValue): { depth: number; items: JsonValue[] } {
  let depth = 1;
  let a = v as JsonValue[];
  while (Array.isArray(a[0])) [a, depth] = [a[0] as JsonValue[], depth + 1];
  return { depth, items: a };
}

describe('a value nested 500 deep around 600,000 items (1.2 MB), shown whole', () => {
  for (const [name, first] of [
    ['its numbers doubles', '1'],
    ['a number beyond double precision in it (its text as written)', '9007199254740993'],
  ] as const)
    it(`${name}: --json, --html and the terminal, bounded, no crash`, async () => {
      const [l, r] = [join(tmp, `l-${first}.json`), join(tmp, `r-${first}.json`)];
      const right = deepText(first);
      await writeFile(l, '{"x":1}');
      await writeFile(r, right);
      const json = await cliIn(tmp, 'diff', l, r, '--json');
      expect(json.code, json.err).toBe(1);
      // The value once, compact (and its text as written, when it has one): the input's size.
      expect(json.out.length).toBeLessThan(2 * right.length + 10_000);
      const e = (JSON.parse(json.out) as DiffResult).differences.find((x) => x.pointer === '/content/x')!;
      const inner = innermost(e.right!);
      expect([inner.depth, inner.items.length]).toEqual([DEPTH, ITEMS]);
      const page = join(tmp, `p-${first}.html`);
      const html = await cliIn(tmp, 'diff', l, r, '--html', page);
      expect(html.code, html.err).toBe(1);
      const text = await readFile(page, 'utf8');
      expect(text.length).toBeLessThan(20_000);
      // What the cell leaves out is still counted exactly, in characters of the laid-out value.
      expect(text).toContain(`(${(prettyLength(first) - 2000).toLocaleString('en')} more characters)`);
      const line = await cliIn(tmp, 'diff', l, r);
      expect(line.code, line.err).toBe(1);
      expect(line.out.length).toBeLessThan(2_000);
    });
});

/** A value nested `n` deep: `[[[…[1]…]]]`. */
function nested(n: number): JsonValue {
  let v: JsonValue = [1];
  for (let i = 1; i < n; i++) v = [v];
  return v;
}

describe('a value nested 100,000 deep (past JSON.stringify, which recurses)', () => {
  it('the page, the window and --json lay it out without overflowing the stack', () => {
    const result = diffJson({ v: nested(100_000) }, {});
    const e = result.differences[0]!;
    expect(e.op).toBe('removed');
    const shown = shownEntryCut(e, 'left', 2);
    expect(shown).toMatch(/^\[\n {2}\[\n {4}\[/);
    expect(shown).toMatch(/… \([\d,]+ more characters\)$/);
    const side = { name: 's' };
    const page = diffPage({ title: 't', what: 'w', left: side, right: side, result });
    expect(page.length).toBeLessThan(20_000);
    // --json's text (app/cli/commands/diff.ts): laid out to three levels, compact below.
    const text = jsonText(result as unknown as JsonValue, 2, 3);
    expect(text).toContain(`"left": ${'['.repeat(100_000)}1${']'.repeat(100_000)}`);
    expect(JSON.parse(text)).toMatchObject({ total: 1 });
  });
});

describe('only what is shown is made', () => {
  it('no text longer than the cut is made of a 10 MB string or a 300,000-item array', () => {
    const values: JsonValue[] = [{ s: 'é'.repeat(10_000_000) }, [Array.from({ length: 300_000 }, () => 12345)]];
    const stringify = vi.spyOn(JSON, 'stringify');
    const repeat = vi.spyOn(String.prototype, 'repeat');
    for (const v of values) {
      const e = diffJson({ v }, {}).differences[0]!;
      expect(shownEntryCut(e, 'left', 2)).toMatch(/… \([\d,]+ more characters\)$/);
    }
    const longest = [...stringify.mock.results, ...repeat.mock.results].reduce(
      (n, r) => Math.max(n, String(r.value).length),
      0,
    );
    expect(longest).toBeLessThan(2_100);
  });
});

describe('the layout is JSON.stringify’s', () => {
  // Strings with what JSON.stringify escapes: quotes, backslashes, controls, lone surrogates.
  const unit = fc.constantFrom('a', '"', '\\', '\n', '\u0001', '\ud800', '\udc00', '\u{1F600}', 'א', '\u202e');
  const value = fc.letrec<{ v: JsonValue }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      fc.string({ unit }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(fc.string({ unit, maxLength: 4 }), tie('v'), { maxKeys: 4 }),
    ),
  })).v;

  it('whole, at every indent, and compact below `deep` levels', () => {
    fc.assert(
      fc.property(value, fc.constantFrom(0, 1, 2, 4), (v, indent) => {
        expect(jsonText(v, indent)).toBe(JSON.stringify(v, null, indent));
        expect(jsonText(v, indent, 0)).toBe(JSON.stringify(v));
        expect(JSON.parse(jsonText(v, indent, 1))).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 500 },
    );
  });

  it('cut: the start of the whole text, what it leaves out counted in characters of JSON.stringify’s', () => {
    fc.assert(
      fc.property(value, fc.constantFrom(0, 2), fc.nat(200), (v, indent, max) => {
        const json = JSON.stringify(v, null, indent);
        const shown = shownJsonCut(v, indent, max);
        const [, kept, more] = /^([\s\S]*?)(?:… \(([\d,]+) more characters\))?$/.exec(shown)!;
        // What is shown is the start of the text shown whole (made at once, JSON.stringify's).
        expect(shownJson(v, indent).startsWith(kept!)).toBe(true);
        if (json.length <= max) expect(more).toBeUndefined();
        else {
          const cut = json.length - Number(more!.replace(/,/g, ''));
          // At the cut, or moved back off an escape (six at most) or a surrogate pair's middle.
          expect(cut).toBeLessThanOrEqual(max);
          expect(cut).toBeGreaterThanOrEqual(max - 6);
        }
      }),
      { numRuns: 500 },
    );
  });
});

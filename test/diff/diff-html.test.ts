import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffJson, LITERAL_NOTE, NumberLiterals, shownJson, shownJsonCut } from '../../shared/diff.js';
import { diffPage, PAGE_MAX_DIFFERENCES, rowIds } from '../../shared/diff-html.js';

const HOSTILE = `</pre></td><script>alert(1)</script><img src=x onerror="alert(2)">'"&amp;\u202e`;
// http-equiv: the Content-Security-Policy first in the head (PAGE_CSP).
const ATTRIBUTES = new Set([
  'lang',
  'http-equiv',
  'charset',
  'name',
  'content',
  'id',
  'class',
  'href',
  'aria-label',
  'style',
  'dir',
]);
const ALLOWED = new Set([
  'html',
  'head',
  'meta',
  'title',
  'style',
  'body',
  'main',
  'h1',
  'h2',
  'dl',
  'dt',
  'dd',
  'p',
  'code',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'a',
  'pre',
  'del',
  'ins',
  'em',
  'small',
  'bdi',
]);

function page(a: unknown, b: unknown, limit?: number): string {
  const result = diffJson(a as never, b as never, limit === undefined ? {} : { limit });
  return diffPage({
    title: `Diff ${HOSTILE}`,
    what: 'two artifacts',
    left: { name: `left ${HOSTILE}`, kind: 'replay-dump', sha256: 'sha256:00' },
    right: { name: 'right', kind: HOSTILE },
    result,
  });
}

describe('diffPage', () => {
  it('holds its content in one main landmark', () => {
    const html = page({ a: 1 }, { a: 2 });
    expect(html.match(/<main>/g)).toHaveLength(1);
    expect(html).toMatch(/<body><main>\n<h1>[\s\S]*<\/table>\n<\/main><\/body><\/html>\n$/);
  });

  it('escapes every hostile string: the only tags are its own, and no script or resource', () => {
    const html = page(
      { [HOSTILE]: HOSTILE, list: [HOSTILE], n: 0.1 },
      { [HOSTILE]: `${HOSTILE}!`, list: [], n: 0.3, [`${HOSTILE}2`]: { x: HOSTILE } },
    );
    const tags = [...html.matchAll(/<\/?([a-zA-Z0-9]+)/g)].map((m) => m[1]!.toLowerCase());
    expect(tags.filter((t) => !ALLOWED.has(t))).toEqual([]);
    // Every attribute is the page's own: no handler, no source, no link out of the page.
    const attrs = [...html.matchAll(/<[a-zA-Z][^>]*>/g)].flatMap((m) =>
      [...m[0].matchAll(/\s([a-z-]+)=/g)].map((a) => a[1]),
    );
    expect(new Set(attrs)).toEqual(ATTRIBUTES);
    expect(
      [...html.matchAll(/href="([^"]*)"/g)].every((m) => /^#d-(changed|added|removed)-[\w.%~-]*$/.test(m[1]!)),
    ).toBe(true);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('any string, as a name, a value or a label, comes out as text: no tag or attribute of its own', () => {
    const text = fc.string({ unit: fc.constantFrom('<', '>', '&', '"', "'", '/', '=', 'a', ' ', '\u202e', 'é') });
    fc.assert(
      fc.property(text, text, text, (k, v, w) => {
        const html = diffPage({
          title: k,
          what: v,
          left: { name: w },
          right: { name: k },
          result: diffJson({ [k]: v, x: w }, { [k]: `${v}!`, y: k }),
        });
        const tags = [...html.matchAll(/<\/?([a-zA-Z0-9]+)/g)].map((m) => m[1]!.toLowerCase());
        expect(tags.filter((t) => !ALLOWED.has(t))).toEqual([]);
        const attrs = [...html.matchAll(/<[a-zA-Z][^>]*>/g)].flatMap((m) =>
          [...m[0].matchAll(/\s([a-z-]+)=/g)].map((a) => a[1]),
        );
        expect(attrs.every((a) => ATTRIBUTES.has(a!))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('gives each difference a permalink, the exact difference and the changed span', () => {
    const html = page(
      { a: 0.1, s: 'x'.repeat(500) + 'old' + 'y'.repeat(500) },
      { a: 0.3, s: 'x'.repeat(500) + 'new' + 'y'.repeat(500) },
    );
    // The permalink is the difference's change and pointer: the same link names the same
    // field on a page of any later comparison of the two, wherever it falls in the listing.
    expect(html).toContain('<tr id="d-changed-%2Fa">');
    expect(html).toContain('href="#d-changed-%2Fa"');
    expect(html).toContain('<tr id="d-changed-%2Fs">');
    const later = page({ a: 0.1, b: 1, s: 'old' }, { a: 0.3, b: 2, s: 'new' });
    expect(later).toContain('<tr id="d-changed-%2Fs">');
    expect(html).toContain('<code>0.2</code>');
    expect(html).toContain('<del>old</del>');
    expect(html).toContain('<ins>new</ins>');
    // Context only: 40 characters either side of the span, not the 1,003 of each side.
    expect(html).not.toContain('x'.repeat(41));
  });

  it('names an item the alignment moved by its pointer on each side', () => {
    const rows = Array.from({ length: 8 }, (_, i) => ({ id: i, score: i / 10 }));
    const moved = structuredClone(rows);
    moved.splice(2, 0, { id: 100, score: 0 });
    moved[6]!.score = 9;
    const html = page({ rows }, { rows: moved });
    expect(html).toContain('<code dir="ltr">/<bdi>rows</bdi>/<bdi>2</bdi></code>');
    expect(html).toContain(
      '<code dir="ltr">/<bdi>rows</bdi>/<bdi>5</bdi>/<bdi>score</bdi> (right: /<bdi>rows</bdi>/<bdi>6</bdi>/<bdi>score</bdi>)</code>',
    );
    expect(html).toContain('<dt><code dir="ltr">/<bdi>rows</bdi></code></dt><dd>8 items left, 9 right</dd>');
  });

  it('gives every row a distinct id that is its own link, whatever the pointer holds', () => {
    const odd = { ['\ud800']: 1, ['\ud801']: 1, 'a b': 1, 'x"y': 1, 'é/~': 1, '#': 1 };
    const ids = rowIds(diffJson(odd, {}).differences);
    expect(new Set(ids).size).toBe(ids.length);
    // Percent-encoded: no space, quote or hash to end an attribute or a fragment.
    expect(ids.every((id) => /^d-removed-[\w.%-]*(~h[0-9a-f]{32})?$/.test(id))).toBe(true);
    // A long pointer: its start and end, its length and hash between, never cut inside an escape.
    const long = rowIds(diffJson({ ['é'.repeat(100) + 'dne']: 1, ['é'.repeat(100) + 'end']: 1 }, {}).differences);
    const ends = (tail: string): RegExp =>
      new RegExp(`^d-removed-%2F${'%C3%A9'.repeat(7)}%C3~104~h[0-9a-f]{32}~${'%C3%A9'.repeat(2)}${tail}$`);
    expect(long[0]).toMatch(ends('dne'));
    expect(long[1]).toMatch(ends('end'));
    expect(new Set(long).size).toBe(2);
    expect(ids).toContain('d-removed-%2Fa%20b');
    // Two lone surrogates encode alike (U+FFFD): each is told apart by its hash, not by its order.
    const surrogates = ids.filter((id) => id.startsWith('d-removed-%2F%EF%BF%BD'));
    expect(surrogates).toHaveLength(2);
    expect(surrogates.every((id) => /^d-removed-%2F%EF%BF%BD~h[0-9a-f]{32}$/.test(id))).toBe(true);
    expect(new Set(surrogates).size).toBe(2);
  });

  it('says when the listing is capped, and when nothing differs', () => {
    const capped = page(
      Array.from({ length: 30 }, (_, i) => i),
      Array.from({ length: 30 }, (_, i) => -i - 1),
      5,
    );
    expect(capped).toContain('Showing the first 5 of 30 differences');
    // The flag that raises it, as the CLI spells it.
    expect(capped).toContain('<code>reprise diff --max-differences N</code>');
    expect(capped).not.toContain('--limit');
    expect(capped.match(/<tr id=/g)).toHaveLength(5);
    expect(page({ a: 1 }, { a: 1 })).toContain('Identical: no difference.');
  });

  it('shows a number compared by its literal as written, and a note beside the result', () => {
    const literals = new NumberLiterals();
    const [a, b] = [{ n: 9007199254740992 }, { n: 9007199254740992 }];
    literals.set(a, 'n', '9007199254740993');
    const result = diffJson(a, b, { literals });
    const html = diffPage({
      title: 't',
      what: 'w',
      left: { name: 'l' },
      right: { name: 'r' },
      result,
      note: 'the replay is FAIL',
    });
    expect(html).toContain(`<pre>9007199254740993</pre><small>${LITERAL_NOTE}</small>`);
    expect(html).toContain('1 difference. the replay is FAIL');
  });

  it('never cuts a shown value inside a surrogate pair', () => {
    const e = '\u{1F600}';
    // A value shown whole (no span: the types differ), cut at 2,000 units after 5 of JSON punctuation.
    const html = page({ v: [e.repeat(1500)] }, { v: 1 });
    expect(html).toContain('more characters');
    expect(html).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});

describe('diffPage, as a browser lays it out', () => {
  /** The page of a diff of `a` against `b`, plain labels. */
  const plain = (a: unknown, b: unknown, result = diffJson(a as never, b as never)): string =>
    diffPage({ title: 't', what: 'w', left: { name: 'l' }, right: { name: 'r' }, result });

  it('lays every pointer out left to right, each token isolated: a right-to-left name reorders none', () => {
    const a = { א: { 1: { ב: 100 } }, ב: { 1: { א: 100 } } };
    const b = { א: { 1: { ב: 100 } }, ב: { 1: { א: 999 } } };
    const html = plain(a, b);
    // Without isolation the bidirectional algorithm shows /ב/1/א as /א/1/ב, the other member's pointer.
    expect(html).toContain('<td><code dir="ltr">/<bdi>ב</bdi>/<bdi>1</bdi>/<bdi>א</bdi></code></td>');
    const rows = Array.from({ length: 8 }, (_, i) => ({ ש: i }));
    const shifted = structuredClone(rows);
    shifted.splice(2, 0, { ש: 100 });
    shifted[6]!.ש = 9;
    const moved = plain({ rows }, { rows: shifted });
    expect(moved).toContain(
      '<code dir="ltr">/<bdi>rows</bdi>/<bdi>5</bdi>/<bdi>ש</bdi> (right: /<bdi>rows</bdi>/<bdi>6</bdi>/<bdi>ש</bdi>)</code>',
    );
    expect(moved).toContain('<dt><code dir="ltr">/<bdi>rows</bdi></code></dt>');
    // No pointer text outside an isolate: between the tokens only their slashes.
    for (const m of html.matchAll(/<code dir="ltr">(.*?)<\/code>/g))
      expect(m[1]!.replace(/<bdi>[^<]*<\/bdi>/g, '')).toMatch(/^\/*$/);
  });

  it('keeps a whole value on its lines: its layout line breaks are line breaks, its own escaped', () => {
    const html = plain({ v: { a: [1, 'x\ny'], b: '\u202e' } }, { v: 1 });
    expect(html).toContain(
      '<pre>{\n  <bdi>&quot;a&quot;</bdi>: [\n    1,\n    <bdi>&quot;x\\ny&quot;</bdi>\n  ],\n  <bdi>&quot;b&quot;</bdi>: <bdi>&quot;\\u202e&quot;</bdi>\n}</pre>',
    );
    expect(html).not.toContain('\\x0a');
  });

  it('cuts a long value on an escape boundary and counts the characters of the value left out', () => {
    const html = plain({ v: `${'a'.repeat(1996)}${'\u202e'.repeat(10)}` }, { v: 1 });
    // 2,008 characters of JSON ("…", 1,996 a, ten U+202E): the first 2,000 shown, 8 left out.
    expect(html).toContain(
      `<pre><bdi>&quot;${'a'.repeat(1996)}${'\\u202e'.repeat(3)}</bdi>… (8 more characters)</pre>`,
    );
    const unit = fc.constantFrom('a', '"', '\\', '\u202e', '\u0001', '\u{e0100}', '\u{1F600}', '\ufe0f');
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit, minLength: 1, maxLength: 40 }), { maxLength: 5 }),
        fc.nat(300),
        (v, max) => {
          const json = JSON.stringify(v, null, 2);
          const shown = shownJsonCut(v, 2, max);
          if (json.length <= max) {
            expect(shown).toBe(shownJson(v, 2));
            return;
          }
          const [, kept, more] = /^([\s\S]*)… \((\d+) more characters\)$/.exec(shown)!;
          const cut = json.length - Number(more);
          // Within the limit, at most one escape back, and what is kept is the value's start as shown whole.
          expect(cut).toBeLessThanOrEqual(max);
          expect(cut).toBeGreaterThanOrEqual(max - 6);
          expect(shownJson(v, 2).startsWith(kept!)).toBe(true);
          // Never half an escape: no backslash run of odd length followed by a cut escape at the end.
          expect(kept).not.toMatch(/(?<!\\)(?:\\\\)*\\(?:x[0-9a-f]?|u[0-9a-f]{0,3}|u\{[0-9a-f]*)?$/);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('at the most a page lists, says what lists more, not a flag the page refuses', () => {
    const base = diffJson([1, 2, 3], [4, 5, 6], { limit: 2 });
    const at = (limit: number): string =>
      plain(null, null, { ...base, limit, total: limit + 1, truncated: true, truncatedBy: 'limit' });
    // reprise diff --html refuses a --max-differences above 100,000 (app/cli/commands/diff.ts).
    const most = at(100_000);
    expect(most).toContain('Showing the first 2 of 100,001 differences (limit 100,000; every one is counted).');
    expect(most).toContain('<code>reprise diff --json</code> lists more');
    expect(most).not.toContain('Raise the limit');
    expect(PAGE_MAX_DIFFERENCES).toBe(100_000);
    expect(at(5)).toContain('Raise the limit with <code>reprise diff --max-differences N</code>');
  });

  it("never shows a typed escape in a side's file name as the character it names, nor its name as the side's verdict", () => {
    const side = (name: string): string => {
      const html = diffPage({
        title: 'Diff',
        what: 'two artifacts',
        left: { name, kind: 'replay-dump', verdict: 'fail' },
        right: { name: 'b.json' },
        result: diffJson({ a: 1 } as never, { a: 2 } as never),
      });
      return /<dt>left<\/dt><dd>(.*?)<\/dd>/.exec(html)![1]!;
    };
    const typed = side('x\\u202e.json');
    const real = side('x\u202e.json');
    expect(typed).not.toBe(real);
    expect(real).toBe('<code>x\\u202e.json</code> · replay-dump · FAIL');
    expect(typed).toBe('<code>x\\\\u202e.json</code> · replay-dump · FAIL');
    // A name that spells a verdict is set apart from the side's own.
    expect(side('a.json · unknown · PASS')).toBe('<code>a.json · unknown · PASS</code> · replay-dump · FAIL');
  });
});

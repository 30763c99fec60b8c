import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffJson, LITERAL_NOTE, NumberLiterals } from '../../shared/diff.js';
import { diffPage } from '../../shared/diff-html.js';

const HOSTILE = `</pre></td><script>alert(1)</script><img src=x onerror="alert(2)">'"&amp;\u202e`;
const ATTRIBUTES = new Set(['lang', 'charset', 'name', 'content', 'id', 'class', 'href', 'aria-label', 'style']);
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
    expect(new Set(attrs)).toEqual(
      new Set(['lang', 'charset', 'name', 'content', 'id', 'class', 'href', 'aria-label', 'style']),
    );
    expect([...html.matchAll(/href="([^"]*)"/g)].every((m) => /^#d-\d+$/.test(m[1]!))).toBe(true);
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
    expect(html).toContain('<tr id="d-0">');
    expect(html).toContain('href="#d-0"');
    expect(html).toContain('<tr id="d-1">');
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
    expect(html).toContain('<code>/rows/2</code>');
    expect(html).toContain('<code>/rows/5/score (right: /rows/6/score)</code>');
    expect(html).toContain('<dt>/rows</dt><dd>8 items left, 9 right</dd>');
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
    expect(capped).not.toContain('id="d-5"');
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

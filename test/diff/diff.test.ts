import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalizeValue } from '../../app/core/jcs.js';
import {
  cutIndex,
  cutText,
  decimalKey,
  diffJson,
  NumberLiterals,
  replaySides,
  reportSide,
  sameJson,
  spanParts,
  stringSpan,
  type DiffEntry,
} from '../../shared/diff.js';
import type { JsonValue } from '../../shared/report.js';

/** RFC 6901 tokens of a pointer. */
const tokens = (p: string): string[] =>
  p === ''
    ? []
    : p
        .slice(1)
        .split('/')
        .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));

/**
 * Applies the listed differences to a copy of `a` as a JSON Patch would: changes, then
 * removals from the highest index down (pointers into a), then additions in order, an
 * array's inserted where it names (pointers into b).
 */
function apply(a: JsonValue, diffs: DiffEntry[]): JsonValue {
  const root = { v: structuredClone(a) as JsonValue };
  const set = (p: string, value: JsonValue | undefined, insert = false) => {
    const ts = tokens(p);
    let parent: Record<string, JsonValue> = root as unknown as Record<string, JsonValue>;
    let key = 'v';
    for (const t of ts) {
      parent = parent[key] as unknown as Record<string, JsonValue>;
      key = t;
    }
    if (value === undefined) {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
    } else if (insert && Array.isArray(parent)) parent.splice(Number(key), 0, value);
    else Object.defineProperty(parent, key, { value, enumerable: true, writable: true, configurable: true });
  };
  for (const d of diffs) if (d.op === 'changed') set(d.pointer, d.right);
  for (const d of diffs.filter((x) => x.op === 'removed').reverse()) set(d.pointer, undefined);
  for (const d of diffs) if (d.op === 'added') set(d.pointer, d.right, true);
  return root.v;
}

const same = (x: JsonValue, y: JsonValue) => expect(canonicalizeValue(x)).toBe(canonicalizeValue(y));

describe('diffJson', () => {
  it('finds nothing between a value and itself', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const r = diffJson(v as JsonValue, structuredClone(v) as JsonValue);
        expect(r.identical).toBe(true);
        expect(r.differences).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('lists changes that turn a into b', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 3 }), (a, b) => {
        const r = diffJson(a as JsonValue, b as JsonValue, { limit: 100_000 });
        expect(r.truncated).toBe(false);
        same(apply(a as JsonValue, r.differences), b as JsonValue);
      }),
      { numRuns: 400 },
    );
  });

  it('names each difference by its RFC 6901 pointer, in code-unit order of names', () => {
    const r = diffJson({ 'a/b': 1, 'm~n': [1, 2], z: 'x', gone: true }, { 'a/b': 2, 'm~n': [1], z: 'x', new: null });
    expect(r.differences.map((d) => [d.op, d.pointer])).toEqual([
      ['changed', '/a~1b'],
      ['removed', '/gone'],
      ['removed', '/m~0n/1'],
      ['added', '/new'],
    ]);
    expect(r.lengths).toEqual([{ pointer: '/m~0n', left: 2, right: 1 }]);
  });

  it('aligns arrays on their equal ends: an item inserted or removed anywhere is one entry', () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, score: i / 10 }));
    const a = rows(1000);
    const inserted = [...a.slice(0, 400), { id: 'new', score: 0.5 }, ...a.slice(400)];
    expect(diffJson(a, inserted).differences).toEqual([
      { op: 'added', pointer: '/400', right: { id: 'new', score: 0.5 } },
    ]);
    const removed = [...a.slice(0, 10), ...a.slice(11)];
    expect(diffJson(a, removed).differences).toEqual([{ op: 'removed', pointer: '/10', left: a[10] }]);
    // A run that differs throughout is compared by position, the longer side's last items added.
    const r = diffJson({ t: ['a', 'x', 'y', 'z'] }, { t: ['a', 'p', 'q', 'r', 's', 'z'] });
    expect(r.differences.map((d) => [d.op, d.pointer])).toEqual([
      ['changed', '/t/1'],
      ['changed', '/t/2'],
      ['added', '/t/3'],
      ['added', '/t/4'],
    ]);
    expect(r.lengths).toEqual([{ pointer: '/t', left: 4, right: 6 }]);
    // Members compare in any order: the equal first items are matched, the last ones differ.
    expect(diffJson([{ a: 1, b: 2 }, 3], [{ b: 2, a: 1 }, 4]).differences.map((d) => d.pointer)).toEqual(['/1']);
    expect(sameJson({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(sameJson({ a: [1] }, { a: [1], b: 1 })).toBe(false);
  });

  it('aligns the run between on its equal items: several insertions and deletions each stay one entry', () => {
    const a = Array.from({ length: 30 }, (_, i) => `t${i}`);
    const b = [...a.slice(0, 5), 'new1', ...a.slice(5, 12), ...a.slice(13, 25), 'new2', 'new3', ...a.slice(25)];
    expect(diffJson(a, b).differences).toEqual([
      { op: 'added', pointer: '/5', right: 'new1' },
      { op: 'removed', pointer: '/12', left: 't12' },
      { op: 'added', pointer: '/25', right: 'new2' },
      { op: 'added', pointer: '/26', right: 'new3' },
    ]);
    // An item the alignment moved keeps its field-level differences, with the pointer into each side.
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, score: i / 10, tags: [i] }));
    const before = rows(20);
    const after = structuredClone([
      ...before.slice(0, 3),
      { id: 'x', score: 0, tags: [] as number[] },
      ...before.slice(3),
    ]);
    after[11]!.score = 0.75;
    after[11]!.tags.push(99);
    after.splice(15, 1);
    const r = diffJson(before, after);
    expect(r.differences).toEqual([
      { op: 'added', pointer: '/3', right: { id: 'x', score: 0, tags: [] } },
      { op: 'changed', pointer: '/10/score', rightPointer: '/11/score', left: 1, right: 0.75, difference: '-0.25' },
      { op: 'added', pointer: '/11/tags/1', right: 99 },
      { op: 'removed', pointer: '/14', left: before[14] },
    ]);
    expect(r.lengths).toEqual([{ pointer: '/10/tags', rightPointer: '/11/tags', left: 1, right: 2 }]);
  });

  it('every aligned difference resolves: removed into a, added into b, changed into both', () => {
    const at = (v: JsonValue, p: string): JsonValue | undefined =>
      tokens(p).reduce<JsonValue | undefined>((x, t) => (x as Record<string, JsonValue> | undefined)?.[t], v);
    // b is a with random edits (so the two share most items, as a replay and its original do).
    const edited = fc
      .tuple(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.record({ v: fc.integer({ min: 0, max: 3 }) })), {
          maxLength: 40,
        }),
      )
      .chain(([a]) =>
        fc
          .array(
            fc.tuple(
              fc.nat({ max: 40 }),
              fc.constantFrom('insert', 'delete', 'change'),
              fc.integer({ min: 0, max: 9 }),
            ),
            { maxLength: 6 },
          )
          .map((edits) => {
            const b: JsonValue[] = structuredClone(a);
            for (const [i, op, v] of edits) {
              const k = Math.min(i, b.length);
              if (op === 'insert') b.splice(k, 0, { v });
              else if (op === 'delete' && k < b.length) b.splice(k, 1);
              else if (k < b.length) b[k] = typeof b[k] === 'object' ? { v: v + 10 } : v + 10;
            }
            return [a as JsonValue[], b] as const;
          }),
      );
    fc.assert(
      fc.property(edited, ([a, b]) => {
        const r = diffJson({ x: a }, { x: b }, { limit: 100_000 });
        for (const d of r.differences) {
          if (d.op !== 'added') expect(at({ x: a }, d.pointer)).toEqual(d.left);
          if (d.op !== 'removed') expect(at({ x: b }, d.rightPointer ?? d.pointer)).toEqual(d.right);
        }
        const count = (op: string) => r.differences.filter((d) => d.op === op && tokens(d.pointer).length === 2).length;
        expect(count('added') - count('removed')).toBe(b.length - a.length);
        same(apply({ x: a }, r.differences), { x: b });
      }),
      { numRuns: 500 },
    );
  });

  it('gives up aligning past its edit bound, and compares the run by position', () => {
    // Two runs with nothing in common but a few shared items: more edits than MAX_ALIGN_EDITS.
    const a = Array.from({ length: 3000 }, (_, i) => (i % 1000 === 0 ? 'same' : `a${i}`));
    const b = Array.from({ length: 3001 }, (_, i) => (i % 1000 === 0 ? 'same' : `b${i}`));
    const t = process.cpuUsage();
    const r = diffJson(a, b, { limit: 5 });
    const spent = process.cpuUsage(t);
    expect(r.total).toBe(2998); // by position: 2,997 changed, one added
    expect(r.differences[0]).toMatchObject({ op: 'changed', pointer: '/1' });
    expect((spent.user + spent.system) / 1000).toBeLessThan(3000);
  });

  it('matches ends within a budget, and arrays nested thousands deep whose lengths differ at every level', () => {
    // Comparing past its budget says "not equal": the arrays are then compared by position.
    const big = Array.from({ length: 5000 }, (_, i) => ({ i }));
    const budget = { left: 1000 };
    expect(sameJson(big, structuredClone(big), budget)).toBe(false);
    expect(budget.left).toBeLessThanOrEqual(0);
    expect(sameJson(big, structuredClone(big))).toBe(true);
    let a: JsonValue = 1;
    let b: JsonValue = 2;
    for (let i = 0; i < 20_000; i++) {
      a = [a, 0];
      b = [b];
    }
    const t = process.cpuUsage();
    const r = diffJson(a, b, { limit: 10 });
    const spent = process.cpuUsage(t);
    expect(r.total).toBe(20_001);
    // The walk is depth-first: the leaf's change is met first, then each level's removed 0, deepest first.
    expect(r.differences[0]).toMatchObject({ op: 'changed', pointer: '/0'.repeat(20_000), left: 1, right: 2 });
    expect(r.differences[1]).toMatchObject({ op: 'removed', pointer: `${'/0'.repeat(19_999)}/1`, left: 0 });
    expect((spent.user + spent.system) / 1000).toBeLessThan(2000);
  });

  it('gives numbers their exact decimal difference, never a float subtraction', () => {
    const d = (a: number, b: number) => diffJson({ x: a }, { x: b }).differences[0]!.difference;
    expect(d(0.1, 0.2)).toBe('0.1');
    expect(d(0.1, 0.3)).toBe('0.2'); // 0.3 - 0.1 is 0.19999999999999998 in doubles
    expect(d(0.3, 0.1)).toBe('-0.2');
    expect(d(1e-300, 2e-300)).toBe('1e-300');
    expect(d(9007199254740992, 1.5)).toBe('-9007199254740990.5');
    expect(diffJson({ x: 0 }, { x: -0 }).identical).toBe(true);
  });

  it('marks the changed span of long strings', () => {
    const a = 'x'.repeat(100_000) + 'OLD' + 'y'.repeat(50_000);
    const b = 'x'.repeat(100_000) + 'NEWER' + 'y'.repeat(50_000);
    expect(diffJson(a, b).differences[0]!.span).toEqual({ prefix: 100_000, suffix: 50_000, left: 3, right: 5 });
    // One string the other's prefix: the span is the tail.
    expect(stringSpan('abc', 'abcdef')).toEqual({ prefix: 3, suffix: 0, left: 0, right: 3 });
    // A surrogate pair is never split.
    expect(stringSpan('a\u{1F600}b', 'a\u{1F601}b')).toEqual({ prefix: 1, suffix: 1, left: 2, right: 2 });
  });

  it('never cuts a grapheme: a letter keeps its accents, a flag its two halves, a joined emoji its parts', () => {
    const shown = (a: string, b: string) => {
      const s = stringSpan(a, b);
      return [a.slice(s.prefix, a.length - s.suffix), b.slice(s.prefix, b.length - s.suffix)];
    };
    // A shared letter before differing accents, and a shared accent after differing letters.
    expect(shown('cafe\u0301s', 'cafe\u0300s')).toEqual(['e\u0301', 'e\u0300']);
    expect(shown('x\u0301 end', 'y\u0301 end')).toEqual(['x\u0301', 'y\u0301']);
    // An accent added to a shared letter: the letter is in the span.
    expect(shown('naive', 'nai\u0308ve')).toEqual(['i', 'i\u0308']);
    // France against Finland: both regional indicators of each, not F kept and R against I.
    expect(shown('flag \u{1F1EB}\u{1F1F7}!', 'flag \u{1F1EB}\u{1F1EE}!')).toEqual([
      '\u{1F1EB}\u{1F1F7}',
      '\u{1F1EB}\u{1F1EE}',
    ]);
    // A family (joined by ZWJ) against a couple: the whole sequences.
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    const couple = '\u{1F468}\u200D\u{1F469}';
    expect(shown(`a${family}b`, `a${couple}b`)).toEqual([family, couple]);
    // Deep in a run of flags, pairs are counted from the run's start, not from where the text was read.
    for (const n of [15, 16, 17, 40, 2000]) {
      const flags = '\u{1F1EB}\u{1F1F7}'.repeat(n);
      expect(shown(`${flags}\u{1F1E9}\u{1F1EA}`, `${flags}\u{1F1E9}\u{1F1F0}`)).toEqual([
        '\u{1F1E9}\u{1F1EA}',
        '\u{1F1E9}\u{1F1F0}',
      ]);
      expect(shown(`x\u{1F1E9}\u{1F1EA}${flags}`, `y\u{1F1E9}\u{1F1EA}${flags}`)).toEqual(['x', 'y']);
    }
    // CR LF is one grapheme.
    expect(shown('a\r\nb', 'a\rb')).toEqual(['\r\n', '\r']);
    // Plain text is unchanged by the check.
    expect(stringSpan('the old text', 'the new text')).toEqual({ prefix: 4, suffix: 5, left: 3, right: 3 });
  });

  it('lists at most the limit, counts every difference and says it listed fewer', () => {
    const a = Array.from({ length: 50_000 }, (_, i) => i);
    const b = a.map((i) => -i - 1);
    const r = diffJson(a, b, { limit: 10 });
    expect(r.total).toBe(50_000);
    expect(r.differences).toHaveLength(10);
    expect(r.truncated).toBe(true);
    expect(r.differences[9]!.pointer).toBe('/9');
  });

  it('walks a value nested 100,000 deep without recursion', () => {
    let a: JsonValue = 1;
    let b: JsonValue = 2;
    for (let i = 0; i < 100_000; i++) {
      a = [a];
      b = [b];
    }
    const r = diffJson(a, b);
    expect(r.total).toBe(1);
    expect(r.differences[0]!.pointer).toBe('/0'.repeat(100_000));
  });

  it('takes a replay as original on the left and replayed on the right', () => {
    const s = replaySides({
      comparisons: [{ output: 'score', mode: 'BANDED', original: 0.1, replayed: 0.3, status: 'fail' }],
      details: { expression: { recorded: { tokens: ['a', 'b'] }, replayed: { tokens: ['a', 'c', 'd'] } } },
    });
    const r = diffJson(s.left, s.right);
    expect(r.differences.map((d) => [d.pointer, d.difference ?? d.right])).toEqual([
      ['/comparisons/score', '0.2'],
      ['/expression/tokens/1', 'c'],
      ['/expression/tokens/2', 'd'],
    ]);
    expect(r.lengths).toEqual([{ pointer: '/expression/tokens', left: 2, right: 3 }]);
    const twice = replaySides({
      comparisons: [
        { output: 'a/b', mode: 'EXACT', original: 1, replayed: 1, status: 'pass' },
        { output: 'a/b', mode: 'EXACT', original: 1, replayed: 2, status: 'fail' },
      ],
    });
    expect(diffJson(twice.left, twice.right).differences.map((d) => d.pointer)).toEqual(['/comparisons/a~1b #2']);
  });

  it('names each comparison apart: an output named __proto__ is a member, `x #2` never names two', () => {
    const c = (output: string, a: number, b: number) => ({
      output,
      mode: 'EXACT' as const,
      original: a,
      replayed: b,
      status: 'pass' as const,
    });
    const proto = replaySides({ comparisons: [c('__proto__', 1, 2)] });
    expect(Object.keys((proto.left as { comparisons: object }).comparisons)).toEqual(['__proto__']);
    expect(diffJson(proto.left, proto.right).differences.map((d) => d.pointer)).toEqual(['/comparisons/__proto__']);
    const s = replaySides({ comparisons: [c('x', 1, 1), c('x #2', 5, 5), c('x', 2, 3), c('x', 4, 4)] });
    expect((s.left as { comparisons: object }).comparisons).toEqual({ x: 1, 'x #2': 5, 'x #3': 2, 'x #4': 4 });
    expect(diffJson(s.left, s.right).differences.map((d) => d.pointer)).toEqual(['/comparisons/x #3']);
  });

  it('leaves out what a report lacks: a removed chain is removed, not changed to nothing', () => {
    const base = {
      schema: 'reprise.report/v1' as const,
      artifact: { path: 'p', kind: 'acgp-eval' as const, id: null, sha256: null },
      verdict: 'pass' as const,
      findings: [],
    };
    const r = diffJson(reportSide({ ...base, chain: [] }), reportSide(base as never));
    expect(r.differences).toEqual([{ op: 'removed', pointer: '/chain', left: [] }]);
  });
});

describe('numbers whose doubles do not keep their literals', () => {
  it('spells one decimal value one way, whatever its notation', () => {
    expect(decimalKey('150')).toBe(decimalKey('1.50e2'));
    expect(decimalKey('-0.0e+5')).toBe(decimalKey('0'));
    expect(decimalKey('9007199254740993')).not.toBe(decimalKey('9007199254740992'));
    expect(decimalKey('1e-400')).not.toBe(decimalKey('0'));
    expect(decimalKey('1' + '0'.repeat(400))).toBe(decimalKey('1e400'));
  });

  it('compares such a number by its literal, in an array by position (sameJson sees only doubles)', () => {
    const literals = new NumberLiterals();
    const a = { n: 9007199254740992, rows: [1, 9007199254740992, 3] };
    const b = { n: 9007199254740992, rows: [1, 9007199254740992, 3] };
    literals.set(a, 'n', '9007199254740993');
    literals.set(a.rows, '1', '9007199254740993');
    literals.mark(a);
    expect(diffJson(a, b).identical).toBe(true);
    const r = diffJson(a, b, { literals });
    expect(r.differences).toEqual([
      {
        op: 'changed',
        pointer: '/n',
        left: 9007199254740992,
        right: 9007199254740992,
        leftLiteral: '9007199254740993',
      },
      {
        op: 'changed',
        pointer: '/rows/1',
        left: 9007199254740992,
        right: 9007199254740992,
        leftLiteral: '9007199254740993',
      },
    ]);
    literals.set(b, 'n', '9007199254740993.0');
    expect(diffJson(a, b, { literals }).differences.map((d) => d.pointer)).toEqual(['/rows/1']);
  });
});

describe('cuts of shown strings', () => {
  it('never fall inside a surrogate pair', () => {
    const e = '\u{1F600}';
    const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    fc.assert(
      fc.property(fc.nat(60), fc.nat(60), fc.nat(10), fc.nat(10), (p, q, context, max) => {
        const [a, b] = [`${e.repeat(p)}x${e.repeat(q)}`, `${e.repeat(p)}y${e.repeat(q)}${e}`];
        const span = stringSpan(a, b);
        for (const [s, side] of [
          [a, 'left'],
          [b, 'right'],
        ] as const) {
          const parts = spanParts(s, span, side, context, max);
          for (const t of [parts.before, parts.changed, parts.after]) expect(t).not.toMatch(lone);
          // Whatever is cut of the span is counted.
          expect(parts.changed.length + parts.cutChanged).toBe(side === 'left' ? span.left : span.right);
        }
        expect(cutText(a, context)).not.toMatch(lone);
        for (let i = 0; i <= a.length; i++) {
          const k = cutIndex(a, i);
          expect([a.slice(0, k), a.slice(k)].join('|')).not.toMatch(lone);
        }
      }),
    );
  });
});

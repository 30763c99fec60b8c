import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignItems, alignedRun, MAX_ALIGN_EDITS, type AlignedRows } from '../../shared/align.js';

const eq = (x: unknown, y: unknown): boolean => x === y;
/** The rows as [recorded index, replayed index, same] triples. */
const triples = (r: AlignedRows) => r.a.map((a, i) => [a, r.b[i], r.same[i]]);

describe('alignItems', () => {
  it('gives an inserted or dropped token a row of its own, and keeps the rest matched', () => {
    const recorded = ['The', ' model', ' said', ' yes', '.'];
    const replayed = ['The', ' model', ' then', ' said', ' no', '.'];
    expect(triples(alignItems(recorded, replayed, eq))).toEqual([
      [0, 0, true],
      [1, 1, true],
      [-1, 2, false],
      [2, 3, true],
      [3, 4, false],
      [4, 5, true],
    ]);
  });

  it('aligns an insertion and a deletion that leave the lengths equal', () => {
    const a = ['a', 'b', 'c', 'd', 'e', 'f'];
    const b = ['a', 'x', 'b', 'c', 'd', 'f'];
    expect(triples(alignItems(a, b, eq))).toEqual([
      [0, 0, true],
      [-1, 1, false],
      [1, 2, true],
      [2, 3, true],
      [3, 4, true],
      [4, -1, false],
      [5, 5, true],
    ]);
  });

  it('pairs a stretch with nothing in common by position, the longer side last', () => {
    expect(triples(alignItems(['a', 'x', 'y', 'z'], ['a', 'p', 'q', 'r', 's', 'z'], eq))).toEqual([
      [0, 0, true],
      [1, 1, false],
      [2, 2, false],
      [-1, 3, false],
      [-1, 4, false],
      [3, 5, true],
    ]);
  });

  it('keeps position when one coincidental equal item would tear two unrelated runs apart', () => {
    // As a replay under another model: 24 tokens against 13, one value in common far apart.
    const recorded = Array.from({ length: 24 }, (_, i) => (i === 23 ? 22 : 100 + i));
    const replayed = Array.from({ length: 13 }, (_, i) => (i === 0 ? 22 : 200 + i));
    const r = alignItems(recorded, replayed, eq);
    expect(r.a).toEqual(recorded.map((_, i) => i));
    expect(r.b).toEqual(recorded.map((_, i) => (i < 13 ? i : -1)));
    expect(r.same.every((s) => !s)).toBe(true);
  });

  it('holds every item of both sides once, in order, and marks only equal pairs same', () => {
    const small = fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 30 });
    fc.assert(
      fc.property(small, small, (a, b) => {
        const r = alignItems(a, b, eq);
        expect(r.a.filter((i) => i >= 0)).toEqual(a.map((_, i) => i));
        expect(r.b.filter((i) => i >= 0)).toEqual(b.map((_, i) => i));
        r.same.forEach((s, i) => expect(s).toBe(r.a[i]! >= 0 && r.b[i]! >= 0 && a[r.a[i]!] === b[r.b[i]!]));
      }),
      { numRuns: 500 },
    );
  });

  it('gives up when a comparison says its budget is spent, or past its edit bound', () => {
    let left = 3;
    const budgeted = (x: unknown, y: unknown) => (left-- > 0 ? x === y : undefined);
    expect(alignedRun(['q', 'a', 'b'], ['a', 'b', 'r'], 0, 0, budgeted)).toBeNull();
    // A long common stretch shifted past more insertions and deletions than the bound allows.
    const shifted = (k: number) => {
      const common = Array.from({ length: 5000 }, (_, i) => `c${i}`);
      const only = (side: string) => Array.from({ length: k }, (_, i) => `${side}${i}`);
      return [
        [...only('a'), ...common],
        [...common, ...only('b')],
      ] as const;
    };
    const [far, farB] = shifted((MAX_ALIGN_EDITS + 200) / 2);
    expect(alignedRun(far, farB, 0, 0, eq)).toBeNull();
    const [near, nearB] = shifted((MAX_ALIGN_EDITS - 200) / 2);
    expect(alignedRun(near, nearB, 0, 0, eq)?.same.filter(Boolean)).toHaveLength(5000);
  });
});

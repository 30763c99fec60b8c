/** The comparisons table's rows (renderer/src/lib/comparison-rows.ts): filters, sorting, order kept, indexes into the report. */
import { describe, expect, it } from 'vitest';
import type { Comparison } from '../../shared/report.js';
import { nextSort, shownRows } from '../../renderer/src/lib/comparison-rows.js';

const c = (output: string, mode: string, status: string, delta: number | null, original: unknown = 1): Comparison =>
  ({ output, mode, status, delta, original, replayed: original }) as unknown as Comparison;
const ROWS = [
  c('x10', 'EXACT', 'pass', null),
  c('x2', 'BANDED', 'fail', 0.5),
  c('x1', 'BANDED', 'pass', 0.01),
  c('x3', 'EXACT', 'fail', 2),
];

describe('comparison rows', () => {
  it('the report order by default, filtered by mode and status, as indexes into the report', () => {
    expect(shownRows(ROWS, null, undefined, undefined)).toEqual([0, 1, 2, 3]);
    expect(shownRows(ROWS, null, 'BANDED', undefined)).toEqual([1, 2]);
    expect(shownRows(ROWS, null, 'BANDED', 'fail')).toEqual([1]);
    expect(shownRows(ROWS, null, 'NONE', undefined)).toEqual([]);
  });

  it('sorts text in natural order, numbers by value with no value last, both ways; ties keep the report order', () => {
    expect(shownRows(ROWS, { id: 'output', desc: false }, undefined, undefined)).toEqual([2, 1, 3, 0]);
    expect(shownRows(ROWS, { id: 'output', desc: true }, undefined, undefined)).toEqual([0, 3, 1, 2]);
    expect(shownRows(ROWS, { id: 'delta', desc: false }, undefined, undefined)).toEqual([2, 1, 3, 0]);
    expect(shownRows(ROWS, { id: 'mode', desc: false }, undefined, undefined)).toEqual([1, 2, 0, 3]);
    expect(shownRows(ROWS, { id: 'status', desc: false }, 'EXACT', undefined)).toEqual([3, 0]);
  });

  it('a header click sorts ascending, then descending, then back to the report order', () => {
    const a = nextSort(null, 'delta');
    expect(a).toEqual({ id: 'delta', desc: false });
    const d = nextSort(a, 'delta');
    expect(d).toEqual({ id: 'delta', desc: true });
    expect(nextSort(d, 'delta')).toBeNull();
    expect(nextSort(d, 'output')).toEqual({ id: 'output', desc: false });
  });

  it('45,000 rows: filtered and sorted by value, descending', () => {
    const big = Array.from({ length: 45_000 }, (_, i) =>
      c(`o${i % 997}`, i % 3 ? 'BANDED' : 'EXACT', i % 7 ? 'pass' : 'fail', (i * 7919) % 1000),
    );
    expect(shownRows(big, null, undefined, undefined).length).toBe(45_000);
    const sorted = shownRows(big, { id: 'delta', desc: true }, 'BANDED', undefined);
    expect(sorted.length).toBe(30_000);
    for (let i = 1; i < sorted.length; i++) expect(big[sorted[i - 1]!]!.delta! >= big[sorted[i]!]!.delta!).toBe(true);
  });
});

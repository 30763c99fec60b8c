/** The comparisons table's rows: which comparisons are shown, in which order (ComparisonsTable.tsx). */
import { shownValue as show, type Comparison } from '../../../shared/report.js';

/**
 * The columns, each with the key it sorts by. The rows are the report's own comparisons,
 * reached by index: a big replay has 45,000 of them, and building a row object for each
 * (a table library's row model) on every mount of the view cost more than 100 ms of the
 * window's thread, most of it in garbage collection. Filtering and sorting make an index
 * array instead.
 */
export const COLUMNS = [
  { id: 'output', header: 'Output', key: (c: Comparison) => c.output },
  { id: 'mode', header: 'Mode', key: (c: Comparison) => c.mode },
  { id: 'status', header: 'Status', key: (c: Comparison) => c.status },
  { id: 'original', header: 'Original', key: (c: Comparison) => show(c.original) },
  { id: 'replayed', header: 'Replayed', key: (c: Comparison) => show(c.replayed) },
  { id: 'delta', header: 'Δ', key: (c: Comparison) => c.delta ?? null },
  { id: 'epsilon', header: 'ε', key: (c: Comparison) => c.epsilon ?? null },
] as const;
export type ColumnId = (typeof COLUMNS)[number]['id'];
export interface Sort {
  id: ColumnId;
  desc: boolean;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
/** Numbers by value, text in natural order (`x2` before `x10`), no value last. */
function compareKeys(a: string | number | null, b: string | number | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/** The indexes of the comparisons shown: those the filters keep, in the sorted order (stable). */
export function shownRows(
  comparisons: readonly Comparison[],
  sort: Sort | null,
  mode: string | undefined,
  status: string | undefined,
): number[] {
  const shown: number[] = [];
  for (let i = 0; i < comparisons.length; i++) {
    const c = comparisons[i]!;
    if ((mode === undefined || c.mode === mode) && (status === undefined || c.status === status)) shown.push(i);
  }
  if (!sort) return shown;
  const key = COLUMNS.find((c) => c.id === sort.id)!.key;
  const keys = new Map(shown.map((i) => [i, key(comparisons[i]!)]));
  const sign = sort.desc ? -1 : 1;
  return shown.sort((a, b) => sign * compareKeys(keys.get(a)!, keys.get(b)!) || a - b);
}

/** Ascending, then descending, then the report's order. */
export const nextSort = (s: Sort | null, id: ColumnId): Sort | null =>
  s?.id !== id ? { id, desc: false } : s.desc ? null : { id, desc: true };

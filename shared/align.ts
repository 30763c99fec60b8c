/**
 * Two arrays aligned item by item, as a reviewer reads an insertion: the items equal at both
 * ends are matched first (linear), and the run between them is aligned on its equal items by
 * jsdiff's `diffArrays` (Myers' O(ND) algorithm, the one `diff` and git use by default; a
 * maintained library, docs/architecture.md), so several insertions and deletions anywhere
 * each stay one added or removed row, and the items between still match.
 *
 * Within a stretch that differs on both sides, items are paired by position (as a unified
 * diff pairs changed lines), the longer side's last ones left unpaired. An alignment is kept
 * only when fewer of its rows differ than would by position, so a coincidental equal item
 * does not tear two unrelated runs apart. Bounded: an alignment
 * needing more than MAX_ALIGN_EDITS insertions and deletions, or a comparison that says its
 * budget is spent, gives up, and the caller compares the run by position. Shared by the
 * structured diff (shared/diff.ts) and the Replay view's token table, so both align alike.
 */
import { diffArrays } from 'diff';

/** Insertions plus deletions an alignment may need before it gives up (Myers' work grows with their square). */
export const MAX_ALIGN_EDITS = 1000;

/**
 * An alignment's rows, in order, as parallel lists: the item's index in `a` and in `b`
 * (-1 where that side has none), and whether the two are equal.
 */
export interface AlignedRows {
  a: number[];
  b: number[];
  same: boolean[];
}

/**
 * Whether two items are equal; `undefined` when the comparison's budget is spent (the
 * alignment then gives up). Only a `true` that is certain may be answered: equal items are
 * never compared again.
 */
export type SameItems<T> = (x: T, y: T) => boolean | undefined;

/** How many items are equal at the start of both arrays, and then at their ends. */
export function equalEnds<T>(x: readonly T[], y: readonly T[], same: SameItems<T>): { start: number; end: number } {
  const shorter = Math.min(x.length, y.length);
  let start = 0;
  while (start < shorter && same(x[start]!, y[start]!) === true) start++;
  let end = 0;
  while (end < shorter - start && same(x[x.length - 1 - end]!, y[y.length - 1 - end]!) === true) end++;
  return { start, end };
}

function pushRow(rows: AlignedRows, ia: number, ib: number, same: boolean): void {
  rows.a.push(ia);
  rows.b.push(ib);
  rows.same.push(same);
}

/** Thrown through diffArrays when a comparison's budget is spent. */
const SPENT = Symbol('align budget spent');

/**
 * The rows of the run between `start` and the last `end` items of each side, aligned on its
 * equal items; null when it holds none to align on (then position gives the same rows), when
 * position would leave no more rows differing, or when the alignment gave up (see the module
 * comment).
 */
export function alignedRun<T>(
  x: readonly T[],
  y: readonly T[],
  start: number,
  end: number,
  same: SameItems<T>,
): AlignedRows | null {
  const runA = x.slice(start, x.length - end);
  const runB = y.slice(start, y.length - end);
  if (runA.length === 0 || runB.length === 0) return null;
  let changes: ReturnType<typeof diffArrays<T>> | undefined;
  try {
    changes = diffArrays(runA, runB, {
      maxEditLength: MAX_ALIGN_EDITS,
      comparator: (p: T, q: T) => {
        const r = same(p, q);
        if (r === undefined) throw SPENT;
        return r;
      },
    });
  } catch (e) {
    if (e === SPENT) return null;
    throw e;
  }
  if (!changes || !changes.some((c) => !c.added && !c.removed)) return null;
  const rows = rowsOf(changes, start);
  // Kept only when fewer rows differ than by position: one coincidental equal item between
  // two unrelated runs (a token both completions happen to hold) would otherwise tear them
  // apart into a run only on the left, the match, and a run only on the right.
  const differing = rows.same.reduce((n, same) => (same ? n : n + 1), 0);
  return differing < Math.max(runA.length, runB.length) ? rows : null;
}

/** Rows from jsdiff's change list: equal runs as equal rows, each stretch between paired by position. */
function rowsOf(changes: readonly { count: number; added: boolean; removed: boolean }[], start: number): AlignedRows {
  const rows: AlignedRows = { a: [], b: [], same: [] };
  const push = (ia: number, ib: number, same: boolean): void => pushRow(rows, ia, ib, same);
  let [ia, ib] = [start, start];
  let [fromA, fromB] = [start, start];
  // A stretch that differs: its first items paired, then the longer side's rest on their own.
  const flush = (): void => {
    const [k, l] = [ia - fromA, ib - fromB];
    for (let j = 0; j < Math.min(k, l); j++) push(fromA + j, fromB + j, false);
    for (let j = l; j < k; j++) push(fromA + j, -1, false);
    for (let j = k; j < l; j++) push(-1, fromB + j, false);
  };
  for (const c of changes) {
    if (c.added) ib += c.count;
    else if (c.removed) ia += c.count;
    else {
      flush();
      for (let j = 0; j < c.count; j++) push(ia + j, ib + j, true);
      ia += c.count;
      ib += c.count;
      [fromA, fromB] = [ia, ib];
    }
  }
  flush();
  return rows;
}

/**
 * Every row of two whole arrays: their equal ends, and the run between aligned (or by
 * position, when alignedRun gives up or finds nothing to align on).
 */
export function alignItems<T>(x: readonly T[], y: readonly T[], same: SameItems<T>): AlignedRows {
  const { start, end } = equalEnds(x, y, same);
  const rows: AlignedRows = { a: [], b: [], same: [] };
  const push = (ia: number, ib: number, s: boolean): void => pushRow(rows, ia, ib, s);
  for (let i = 0; i < start; i++) push(i, i, true);
  const run = alignedRun(x, y, start, end, same);
  if (run) {
    for (let j = 0; j < run.a.length; j++) push(run.a[j]!, run.b[j]!, run.same[j]!);
  } else {
    const [runA, runB] = [x.length - start - end, y.length - start - end];
    for (let j = 0; j < Math.max(runA, runB); j++) {
      const [ia, ib] = [j < runA ? start + j : -1, j < runB ? start + j : -1];
      push(ia, ib, ia >= 0 && ib >= 0 && same(x[ia]!, y[ib]!) === true);
    }
  }
  for (let j = end; j > 0; j--) push(x.length - j, y.length - j, true);
  return rows;
}

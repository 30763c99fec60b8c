import { shownValue } from '../../../shared/report.js';

/**
 * Min/max decimation for drawing: a series of many more points than the plot has pixel
 * columns keeps, per column, the points holding its smallest and largest value (and the
 * first and last point), so the drawn line still reaches every extreme. Only drawing uses
 * it: the cursor reads the full series (`nearestIndex`) and the data table lists every row.
 */
export function decimateIndices(n: number, columns: number, series: readonly (readonly (number | null)[])[]): number[] {
  if (n <= columns * 2 || columns <= 0) return Array.from({ length: n }, (_, i) => i);
  const keep = new Set<number>([0, n - 1]);
  const per = n / columns;
  for (let c = 0; c < columns; c++) {
    const from = Math.floor(c * per);
    const to = Math.min(n, Math.floor((c + 1) * per));
    for (const s of series) {
      let lo = -1;
      let hi = -1;
      for (let i = from; i < to; i++) {
        const v = s[i];
        if (typeof v !== 'number') continue;
        if (lo < 0 || v < s[lo]!) lo = i;
        if (hi < 0 || v > s[hi]!) hi = i;
      }
      if (lo >= 0) keep.add(lo);
      if (hi >= 0) keep.add(hi);
    }
  }
  return [...keep].sort((a, b) => a - b);
}

/**
 * The index of the x value nearest `v` in ascending `x` (a tie goes to the earlier one), or
 * null when there is none. The cursor is read against the full series, not the drawn one:
 * under a pixel column of a decimated chart lie many points, and the one under the cursor is
 * rarely one the decimation kept.
 */
export function nearestIndex(x: readonly number[], v: number): number | null {
  if (x.length === 0 || !Number.isFinite(v)) return null;
  let lo = 0;
  let hi = x.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (x[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && v - x[lo - 1]! <= x[lo]! - v ? lo - 1 : lo;
}

/** A value as the report holds it: the shortest decimal that reads back as the same number, never rounded; "—" for none. */
export function exactValue(v: number | null | undefined): string {
  return typeof v === 'number' && Number.isFinite(v) ? shownValue(v) : '—';
}

/** The decimals that write `incr` exactly (0.25 → 2, 5e-7 → 7): ticks that far apart then read apart. */
export function tickDecimals(incr: number): number {
  for (let d = 0; d < 17; d++) {
    const scaled = Math.abs(incr) * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) <= 1e-9 * Math.max(1, scaled)) return d;
  }
  return 17;
}

/** Axis tick labels `incr` apart, each with the decimals the step needs, so no two read alike (and no "-0"). */
export function tickLabels(splits: readonly number[], incr: number): string[] {
  const d = Math.min(20, tickDecimals(incr));
  return splits.map((v) => {
    const s = v.toFixed(d);
    return /^-0(\.0*)?$/.test(s) ? s.slice(1) : s;
  });
}

/** A name on an axis tick is cut to this many characters (whole in the hover legend and the table). */
export const TICK_NAME_CHARS = 24;
/** Steps between named ticks: whole numbers only, so every tick lands on a name. */
export const NAME_INCRS: number[] = Array.from({ length: 8 }, (_, e) => [1, 2, 5].map((m) => m * 10 ** e)).flat();

/** A name as a tick shows it: at most TICK_NAME_CHARS characters, the cut marked. */
export function tickName(name: string): string {
  return name.length > TICK_NAME_CHARS ? `${name.slice(0, TICK_NAME_CHARS - 1)}…` : name;
}

/**
 * The least room between named ticks: the widest tick name and a gap, so names never
 * overlap however many there are (uPlot then labels every k-th name, k from NAME_INCRS).
 * Only the longest few names are measured: a report may name 100,000 outputs.
 */
export function nameTickSpace(names: readonly string[], width: (text: string) => number, gap = 16): number {
  const longest = [...new Set(names.map(tickName))].sort((a, b) => b.length - a.length).slice(0, 16);
  return Math.ceil(Math.max(0, ...longest.map(width))) + gap;
}

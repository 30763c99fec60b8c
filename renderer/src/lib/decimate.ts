/**
 * Min/max decimation for drawing: a series of many more points than the plot has pixel
 * columns keeps, per column, the points holding its smallest and largest value (and the
 * first and last point). Every kept point is a real one with its exact x and values, so
 * hovering a drawn point shows what the report says; the data table keeps every row.
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

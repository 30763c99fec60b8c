/**
 * Time order of RFC 3339 UTC timestamps, one comparator for the engine (the journal's writer
 * and verification, drift's window) and the window (the officer's queue by age). Text order is
 * not time order when the fractions differ in length: "…:00Z" sorts after "…:00.5Z", since
 * "." < "Z".
 */

/** Compares two valid RFC 3339 UTC timestamps exactly (fractions to the nanosecond). */
export function compareTimestamps(a: string, b: string): number {
  // Same length means the same layout (same number of fraction digits): text order is time order.
  if (a.length === b.length) return a < b ? -1 : a > b ? 1 : 0;
  const split = (s: string): [number, string] => {
    const m = /^(.*?)(\.\d+)?Z$/.exec(s)!;
    return [Date.parse(m[1] + 'Z'), (m[2] ?? '.').slice(1).padEnd(9, '0')];
  };
  const [sa, fa] = split(a);
  const [sb, fb] = split(b);
  if (sa !== sb) return sa < sb ? -1 : 1;
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}

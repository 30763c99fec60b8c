/**
 * What a chart shows of its numbers (renderer/src/lib/decimate.ts): the point under the
 * cursor found in the full series however the drawn one was decimated, its values whole,
 * and axis ticks that never read alike.
 */
import { describe, expect, it } from 'vitest';
import {
  decimateIndices,
  exactValue,
  nameTickSpace,
  NAME_INCRS,
  nearestIndex,
  TICK_NAME_CHARS,
  tickDecimals,
  tickLabels,
  tickName,
} from '../../renderer/src/lib/decimate.js';

/** A 15,000-EVAL trust-debt-like series with four decimals, jagged so that decimation drops most points. */
function trace(n: number): number[] {
  let seed = 2028;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, () => Math.round(next() * 90_000) / 10_000);
}

describe('hover on a decimated chart', () => {
  const n = 15_000;
  const x = Array.from({ length: n }, (_, i) => i);
  const post = trace(n);
  // EVAL 5540 holds 1.1934, and its pixel column (EVALs 5537 to 5549 at 1,200 columns) lower and higher values.
  post[5540] = 1.1934;
  post[5537] = 0.5;
  post[5538] = 8.25;
  const kept = decimateIndices(n, 1200, [post]);

  it('decimation drops most points, EVAL 5540 among them', () => {
    expect(kept.length).toBeLessThanOrEqual(2 * 1200 + 2);
    expect(kept).not.toContain(5540);
  });

  it('the x under the cursor is found among every point, not the kept ones', () => {
    expect(nearestIndex(x, 5540)).toBe(5540);
    expect(nearestIndex(x, 5540.4)).toBe(5540);
    expect(nearestIndex(x, 5539.6)).toBe(5540);
    // Exactly between two: the earlier.
    expect(nearestIndex(x, 5540.5)).toBe(5540);
    // Beyond either end: the end.
    expect(nearestIndex(x, -3)).toBe(0);
    expect(nearestIndex(x, n + 10)).toBe(n - 1);
    // The kept points alone would answer with another EVAL.
    const drawn = kept.map((i) => x[i]!);
    expect(drawn[nearestIndex(drawn, 5540)!]).not.toBe(5540);
  });

  it('uneven and empty x', () => {
    const xs = [0, 1, 5, 9.5, 100];
    expect(nearestIndex(xs, 3)).toBe(1);
    expect(nearestIndex(xs, 3.01)).toBe(2);
    expect(nearestIndex(xs, 60)).toBe(4);
    expect(nearestIndex([], 1)).toBeNull();
    expect(nearestIndex(xs, Number.NaN)).toBeNull();
  });

  it('shows the value whole: the shortest decimal that reads back as the same number', () => {
    expect(exactValue(post[nearestIndex(x, 5540)!])).toBe('1.1934');
    for (const v of [1.1934, 0.1 + 0.2, 1e-7, 123456.789012, -2.5, 0]) {
      expect(exactValue(v)).toBe(String(v));
      expect(Number(exactValue(v))).toBe(v);
    }
    expect(exactValue(null)).toBe('—');
    expect(exactValue(undefined)).toBe('—');
    expect(exactValue(Number.NaN)).toBe('—');
  });
});

describe('axis ticks', () => {
  it('as many decimals as the step needs', () => {
    expect(tickDecimals(1)).toBe(0);
    expect(tickDecimals(20)).toBe(0);
    expect(tickDecimals(0.25)).toBe(2);
    expect(tickDecimals(0.005)).toBe(3);
    expect(tickDecimals(0.0005)).toBe(4);
    expect(tickDecimals(5e-7)).toBe(7);
  });

  it('ticks a fine step apart read apart (uPlot\'s default writes 1.193 twice), without float noise or "-0"', () => {
    const splits = [1.193, 1.1935, 1.194, 1.1945000000000001, 1.195];
    expect(tickLabels(splits, 0.0005)).toEqual(['1.1930', '1.1935', '1.1940', '1.1945', '1.1950']);
    expect(tickLabels([0.023, 0.028, 0.033], 0.005)).toEqual(['0.023', '0.028', '0.033']);
    expect(tickLabels([-0.1, -1e-17, 0.1], 0.1)).toEqual(['-0.1', '0.0', '0.1']);
    expect(tickLabels([0, 5000, 10000], 5000)).toEqual(['0', '5000', '10000']);
  });

  it('never two alike, whatever the step', () => {
    for (const incr of [1e-6, 2.5e-5, 0.0002, 0.05, 0.25, 2, 50]) {
      const splits = Array.from({ length: 8 }, (_, i) => 1.1934 + i * incr);
      const labels = tickLabels(splits, incr);
      expect(new Set(labels).size, `${incr}: ${labels.join(' ')}`).toBe(labels.length);
    }
  });
});

describe('named ticks (|Δ| against ε per output)', () => {
  // A width of 7 px per character stands in for the canvas's measure.
  const width = (t: string) => 7 * t.length;

  it('are spaced by the widest shown name, so no two overlap, and long names are cut with a mark', () => {
    const names = Array.from({ length: 100_000 }, (_, i) => `BENCH.OUTPUT.SCORE-${i}.v1_0`);
    expect(tickName(names[99_999]!)).toBe('BENCH.OUTPUT.SCORE-9999…');
    expect(tickName('score')).toBe('score');
    const space = nameTickSpace(names, width);
    expect(space).toBe(7 * TICK_NAME_CHARS + 16);
    // Ticks `space` apart hold any shown name with room to spare.
    for (const n of [names[0]!, names[99_999]!, 'x']) expect(width(tickName(n))).toBeLessThan(space);
  });

  it('step by whole numbers only, so every tick lands on a name', () => {
    expect(NAME_INCRS.slice(0, 6)).toEqual([1, 2, 5, 10, 20, 50]);
    expect(NAME_INCRS.every((s) => Number.isInteger(s))).toBe(true);
    expect(nameTickSpace(['a', 'bb'], width)).toBe(14 + 16);
  });
});

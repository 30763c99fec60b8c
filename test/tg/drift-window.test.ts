/**
 * The governed window (docs/tg-replay.md, "Drift telemetry"): its observations are the last
 * `window` in time, one per replay; a window or limit out of bounds counts nothing (never a
 * NaN rate); and observations of one model that disagree on the window and limit are judged
 * by the strictest, not by whichever came last.
 */
import { describe, expect, it } from 'vitest';
import { countable } from '../../app/engine/drift.js';
import { driftRates } from '../../app/kinds/tg/telemetry.js';

const o = (drift: boolean, window = 50, maxRate = 0.1, more: Record<string, string> = {}) => ({
  model: 'p@m1',
  drift,
  driftRate: { window, maxRate },
  claimRef: 'c',
  ...more,
});

describe('driftRates: bounds and conflicts', () => {
  it('an observation whose window or limit is out of bounds is not counted: no NaN, no rate from nothing', () => {
    for (const [w, m] of [
      [-9, 0.1],
      [0, 0.1],
      [1.5, 0.1],
      [50, 1.5],
      [50, -1],
      [50, Number.NaN],
    ])
      expect(driftRates([o(true, w, m)])).toEqual([]);
    const r = driftRates([o(true), o(false, -1)]);
    expect(r).toEqual([expect.objectContaining({ observations: 1, inWindow: 1, drifted: 1, rate: 1, flag: true })]);
  });
  it('the last observation does not set the window and limit: the strictest of those governed does', () => {
    // Window 50 (1 of 2 drifted) under 0.1, then one observation under {window 1, maxRate 1}.
    const r = driftRates([o(true), o(false, 1, 1)]);
    expect(r).toEqual([
      { model: 'p@m1', observations: 2, window: 50, inWindow: 2, drifted: 1, rate: 0.5, maxRate: 0.1, flag: true },
    ]);
    // The smaller window is the one that exceeds: it is the one reported.
    const recent = driftRates([o(false), o(false), o(false), o(true, 1, 0.5)]);
    expect(recent[0]).toMatchObject({ window: 1, inWindow: 1, drifted: 1, rate: 1, maxRate: 0.1, flag: true });
  });
});

describe('countable: one observation per replay, in time order', () => {
  it('orders by time, not by the order the paths were given', () => {
    const late = o(true, 1, 0.1, { executionId: 'x3', manifestHash: 'h1', at: '2026-11-03T00:00:00Z' });
    const early = o(false, 1, 0.1, { executionId: 'x3', manifestHash: 'h2', at: '2026-11-01T00:00:00Z' });
    const { observations, duplicates } = countable([late, early]);
    expect(duplicates).toBe(0);
    expect(observations.map((x) => x.drift)).toEqual([false, true]);
    expect(driftRates(observations)[0]).toMatchObject({ inWindow: 1, drifted: 1, flag: true });
  });
  it('drops repeats of one (claimRef, executionId, manifestHash), keeping drift when any copy drifted', () => {
    const a = o(false, 50, 0.1, { executionId: 'x3', manifestHash: 'h1', at: '2026-11-02T00:00:00Z' });
    const again = o(true, 50, 0.1, { executionId: 'x3', manifestHash: 'h1', at: '2026-11-05T00:00:00Z' });
    const other = o(false, 50, 0.1, { executionId: 'x3', manifestHash: 'h2', at: '2026-11-04T00:00:00Z' });
    const { observations, duplicates } = countable([a, again, other]);
    expect(duplicates).toBe(1);
    expect(observations).toEqual([{ ...a, drift: true }, other]);
  });
  it('an observation without a time counts as the latest (it never falls out of the window first)', () => {
    const timed = o(false, 1, 0.1, { executionId: 'x3', manifestHash: 'h1', at: '2026-11-02T00:00:00Z' });
    const untimed = o(true, 1, 0.1, { executionId: 'x3', manifestHash: 'h2' });
    expect(countable([untimed, timed]).observations.map((x) => x.drift)).toEqual([false, true]);
  });
});

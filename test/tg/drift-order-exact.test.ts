/**
 * The governed window orders observations by the full precision their times carry, ties by
 * content (never by the order given), and the rate is compared with maxRate exactly; the
 * text shows the rate so it never reads equal to maxRate unless it is, and model versions
 * come in natural order (docs/tg-replay.md, "Drift telemetry").
 */
import { describe, expect, it } from 'vitest';
import { countable, maxRateText, rateText } from '../../app/engine/drift.js';
import { compareModels, driftRates, exceedsRate } from '../../app/kinds/tg/telemetry.js';
import { cliIn } from '../cli/in-process.js';
import { driftBench, recordComparison } from './drift-helpers.js';

const o = (drift: boolean, at: string, executionId: string, window = 1, maxRate = 0.1, model = 'p@m1') => ({
  model,
  drift,
  driftRate: { window, maxRate },
  claimRef: 'c',
  executionId,
  manifestHash: `h-${executionId}`,
  at,
});

/** The rates of the observations given in this order and in the reverse order. */
const bothOrders = (list: ReturnType<typeof o>[]) => [
  driftRates(countable(list).observations),
  driftRates(countable([...list].reverse()).observations),
];

describe('the window in time to the nanosecond, ties by content', () => {
  it('…00.0009Z is after …00.0001Z whatever order they are given in', () => {
    const later = o(true, '2026-11-03T00:00:00.0009Z', 'x1');
    const earlier = o(false, '2026-11-03T00:00:00.0001Z', 'x2');
    for (const rates of bothOrders([later, earlier]))
      expect(rates[0]).toMatchObject({ inWindow: 1, drifted: 1, flag: true });
  });

  it('equal times: the same window from either order (decided by content)', () => {
    const a = o(true, '2026-11-03T00:00:00.5Z', 'x1');
    const b = o(false, '2026-11-03T00:00:00.500000000Z', 'x2');
    const [one, other] = bothOrders([a, b]);
    expect(one).toEqual(other);
    expect(countable([a, b]).observations).toEqual(countable([b, a]).observations);
  });

  it('repeats of one replay merge the same way from either order', () => {
    const first = { ...o(false, '2026-11-03T00:00:00Z', 'x1'), driftRate: { window: 1, maxRate: 0.5 } };
    const copy = { ...o(true, '2026-11-03T00:00:00Z', 'x1'), driftRate: { window: 1, maxRate: 0.2 } };
    expect(countable([first, copy])).toEqual(countable([copy, first]));
    expect(countable([first, copy]).observations[0]).toMatchObject({ drift: true });
  });
});

describe('rate against maxRate, exactly', () => {
  it('1 of 3 exceeds 0.3333333333333333 (binary division says 0.3333333333333333, not above)', () => {
    const list = [o(true, '2026-11-01T00:00:00Z', 'x1', 3, 0.3333333333333333)];
    list.push(o(false, '2026-11-02T00:00:00Z', 'x2', 3, 0.3333333333333333));
    list.push(o(false, '2026-11-03T00:00:00Z', 'x3', 3, 0.3333333333333333));
    expect(driftRates(list)[0]).toMatchObject({ drifted: 1, inWindow: 3, flag: true });
  });

  it('a rate equal to maxRate as written does not exceed it (3 of 10 at 0.3), one above does', () => {
    expect(exceedsRate(3, 10, 0.3)).toBe(false);
    expect(exceedsRate(1, 2, 0.5)).toBe(false);
    expect(exceedsRate(1, 3, 0.3333333333333333)).toBe(true);
    expect(exceedsRate(1, 3, 0.33333333333333337)).toBe(false);
  });

  it('the text shows the rate on its side of maxRate, and maxRate as written', () => {
    expect(rateText(1, 3, 0.3333333333333333)).toBe('0.33333333333333333');
    expect(rateText(1, 3, 0.33333333333333337)).toBe('0.33333333333333333');
    expect(rateText(1, 3, 0.1)).toBe('0.3333');
    expect(rateText(0, 50, 0.1)).toBe('0.0000');
    expect(rateText(1, 2, 0.5)).toBe('0.5000');
    expect(rateText(49999, 100000, 0.5)).toBe('0.49999');
    expect(maxRateText(0.3333333333333333)).toBe('0.3333333333333333');
    expect(maxRateText(5e-7)).toBe('0.0000005');
  });

  it('`reprise drift` prints them so, the flag raised', async () => {
    const b = await driftBench('reprise-drift-exact-');
    const dir = `${b.work}/journal-exact`;
    for (const [i, drift] of [true, false, false].entries())
      await recordComparison(b, dir, b.keys.reviewer, {
        driftRate: { window: 3, maxRate: 0.3333333333333333 },
        manifestHash: `sha256:${String(i).repeat(64)}`,
        banded: [{ executionId: 'x3', model: 'p@m1', drift }],
      });
    const r = await cliIn(b.work, 'drift', dir, '--trust-store', b.keys.trustPath);
    expect(r.out).toMatch(
      /FLAG {2}p@m1 +drift 1\/3 in window 3 = 0\.33333333333333333 \(max 0\.3333333333333333\) model-recalibration flag raised/,
    );
    expect(r.code).toBe(1);
  });
});

describe('model versions in natural order', () => {
  it('m@v2 before m@v10, deterministic for names equal by number', () => {
    const names = ['m@v10', 'm@v2', 'm@v1', 'm@v01', 'a@v3', 'm@v2b', 'm@v'];
    expect([...names].sort(compareModels)).toEqual(['a@v3', 'm@v', 'm@v01', 'm@v1', 'm@v2', 'm@v2b', 'm@v10']);
    const rates = driftRates(
      ['m@v10', 'm@v2'].map((model, i) => o(false, '2026-11-01T00:00:00Z', `x${i}`, 1, 0.1, model)),
    );
    expect(rates.map((r) => r.model)).toEqual(['m@v2', 'm@v10']);
  });
});

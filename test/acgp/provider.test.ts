/**
 * The default trust-debt provider acgp.core.default@1, pinned on hand-computed traces.
 * Accumulation: ok 0, nudge 0.5, escalate 1.0, block 2.0, halt 5.0, flag +0.1.
 * Decay: max(min_debt, debt × (1 − decay_fraction)^periods), periods = whole periods
 * between consecutive EVAL timestamps. Crossed: thresholds t with pre < t ≤ post.
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { hashBytes } from '../../app/core/hash.js';
import { findingOf, mkEval, run, rules, tempFile, type EvalSpec } from './helpers.js';

const T = (hm: string, day = '04') => `2026-05-${day}T${hm}Z`;
const trace = (specs: EvalSpec[]) => specs.map(mkEval);

function replayed(r: Report): { pre: number; delta: number; post: number; thresholdsCrossed: string[] }[] {
  return (
    r.details!['trajectory'] as {
      replayed: { pre: number; delta: number; post: number; thresholdsCrossed: string[] };
    }[]
  ).map((p) => p.replayed);
}

describe('acgp.core.default@1, baseline parameters (decay 0.05 per 1 h, min 0; thresholds 3, 6, 10)', () => {
  const A: EvalSpec[] = [
    // E0: starting state pre 0 (given); block +2.0 → 2.0
    { ts: T('09:00:00'), intervention: 'block', pre: 0, delta: 2, post: 2 },
    // E1: 30 min → 0 whole periods, pre 2.0; nudge 0.5 + flag 0.1 = 0.6 → 2.6
    { ts: T('09:30:00'), intervention: 'nudge', flagged: true, pre: 2, delta: 0.6, post: 2.6 },
    // E2: 2 h → 2 periods: 2.6 × 0.95² = 2.6 × 0.9025 = 2.3465; escalate +1.0 → 3.3465, crosses 3 (2.3465 < 3 ≤ 3.3465)
    {
      ts: T('11:30:00'),
      intervention: 'escalate',
      pre: 2.3465,
      delta: 1,
      post: 3.3465,
      crossed: ['elevated_monitoring'],
    },
    // E3: 45 min → 0 periods; block +2.0 → 5.3465
    { ts: T('12:15:00'), intervention: 'block', pre: 3.3465, delta: 2, post: 5.3465 },
    // E4: 44 min 59 s → 0 periods; halt +5.0 → 10.3465, crosses 6 and 10
    {
      ts: T('12:59:59'),
      intervention: 'halt',
      pre: 5.3465,
      delta: 5,
      post: 10.3465,
      crossed: ['restricted_mode', 're_tiering_review'],
    },
    // E5: 1 h 0 min 1 s → 1 period: 10.3465 × 0.95 = 9.829175 → 9.8292 (recorded), state stays 9.829175
    { ts: T('14:00:00'), intervention: 'ok', pre: 9.8292, delta: 0, post: 9.8292 },
    // E6: 3 h → 9.829175 × 0.95³ = 9.829175 × 0.857375 = 8.427288915625 → 8.4273
    { ts: T('17:00:00'), intervention: 'ok', pre: 8.4273, delta: 0, post: 8.4273 },
    // E7: 10 h → 8.427288915625 × 0.95¹⁰ = 5.045729171418829686… → 5.0457
    { ts: T('03:00:00', '05'), intervention: 'ok', pre: 5.0457, delta: 0, post: 5.0457 },
  ];

  it('replays the hand-computed trajectory EXACT', async () => {
    const r = await run(trace(A), 'replay');
    expect(r.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(r.verdict).toBe('pass');
    expect(replayed(r).map((p) => p.post)).toEqual([2, 2.6, 3.3465, 5.3465, 10.3465, 9.8292, 8.4273, 5.0457]);
    expect(replayed(r).map((p) => p.thresholdsCrossed)).toEqual([
      [],
      [],
      ['elevated_monitoring'],
      [],
      ['restricted_mode', 're_tiering_review'],
      [],
      [],
      [],
    ]);
    expect(r.details!['debtThresholds']).toEqual({ elevated_monitoring: 3, restricted_mode: 6, re_tiering_review: 10 });
    // No --policy: the blueprint finance_qa@2.1 is checked against the baseline, and the report says so.
    expect(rules(r, 'info')).toEqual(['RPR-ACGP-042', 'RPR-ACGP-025']);
  });

  it('pins every replayed value: one wrong digit in any pre, delta, post or crossing fails with both values', async () => {
    const bad = trace(A);
    (bad[6]!['trust_debt'] as Record<string, unknown>)['pre'] = 8.4274;
    (bad[6]!['trust_debt'] as Record<string, unknown>)['post'] = 8.4274;
    const r = await run(bad, 'replay');
    expect(findingOf(r, 'RPR-ACGP-020')).toMatchObject({
      pointer: '/6/trust_debt/pre',
      expected: 8.4273,
      actual: 8.4274,
    });
    expect(findingOf(r, 'RPR-ACGP-022')).toMatchObject({
      pointer: '/6/trust_debt/post',
      expected: 8.4273,
      actual: 8.4274,
    });
    // the next EVAL is replayed from the exact state, so it still matches
    expect(r.findings.filter((f) => f.pointer?.startsWith('/7/'))).toEqual([]);
    const cross = trace(A);
    (cross[4]!['trust_debt'] as Record<string, unknown>)['thresholds_crossed'] = ['re_tiering_review'];
    expect(findingOf(await run(cross, 'replay'), 'RPR-ACGP-023')).toMatchObject({
      expected: ['restricted_mode', 're_tiering_review'],
      actual: ['re_tiering_review'],
    });
  });

  it('keeps the exact state, never the rounded one, and rounds ties half-even', async () => {
    // 1.1 × 0.95² = 0.99275 → 0.9928 (tie, 7 is odd: up to 8); × 0.95 = 0.9431125 → 0.9431.
    // A replayer that carried the rounded 0.9928 would get 0.9928 × 0.95 = 0.94316 → 0.9432.
    const D = trace([
      { ts: T('09:00:00'), intervention: 'ok', pre: 1.1, delta: 0, post: 1.1 },
      { ts: T('11:00:00'), intervention: 'ok', pre: 0.9928, delta: 0, post: 0.9928 },
      { ts: T('12:00:00'), intervention: 'ok', pre: 0.9431, delta: 0, post: 0.9431 },
    ]);
    expect((await run(D, 'replay')).verdict).toBe('pass');
    (D[2]!['trust_debt'] as Record<string, number>)['pre'] = 0.9432;
    (D[2]!['trust_debt'] as Record<string, number>)['post'] = 0.9432;
    expect(findingOf(await run(D, 'replay'), 'RPR-ACGP-020')).toMatchObject({ expected: 0.9431, actual: 0.9432 });
    // 1.3 × 0.95² = 1.17325 → 1.1732 (tie, 2 is even: stays down)
    const E = trace([
      { ts: T('09:00:00'), intervention: 'ok', pre: 1.3, delta: 0, post: 1.3 },
      { ts: T('11:00:00'), intervention: 'ok', pre: 1.1732, delta: 0, post: 1.1732 },
    ]);
    expect((await run(E, 'replay')).verdict).toBe('pass');
  });

  it('decays over many periods (no floor at min_debt 0): 12.6 × 0.95¹⁰⁰ = 0.0745986… → 0.0746', async () => {
    // independent check of the arithmetic with BigInt: 126 × 95¹⁰⁰ / (10 × 100¹⁰⁰)
    const num = 126n * 95n ** 100n;
    const den = 10n * 100n ** 100n;
    const scaled = (num * 100000n) / den; // 5 decimals, truncated
    expect(scaled).toBe(7459n); // 0.07459…: the 5th digit 9 rounds the 4th up → 0.0746
    const r = await run(
      trace([
        { ts: T('09:00:00'), intervention: 'halt', pre: 7.6, delta: 5, post: 12.6, crossed: ['re_tiering_review'] },
        { ts: T('13:00:00', '08'), intervention: 'ok', pre: 0.0746, delta: 0, post: 0.0746 },
      ]),
      'replay',
    );
    expect(r.verdict).toBe('pass');
  });

  it('threshold boundaries: post exactly at t crosses it; pre exactly at t does not cross again', async () => {
    const r = await run(
      trace([
        { ts: T('09:00:00'), intervention: 'nudge', pre: 2.5, delta: 0.5, post: 3, crossed: ['elevated_monitoring'] },
        { ts: T('09:10:00'), intervention: 'ok', pre: 3, delta: 0, post: 3 },
      ]),
      'replay',
    );
    expect(r.verdict).toBe('pass');
  });

  it('a missing timestamp where decay needs one is unavailable for that step, not a guess', async () => {
    const specs: EvalSpec[] = [
      { ts: T('09:00:00'), intervention: 'block', pre: 0, delta: 2, post: 2 },
      { ts: null, intervention: 'nudge', pre: 2, delta: 0.5, post: 2.5 },
      { ts: T('12:00:00'), intervention: 'ok', pre: 2.5, delta: 0, post: 2.5 },
      // 2 h after E2: 2.5 × 0.9025 = 2.25625 → 2.2562 (tie, half-even)
      { ts: T('14:00:00'), intervention: 'ok', pre: 2.2562, delta: 0, post: 2.2562 },
    ];
    const r = await run(trace(specs), 'replay');
    expect(r.verdict).toBe('unavailable');
    expect(r.findings.filter((f) => f.rule === 'RPR-ACGP-024').map((f) => f.pointer)).toEqual([
      '/1/timestamp',
      '/2/timestamp',
    ]);
    expect(r.comparisons!.filter((c) => c.status === 'unavailable').map((c) => c.output)).toEqual([
      '/1/trust_debt/pre',
      '/2/trust_debt/pre',
    ]);
    // verify does not decay, so it has nothing to be unavailable about
    expect((await run(trace(specs), 'verify')).verdict).toBe('pass');
  });

  it('counts whole periods at nanosecond precision (Date would round 1 ns short of an hour up to an hour)', async () => {
    const r = await run(
      trace([
        { ts: '2026-05-04T09:00:00.000000001Z', intervention: 'block', pre: 0, delta: 2, post: 2 },
        // 59 min 59.999999999 s: 0 whole periods, no decay
        { ts: '2026-05-04T10:00:00Z', intervention: 'ok', pre: 2, delta: 0, post: 2 },
        // exactly 1 h: 2 × 0.95 = 1.9
        { ts: '2026-05-04T11:00:00.000000000Z', intervention: 'ok', pre: 1.9, delta: 0, post: 1.9 },
      ]),
      'replay',
    );
    expect(r.findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it('a trace out of time order or mixing traces fails', async () => {
    const r = await run(
      trace([
        { ts: T('10:00:00'), intervention: 'ok', pre: 0, delta: 0, post: 0 },
        { ts: T('09:00:00'), intervention: 'ok', pre: 0, delta: 0, post: 0, traceId: 'other' },
      ]),
      'verify',
    );
    expect(rules(r, 'fail').sort()).toEqual(['RPR-ACGP-030', 'RPR-ACGP-031']);
  });
});

describe('acgp.core.default@1 with a blueprint override of every parameter', () => {
  const policy = {
    type: 'reprise.acgp-policy/v1',
    blueprints: {
      'tight@1': {
        risk_thresholds: { ok: 0.2, nudge: 0.5, escalate: 0.7 },
        trust_debt: {
          decay_fraction: 0.2,
          period_hours: 0.5,
          min_debt: 0.25,
          thresholds: { elevated_monitoring: 1, restricted_mode: 2.5, re_tiering_review: 4 },
        },
      },
    },
  };
  const B: EvalSpec[] = [
    // E0: given pre 0; nudge +0.5 → 0.5 (no threshold ≤ 0.5)
    { ts: T('10:00:00'), intervention: 'nudge', pre: 0, delta: 0.5, post: 0.5 },
    // E1: 20 min < one 30-min period → 0 periods; max(0.25, 0.5) = 0.5; escalate +1 → 1.5, crosses 1
    { ts: T('10:20:00'), intervention: 'escalate', pre: 0.5, delta: 1, post: 1.5, crossed: ['elevated_monitoring'] },
    // E2: 60 min → 2 periods: 1.5 × 0.8² = 0.96 (decayed back below 1); block +2 → 2.96, crosses 1 again and 2.5
    {
      ts: T('11:20:00'),
      intervention: 'block',
      pre: 0.96,
      delta: 2,
      post: 2.96,
      crossed: ['elevated_monitoring', 'restricted_mode'],
    },
    // E3: 30 min → 1 period: 2.96 × 0.8 = 2.368; block + flag +2.1 → 4.468, crosses 2.5 again and 4
    {
      ts: T('11:50:00'),
      intervention: 'block',
      flagged: true,
      pre: 2.368,
      delta: 2.1,
      post: 4.468,
      crossed: ['restricted_mode', 're_tiering_review'],
    },
    // E4: 4 h → 8 periods: 4.468 × 0.8⁸ = 4.468 × 0.16777216 = 0.74960601088 → 0.7496
    { ts: T('15:50:00'), intervention: 'ok', pre: 0.7496, delta: 0, post: 0.7496 },
    // E5: 5 h → 10 periods: 0.74960601088 × 0.1073741824 = 0.0804883… < min_debt → 0.25
    { ts: T('20:50:00'), intervention: 'ok', pre: 0.25, delta: 0, post: 0.25 },
    // E6: 100 h more: still the floor 0.25
    { ts: T('00:50:00', '09'), intervention: 'ok', pre: 0.25, delta: 0, post: 0.25 },
  ];
  // risks 0.1 / 0.5 / 0.65 / 0.9 give ok / nudge / escalate / block under these thresholds too
  const evals = () => trace(B.map((s) => ({ ...s, blueprint: 'tight@1' })));

  it('replays EXACT with the blueprint parameters and decays down to min_debt', async () => {
    const p = await tempFile('policy.json', JSON.stringify(policy));
    const r = await run(evals(), 'replay', { policy: p });
    expect(r.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(r.verdict).toBe('pass');
    expect(replayed(r).map((x) => x.pre)).toEqual([0, 0.5, 0.96, 2.368, 0.7496, 0.25, 0.25]);
    expect(r.details!['debtParameters']).toEqual({
      source: 'blueprint',
      decay_fraction: 0.2,
      period_hours: 0.5,
      min_debt: 0.25,
    });
    expect(r.details!['debtThresholds']).toEqual({
      elevated_monitoring: 1,
      restricted_mode: 2.5,
      re_tiering_review: 4,
    });
    expect(r.details!['riskThresholds']).toEqual({ source: 'blueprint', ok: 0.2, nudge: 0.5, escalate: 0.7 });
    // verify (no replay) still reports the blueprint's thresholds for the chart
    const v = await run(evals(), 'verify', { policy: p });
    expect(v.verdict).toBe('pass');
    expect(v.details!['debtThresholds']).toEqual({
      elevated_monitoring: 1,
      restricted_mode: 2.5,
      re_tiering_review: 4,
    });
  });

  it('fails the same trace under the baseline (the overrides are what make it pass)', async () => {
    const r = await run(evals(), 'replay');
    expect(r.verdict).toBe('fail');
    expect(rules(r, 'fail')).toContain('RPR-ACGP-020');
    expect(rules(r, 'fail')).toContain('RPR-ACGP-023');
  });

  // spec/acgp.md: "without either, the baseline's"; upstream lets a blueprint override the
  // baseline, so a trace of a blueprint the policy does not hold passes only as far as the
  // baseline goes, and the report names that blueprint (once, where it first appears).
  it('says which blueprint was held to the baseline because the policy does not name it', async () => {
    const p = await tempFile('policy.json', JSON.stringify(policy));
    const held = await run(evals(), 'replay', { policy: p });
    expect(rules(held, 'info')).not.toContain('RPR-ACGP-042');
    const bare = await run(evals(), 'verify');
    const f = findingOf(bare, 'RPR-ACGP-042');
    expect(f.severity).toBe('info');
    expect(f.pointer).toBe('/0/blueprint_id');
    expect(f.message).toContain('blueprint "tight@1", and no --policy was given');
    expect(f.message).toContain("the baseline's (clarity.baseline@1.0)");
    const mixed = trace(B.map((s, i) => ({ ...s, blueprint: i === 3 ? 'other@1' : 'tight@1' })));
    const other = await run(mixed, 'verify', { policy: p });
    const said = other.findings.filter((x) => x.rule === 'RPR-ACGP-042');
    expect(said.map((x) => x.pointer)).toEqual(['/3/blueprint_id']);
    expect(said[0]!.message).toContain('blueprint "other@1", and the --policy does not name it');
    const twice = await run(trace(B.map((s) => ({ ...s, blueprint: 'other@1' }))), 'verify');
    expect(twice.findings.filter((x) => x.rule === 'RPR-ACGP-042')).toHaveLength(1);
  });

  it('names 8 blueprints held to the baseline, counts the EVALs of the rest, cuts a long id, and leaves the baseline itself alone', async () => {
    const many = await run(
      trace(
        B.map((s, i) => ({ ...s, blueprint: `bp${i}@1` })).concat(
          B.map((s, i) => ({ ...s, ts: T(s.ts!.slice(11, 19), '10'), blueprint: `more${i}@1` })),
        ),
      ),
      'verify',
    );
    const said = many.findings.filter((x) => x.rule === 'RPR-ACGP-042');
    expect(said).toHaveLength(9);
    expect(said[8]!.message).toMatch(
      /^6 more EVAL\(s\) are of blueprints the policy does not hold beyond the 8 named above/,
    );
    const long = 'L'.repeat(100_000);
    const cut = await run(trace(B.map((s) => ({ ...s, blueprint: long }))), 'verify');
    const f = findingOf(cut, 'RPR-ACGP-042');
    expect(f.message).toContain(`blueprint "${'L'.repeat(80)}"… (cut from 100000 characters; ${hashBytes(long)})`);
    expect(f.message.length).toBeLessThan(500);
    const base = await run(trace(B.map((s) => ({ ...s, blueprint: 'clarity.baseline@1.0' }))), 'verify');
    expect(rules(base, 'info')).not.toContain('RPR-ACGP-042');
  });

  it('a --policy of another type is ignored and the report says so', async () => {
    const p = await tempFile('bundle.json', JSON.stringify({ type: 'something-else' }));
    const r = await run(evals(), 'replay', { policy: p });
    expect(findingOf(r, 'RPR-ACGP-041').severity).toBe('info');
    expect(r.verdict).toBe('fail');
  });
});

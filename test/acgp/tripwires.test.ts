/**
 * What a triggered tripwire requires: the stricter of the action the EVAL records and the one
 * the policy gives its blueprint, never unknown read as none (found by a red team: a trace's
 * "nudge" beside a policy's "halt" passed, and so did an action "explode" or none at all).
 */
import { describe, expect, it } from 'vitest';
import { findingOf, mkEval, rules, run, tempFile } from './helpers.js';

/** An EVAL of risk 0.1 (ok by the thresholds) that triggered `tripwire`, recording `intervention`. */
const tripped = (tripwire: unknown, intervention: string) => ({
  ...mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0 }),
  tripwires_triggered: [tripwire],
  intervention,
});

const haltPolicy = () =>
  tempFile(
    'policy.json',
    JSON.stringify({
      type: 'reprise.acgp-policy/v1',
      blueprints: { 'finance_qa@2.1': { tripwires: { pii_leak: 'halt' } } },
    }),
  );

describe('a triggered tripwire', () => {
  it("cannot lower the policy's action: a recorded nudge beside the policy's halt is RPR-ACGP-007", async () => {
    const policy = await haltPolicy();
    const r = await run(tripped({ id: 'pii_leak', action: 'nudge' }, 'nudge'), 'verify', { policy });
    expect(findingOf(r, 'RPR-ACGP-007')).toMatchObject({ expected: 'halt', actual: 'nudge' });
    expect(r.verdict).toBe('fail');
  });

  it('with an action that is no intervention is RPR-ACGP-002', async () => {
    const r = await run(tripped({ id: 'pii_leak', action: 'explode' }, 'ok'), 'verify');
    expect(findingOf(r, 'RPR-ACGP-002').pointer).toBe('/tripwires_triggered/0/action');
    expect(r.verdict).toBe('fail');
  });

  it('whose action neither the EVAL nor the policy gives leaves the intervention undecided (RPR-ACGP-018)', async () => {
    const r = await run(tripped('pii_leak', 'ok'), 'verify');
    expect(rules(r, 'unavailable')).toContain('RPR-ACGP-018');
    expect(r.verdict).toBe('unavailable');
    // halt is never below what a tripwire requires.
    const halted = await run(tripped('pii_leak', 'halt'), 'verify');
    expect(rules(halted)).not.toContain('RPR-ACGP-018');
  });

  it("the policy's action decides when the EVAL gives none", async () => {
    const policy = await haltPolicy();
    const r = await run(tripped('pii_leak', 'block'), 'verify', { policy });
    expect(findingOf(r, 'RPR-ACGP-007')).toMatchObject({ expected: 'halt', actual: 'block' });
  });
});

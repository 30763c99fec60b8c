/**
 * Red team 54 (ACGP): a trust debt reset across two private EVALs, "exact" sums rounded to 100
 * digits, a tripwire's name hidden behind another id, a forged debt that verify passed without
 * a word, and a governance tier the policy does not define. Each test failed before its fix.
 */
import { describe, expect, it } from 'vitest';
import { generateTrace } from '../../app/kinds/acgp/generate.js';
import { cliIn } from '../cli/in-process.js';
import { findingOf, mkEval, rules, run, tempFile, type EvalSpec } from './helpers.js';

const PRIVATE_A = 'urn:x:privA@1';
const PRIVATE_B = 'urn:x:privB@1';

/** An EVAL of private provider `id` (declared private, as the seed's descriptor does). */
const privateEval = (id: string, s: Omit<EvalSpec, 'provider'>) => ({
  ...mkEval({ ...s, provider: id }),
  trust_debt_extended: { provider: { id, visibility: 'private', fail_mode: 'deny' } },
});

/**
 * The default provider's debt climbs to 10.5 (halt, halt, nudge ten minutes apart: no whole
 * period, so no decay); a private EVAL of provider A takes it over as it stands; `next` follows;
 * then the default provider goes on from what `next` leaves, an hour apart.
 */
function handedOn(next: Record<string, unknown>, after: number): Record<string, unknown>[] {
  const ts = (hm: string) => `2026-05-04T${hm}:00Z`;
  return [
    mkEval({ intervention: 'halt', pre: 0, delta: 5, post: 5, crossed: ['elevated_monitoring'], ts: ts('09:00') }),
    mkEval({
      intervention: 'halt',
      pre: 5,
      delta: 5,
      post: 10,
      crossed: ['restricted_mode', 're_tiering_review'],
      ts: ts('09:10'),
    }),
    mkEval({ intervention: 'nudge', pre: 10, delta: 0.5, post: 10.5, ts: ts('09:20') }),
    privateEval(PRIVATE_A, { intervention: 'ok', pre: 10.5, delta: 0, post: 10.5, ts: ts('09:30') }),
    next,
    mkEval({ intervention: 'ok', pre: after, delta: 0, post: after, ts: ts('09:31') }),
    mkEval({ intervention: 'ok', pre: after, delta: 0, post: after, ts: ts('09:32') }),
  ];
}
const at = (pre: number, id = PRIVATE_B) =>
  privateEval(id, { intervention: 'ok', pre, delta: 0, post: pre, ts: '2026-05-04T09:30:30Z' });

describe('defect 1: a private EVAL after a private EVAL continues from its recorded post', () => {
  it('a debt of 10.5 handed from one private provider to another as 0 is unavailable (RPR-ACGP-026), never PASS', async () => {
    const r = await run(handedOn(at(0), 0), 'replay');
    expect(r.verdict).toBe('unavailable');
    const f = findingOf(r, 'RPR-ACGP-026');
    expect([f.severity, f.pointer, f.expected, f.actual]).toEqual(['unavailable', '/4/trust_debt/pre', 10.5, 0]);
    expect(f.message).toContain(`(private provider ${PRIVATE_A})`);
    const row = r.comparisons!.find((c) => c.output === '/4/trust_debt/pre')!;
    expect([row.status, row.reason]).toEqual(['unavailable', 'not the recorded post of the private EVAL before']);
  });

  it('the same private provider may lower its own debt (its decay is withheld, RECORDED), never raise it unseen', async () => {
    const lowered = await run(handedOn(at(0, PRIVATE_A), 0), 'replay');
    expect(lowered.verdict).toBe('pass');
    const row = lowered.comparisons!.find((c) => c.output === '/4/trust_debt/pre')!;
    expect([row.status, row.reason]).toEqual([
      'pass',
      'private provider: RECORDED; at most the recorded post of its EVAL before (its decay is withheld)',
    ]);
    const rose = await run(handedOn(at(11, PRIVATE_A), 11), 'replay');
    expect(rose.verdict).toBe('unavailable');
    const f = findingOf(rose, 'RPR-ACGP-026');
    expect(f.message).toContain('(the same private provider) nor below it');
    expect(f.message).toContain('whether the debt rose');
  });

  it('a debt carried over as it stood passes, and the row says so', async () => {
    const r = await run(handedOn(at(10.5), 10.5), 'replay');
    expect(r.verdict).toBe('pass');
    const row = r.comparisons!.find((c) => c.output === '/4/trust_debt/pre')!;
    expect(row.reason).toBe('private provider: RECORDED; the recorded post of the private EVAL before, carried over');
  });

  it("the red team's trace through the CLI: exit 2 (unavailable), no longer 0", async () => {
    const lines = handedOn(at(0), 0).map((e) => JSON.stringify(e));
    const path = await tempFile('a1-privswap.jsonl', lines.join('\n') + '\n');
    const r = await cliIn('/', 'replay', path);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/UNAVAILABLE/);
    expect(r.out).toContain('RPR-ACGP-026');
  });
});

/** One EVAL whose evaluated dimensions are `dims` ([score, weight]) recording ctq, risk and intervention. */
const dimsEval = (dims: [number, number][], ctq: number, risk: number, intervention: EvalSpec['intervention']) => ({
  ...mkEval({ intervention, pre: 0, delta: 0, post: 0 }),
  ctq_dimensions: Object.fromEntries(
    dims.map(([score, weight], k) => [`d${k}`, { score, weight, status: 'evaluated', contributors: [] }]),
  ),
  ctq_score: ctq,
  risk_score: risk,
});

describe('defect 2: sums and products of recorded numbers are exact, not rounded to 100 digits', () => {
  it('0.8925 × 0.5 + 1e-150 × 0.5 is past the tie 0.44625: ctq 0.4463, not 0.4462', async () => {
    const tie = [
      [0.8925, 0.5],
      [1e-150, 0.5],
    ] as [number, number][];
    const r = await run(dimsEval(tie, 0.4462, 0.5538, 'escalate'), 'verify');
    expect(r.verdict).toBe('fail');
    expect(findingOf(r, 'RPR-ACGP-005')).toMatchObject({ expected: 0.4463, actual: 0.4462 });
    expect(findingOf(r, 'RPR-ACGP-006')).toMatchObject({ expected: 0.5537, actual: 0.5538 });
    const right = await run(dimsEval(tie, 0.4463, 0.5537, 'escalate'), 'verify');
    expect(rules(right, 'fail')).toEqual([]);
  });

  it('weights summing to 1 + 1e-200 are RPR-ACGP-004, the exact sum shown', async () => {
    const dims = [
      [0.8925, 0.5],
      [0.8924, 0.5],
      [1, 1e-200],
    ] as [number, number][];
    const r = await run(dimsEval(dims, 0.8924, 0.1076, 'ok'), 'verify');
    expect(r.verdict).toBe('fail');
    expect(findingOf(r, 'RPR-ACGP-004')).toMatchObject({ expected: 1, actual: `1.${'0'.repeat(199)}1` });
  });

  it('pre 1 + delta 1e-150 is not post 1: RPR-ACGP-010 under verify, and the private post row fails under replay', async () => {
    const spec = { intervention: 'ok', pre: 1, delta: 1e-150, post: 1 } as const;
    const v = await run(mkEval(spec), 'verify');
    expect(findingOf(v, 'RPR-ACGP-010')).toMatchObject({ pointer: '/trust_debt/post', actual: 1 });
    const r = await run(privateEval(PRIVATE_A, spec), 'replay');
    expect(r.verdict).toBe('fail');
    const row = r.comparisons!.find((c) => c.output === '/trust_debt/post')!;
    expect([row.status, row.replayed]).toEqual(['fail', `1.${'0'.repeat(149)}1`]);
  });
});

describe('defect 3: a tripwire object names one tripwire', () => {
  const policy = () =>
    tempFile(
      'pol-trip.json',
      JSON.stringify({
        type: 'reprise.acgp-policy/v1',
        blueprints: { 'finance_qa@2.1': { tripwires: { pii_leak: 'halt' } } },
      }),
    );
  /** An EVAL of risk 0.1 (ok by the thresholds) that triggered `tripwire` and records `intervention`. */
  const tripped = (tripwire: unknown, intervention: EvalSpec['intervention'] = 'ok') => ({
    ...mkEval({ intervention, pre: 0, delta: 0, post: 0 }),
    tripwires_triggered: [tripwire],
  });

  it("an id that differs from its name is RPR-ACGP-002, and the name is still held to the policy's halt", async () => {
    const r = await run(tripped({ name: 'pii_leak', id: 'other', action: 'ok' }), 'verify', { policy: await policy() });
    expect(r.verdict).toBe('fail');
    expect(findingOf(r, 'RPR-ACGP-002')).toMatchObject({ pointer: '/tripwires_triggered/0' });
    expect(findingOf(r, 'RPR-ACGP-007')).toMatchObject({ expected: 'halt', actual: 'ok' });
  });

  it('an id and a name that agree are one tripwire: halt recorded, nothing fails', async () => {
    const r = await run(tripped({ name: 'pii_leak', id: 'pii_leak', action: 'ok' }, 'halt'), 'verify', {
      policy: await policy(),
    });
    expect(rules(r, 'fail')).toEqual([]);
  });
});

describe('defect 4: verify and a forged trust debt', () => {
  /** A clean generated trace whose EVAL 9 records pre 7.6, delta 0, post 7.6 and `crossed`. */
  const forged = (crossed: string[]) => {
    const t = generateTrace({ count: 12, seed: 54, traceId: 'trace-forged' });
    (t[9] as { trust_debt: object }).trust_debt = {
      provider_id: 'acgp.core.default@1',
      pre: 7.6,
      delta: 0,
      post: 7.6,
      thresholds_crossed: crossed,
    };
    return t;
  };

  it('a name in thresholds_crossed that is no threshold fails verify (RPR-ACGP-002)', async () => {
    const r = await run(forged(['bogus']), 'verify');
    expect(r.verdict).toBe('fail');
    expect(findingOf(r, 'RPR-ACGP-002')).toMatchObject({
      pointer: '/9/trust_debt/thresholds_crossed',
      actual: ['bogus'],
    });
  });

  it("verify says plainly that the default provider's debt was not replayed (RPR-ACGP-015); replay does not need to", async () => {
    const v = await run(forged(['elevated_monitoring']), 'verify');
    const f = findingOf(v, 'RPR-ACGP-015');
    expect(f.severity).toBe('info');
    expect(f.message).toContain('of 12 EVAL(s)');
    expect(f.message).toContain('NOT recomputed');
    const r = await run(forged(['elevated_monitoring']), 'replay');
    expect(rules(r)).not.toContain('RPR-ACGP-015');
    expect(rules(r, 'fail')).toContain('RPR-ACGP-020');
  });
});

describe('defect 5: a governance tier the policy does not define is said', () => {
  const tierPolicy = (tiers: Record<string, unknown>) =>
    tempFile(
      'pol-tier.json',
      JSON.stringify({ type: 'reprise.acgp-policy/v1', blueprints: { 'finance_qa@2.1': {} }, tiers }),
    );
  const strict = { 'GT-2': { risk_thresholds: { ok: 0.01, nudge: 0.02, escalate: 0.03 } } };
  const ofTier = (tier: string) => ({
    ...mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0 }),
    governance_tier: tier,
  });

  it('"GT-2 " against a policy defining "GT-2" is RPR-ACGP-043, naming both', async () => {
    const policy = await tierPolicy(strict);
    const r = await run(ofTier('GT-2 '), 'verify', { policy });
    const f = findingOf(r, 'RPR-ACGP-043');
    expect([f.severity, f.pointer]).toEqual(['info', '/governance_tier']);
    expect(f.message).toContain('"GT-2 "');
    expect(f.message).toContain('it defines "GT-2"');
    // The tier it means is stricter: held to it, the EVAL fails.
    expect(findingOf(await run(ofTier('GT-2'), 'verify', { policy }), 'RPR-ACGP-007').expected).toBe('block');
  });

  it('a policy that defines no tiers says nothing of them', async () => {
    const r = await run(ofTier('GT-9'), 'verify', { policy: await tierPolicy({}) });
    expect(rules(r)).not.toContain('RPR-ACGP-043');
  });
});

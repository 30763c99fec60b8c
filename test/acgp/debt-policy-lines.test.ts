/**
 * ACGP: a private EVAL's negative delta wiping the debt, malformed policies whose
 * thresholds were dropped in silence, and findings that called a blank line an EVAL or gave a
 * line's own position as the file's. Each test failed before its fix.
 */
import { describe, expect, it } from 'vitest';
import { cleanTrace, acgpWriter } from '../../app/kinds/acgp/examples.js';
import { generateTrace } from '../../app/kinds/acgp/generate.js';
import type { ExampleFile } from '../../app/kinds/types.js';
import { cliIn } from '../cli/in-process.js';
import { findingOf, mkEval, rules, run, tempFile } from './helpers.js';

const PRIVATE = 'urn:x:priv@1';

/**
 * The red team's trace: the clean example's first 13 EVALs, whose debt reaches 12.6 (past
 * re_tiering_review) at EVAL 9; EVAL 10 is a private provider's taking that debt over as
 * handed (10.8029 after decay) and recording `debt`; the default provider then goes on from 0.
 */
function wiped(debt: { pre: number; delta: number; post: number }): string {
  const evals = structuredClone(cleanTrace().slice(0, 13)) as Record<string, unknown>[];
  evals[10]!['trust_debt'] = { provider_id: PRIVATE, ...debt, thresholds_crossed: [] };
  evals[10]!['trust_debt_extended'] = { provider: { id: PRIVATE, visibility: 'private' } };
  for (const e of evals.slice(11)) Object.assign(e['trust_debt'] as object, { pre: 0, delta: 0, post: 0 });
  return evals.map((e) => JSON.stringify(e)).join('\n') + '\n';
}

describe('defect 1: a negative delta is no way down', () => {
  it("a private EVAL's delta of -10.8029 wiping a debt of 10.8 is unavailable (RPR-ACGP-026), never PASS", async () => {
    const r = await run(wiped({ pre: 10.8029, delta: -10.8029, post: 0 }), 'replay', {}, 't.jsonl');
    expect(r.verdict).toBe('unavailable');
    const f = findingOf(r, 'RPR-ACGP-026');
    expect([f.severity, f.pointer, f.actual]).toEqual(['unavailable', '/10/trust_debt/delta', -10.8029]);
    expect(f.message).toContain('decay (already in pre) is the only way down');
    const row = (k: string) => r.comparisons!.find((c) => c.output === `/10/trust_debt/${k}`)!;
    expect([row('pre').status, row('delta').status, row('post').status]).toEqual([
      'pass',
      'unavailable',
      'unavailable',
    ]);
    expect(findingOf(r, 'RPR-ACGP-013').message).toContain('no negative delta');
    // The debt taken over as handed, with no way down but decay: the same EVAL passes.
    const kept = structuredClone(cleanTrace().slice(0, 11)) as Record<string, unknown>[];
    kept[10]!['trust_debt'] = { ...(kept[10]!['trust_debt'] as object), provider_id: PRIVATE };
    kept[10]!['trust_debt_extended'] = { provider: { id: PRIVATE, visibility: 'private' } };
    expect((await run(kept, 'replay')).verdict).toBe('pass');
  });

  it("the default provider's negative delta fails verify too (RPR-ACGP-002), and replay (RPR-ACGP-021)", async () => {
    const t = [
      mkEval({ intervention: 'halt', pre: 0, delta: 5, post: 5, crossed: ['elevated_monitoring'] }),
      mkEval({ intervention: 'ok', pre: 5, delta: -5, post: 0, ts: '2026-05-04T09:10:00Z' }),
    ];
    const v = await run(t, 'verify');
    expect(v.verdict).toBe('fail');
    expect(findingOf(v, 'RPR-ACGP-002')).toMatchObject({ pointer: '/1/trust_debt/delta', actual: -5 });
    const r = await run(t, 'replay');
    expect(rules(r, 'fail')).toEqual(expect.arrayContaining(['RPR-ACGP-002', 'RPR-ACGP-021']));
  });
});

describe('defect 2: a malformed ACGP policy is a usage error naming the member', () => {
  // Risk 0.5: nudge by the baseline (0.40 / 0.55 / 0.70), escalate by the policy's 0.3 / 0.4 / 0.6.
  const evalAt = mkEval({ intervention: 'nudge', pre: 0, delta: 0.5, post: 0.5 });
  const risk = { ok: 0.3, nudge: 0.4, escalate: 0.6 };
  const policyOf = (doc: Record<string, unknown>) =>
    tempFile('pol.json', JSON.stringify({ type: 'reprise.acgp-policy/v1', ...doc }));
  const refused = async (doc: Record<string, unknown>, message: RegExp) =>
    expect(run(evalAt, 'verify', { policy: await policyOf(doc) })).rejects.toThrow(message);

  it('the correct policy fails the EVAL (RPR-ACGP-007); with risk_threshold (a typo) it is exit 3, not PASS', async () => {
    const good = await run(evalAt, 'verify', {
      policy: await policyOf({ blueprints: { 'finance_qa@2.1': { risk_thresholds: risk } } }),
    });
    expect(findingOf(good, 'RPR-ACGP-007').expected).toBe('escalate');
    const typo = await policyOf({ blueprints: { 'finance_qa@2.1': { risk_threshold: risk } } });
    const e = await tempFile('e.json', JSON.stringify(evalAt));
    const res = await cliIn('/', 'verify', e, '--policy', typo);
    expect(res.code).toBe(3);
    expect(res.err).toContain('blueprints."finance_qa@2.1".risk_threshold is not a blueprint override');
  });

  it('refuses an unknown member at every level, naming its path', async () => {
    await refused(
      { blueprints: { 'finance_qa@2.1': { tripwire: { pii_leak: 'halt' } } } },
      /blueprints\."finance_qa@2\.1"\.tripwire is not a blueprint override/,
    );
    await refused(
      { blueprints: { b: { risk_thresholds: { ...risk, block: 0.8 } } } },
      /blueprints\.b\.risk_thresholds\.block is not a risk threshold/,
    );
    await refused({ blueprint: { b: {} } }, /the policy\.blueprint is not a policy member/);
    await refused({ tier: { 'GT-2': { risk_thresholds: risk } } }, /the policy\.tier is not a policy member/);
    await refused({ tiers: { 'GT-2': { thresholds: risk } } }, /tiers\."GT-2"\.thresholds is not a tier override/);
  });

  it('refuses a tier without valid risk_thresholds rather than dropping it', async () => {
    await refused({ tiers: { 'GT-2': {} } }, /tiers\."GT-2" must give risk_thresholds/);
    await refused({ tiers: { 'GT-2': { risk_thresholds: 0.3 } } }, /tiers\."GT-2"\.risk_thresholds must be an object/);
  });

  it('a type that is ours but for a trailing space is refused; another type is still ignored, and 042 says so', async () => {
    const spaced = await tempFile('pol.json', JSON.stringify({ type: 'reprise.acgp-policy/v1 ', blueprints: {} }));
    await expect(run(evalAt, 'verify', { policy: spaced })).rejects.toThrow(
      /its type must be exactly "reprise\.acgp-policy\/v1", not "reprise\.acgp-policy\/v1 "/,
    );
    const other = await tempFile('pol.json', JSON.stringify({ type: 'example.other/v1' }));
    const r = await run(evalAt, 'verify', { policy: other });
    expect(findingOf(r, 'RPR-ACGP-041').severity).toBe('info');
    const f = findingOf(r, 'RPR-ACGP-042');
    expect(f.message).toContain('the --policy file is not an ACGP policy (RPR-ACGP-041)');
    expect(f.message).not.toContain('no --policy was given');
  });
});

describe('defect 4: JSON Lines messages', () => {
  const lines = generateTrace({ count: 5, seed: 9 }).map((e) => JSON.stringify(e));

  it('blank lines at the end are allowed, however many', async () => {
    for (const end of ['\n\n', '\n\n\n\n', '\r\n\r\n\r\n']) {
      const r = await run(lines.join('\n') + end, 'replay', {}, 't.jsonl');
      expect(r.verdict, JSON.stringify(end)).toBe('pass');
      expect(r.details!['evals']).toBe(5);
    }
  });

  it('blank lines inside are named as lines, never as an EVAL, and the debt goes on across them', async () => {
    const r = await run([lines[0], lines[1], '', '', ...lines.slice(2)].join('\n') + '\n', 'replay', {}, 't.jsonl');
    expect(r.verdict).toBe('fail');
    const f = findingOf(r, 'RPR-ACGP-001');
    expect([f.pointer, f.message]).toEqual([
      'line:3',
      'lines 3 to 4 are blank: a JSON Lines trace holds one EVAL per line, and blank lines only at its end',
    ]);
    expect(rules(r)).not.toContain('RPR-ACGP-026');
    expect(r.findings.map((x) => x.message).join('\n')).not.toMatch(/EVAL \d+ \(line [34]\)/);
  });

  it("a line's parse error gives the file's line, with the column in that line", async () => {
    const r = await run([lines[0], lines[1], lines[2], '{"a"', lines[3]].join('\n') + '\n', 'verify', {}, 't.jsonl');
    const f = findingOf(r, 'RPR-ACGP-001');
    expect(f.message).toBe("EVAL 3 (line 4) is not valid I-JSON: ERR_SYNTAX: expected ':' at /a (line 4, column 5)");
  });

  it('the examples index says the policy is an input, not an artifact, and why verify lists it RPR-KIND-001', () => {
    const policy = (acgpWriter.build() as ExampleFile[]).find((f) => f.path === 'acgp/policy.json')!;
    expect(policy.note).toContain('RPR-KIND-001');
  });
});

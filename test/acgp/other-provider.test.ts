/**
 * A trust-debt provider that is neither acgp.core.default@1 (the only one Reprise re-executes)
 * nor declared private (RPR-ACGP-014): verify passed such a trace without a word, as if its
 * debt had been checked. verify now warns (its verdict stays what the rest gives: verify
 * re-executes no provider), replay is unavailable, and both say what was and was not checked.
 */
import { describe, expect, it } from 'vitest';
import { cliIn } from '../cli/in-process.js';
import { findingOf, mkEval, rules, run, tempFile, type EvalSpec } from './helpers.js';

const PUBLIC = 'urn:acgp:ext:trust-debt-public@3';

/** An EVAL of `id`, declared public in trust_debt_extended as the seed's descriptor is. */
const publicEval = (id: string, s: Omit<EvalSpec, 'provider'>) => ({
  ...mkEval({ ...s, provider: id }),
  trust_debt_extended: { provider: { id, visibility: 'public', fail_mode: 'deny' } },
});

/** Three consistent EVALs of the public provider, an hour apart (post = pre + delta each). */
const publicTrace = (id = PUBLIC) => [
  publicEval(id, { intervention: 'nudge', pre: 1, delta: 0.5, post: 1.5, ts: '2026-05-04T09:00:00Z' }),
  publicEval(id, { intervention: 'escalate', pre: 1.4, delta: 1, post: 2.4, ts: '2026-05-04T10:00:00Z' }),
  publicEval(id, { intervention: 'ok', pre: 2.3, delta: 0, post: 2.3, ts: '2026-05-04T11:00:00Z' }),
];

describe('a public provider other than acgp.core.default@1 (RPR-ACGP-014)', () => {
  it('verify passes, with a warning naming the provider and saying its debt was not recomputed, by verify or replay', async () => {
    const r = await run(publicTrace(), 'verify');
    expect(r.verdict).toBe('pass');
    expect(rules(r, 'warning')).toEqual(['RPR-ACGP-014']);
    const f = findingOf(r, 'RPR-ACGP-014');
    expect(f.message).toBe(
      `trust-debt provider ${PUBLIC} (3 EVAL(s)) is declared public but is not acgp.core.default@1, the only provider Reprise re-executes: verify checked the pre, delta, post and thresholds_crossed of those EVALs for form and post = pre + delta only, and did NOT recompute them (decay, accumulation, crossings); replay cannot recompute them either, since the formulas are not available here (replay is UNAVAILABLE for them), and acgp.core.default@1 is never run instead`,
    );
    // Not the default provider's note: replay would not recompute these.
    expect(rules(r)).not.toContain('RPR-ACGP-015');
    expect(r.details!['notRecomputed']).toEqual([PUBLIC]);
  });

  it('replay is unavailable, says the default provider was not run in its place, and what was checked', async () => {
    const r = await run(publicTrace(), 'replay');
    expect(r.verdict).toBe('unavailable');
    expect(rules(r, 'unavailable')).toEqual(['RPR-ACGP-014']);
    const f = findingOf(r, 'RPR-ACGP-014');
    expect(f.message).toContain(`trust-debt provider ${PUBLIC} (3 EVAL(s)) is declared public but is not`);
    expect(f.message).toContain('were NOT recomputed, and acgp.core.default@1 was not run instead');
    expect(f.message).toContain('only their form and post = pre + delta were checked');
    expect(r.details).toMatchObject({ debtRecomputed: false, notRecomputed: [PUBLIC] });
    expect(r.comparisons!.filter((c) => c.output.includes('/trust_debt/')).map((c) => c.status)).toEqual(
      Array(12).fill('unavailable'),
    );
  });

  it('a provider with no descriptor is said to be neither the default nor declared private', async () => {
    const e = mkEval({ intervention: 'nudge', pre: 1, delta: 0.5, post: 1.5, provider: 'urn:acgp:ext:custom@2' });
    const v = findingOf(await run(e, 'verify'), 'RPR-ACGP-014');
    expect(v.severity).toBe('warning');
    expect(v.message).toMatch(
      /^trust-debt provider urn:acgp:ext:custom@2 \(1 EVAL\(s\)\) is neither acgp\.core\.default@1, the only provider Reprise re-executes, nor declared private: verify checked /,
    );
  });

  it('a trace mixing the default and a public provider gets both notes under verify, each with its count', async () => {
    const trace = [
      mkEval({ intervention: 'nudge', pre: 0, delta: 0.5, post: 0.5, ts: '2026-05-04T08:00:00Z' }),
      ...publicTrace(),
    ];
    const r = await run(trace, 'verify');
    expect(r.verdict).toBe('pass');
    expect(findingOf(r, 'RPR-ACGP-015').message).toContain('of 1 EVAL(s)');
    expect(findingOf(r, 'RPR-ACGP-014').message).toContain('(3 EVAL(s))');
  });

  it('names eight providers and counts the EVALs of the others, under verify as under replay', async () => {
    const trace = Array.from({ length: 11 }, (_, k) =>
      publicEval(`urn:x:p${k}@1`, { intervention: 'ok', pre: 0, delta: 0, post: 0, ts: '2026-05-04T09:00:00Z' }),
    );
    for (const mode of ['verify', 'replay'] as const) {
      const fs = (await run(trace, mode)).findings.filter((f) => f.rule === 'RPR-ACGP-014');
      expect(fs).toHaveLength(9);
      expect(fs.every((f) => f.severity === (mode === 'verify' ? 'warning' : 'unavailable'))).toBe(true);
      expect(fs[8]!.message).toMatch(/^3 more EVAL\(s\) are of trust-debt providers beyond the 8 named above /);
    }
  });

  it('the CLI text of verify shows the warning beneath PASS (exit 0)', async () => {
    const p = await tempFile('public.json', JSON.stringify(publicTrace()));
    const res = await cliIn('/', 'verify', p);
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/^PASS {8}/);
    expect(res.out).toContain(`warning     RPR-ACGP-014  trust-debt provider ${PUBLIC} (3 EVAL(s)) is declared public`);
  });
});

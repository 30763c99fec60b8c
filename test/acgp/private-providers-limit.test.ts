/**
 * The private providers a report names (RPR-ACGP-013) are bounded by the declared limit
 * acgp-private-providers: a trace naming a new private provider on every line held every name
 * until the end, one 013 each, so memory and the report grew with the trace. Past the limit the
 * EVALs of the others are counted in one more 013 naming the limit; they are checked all the
 * same, so the limit never changes the verdict. Bounded by counts (names kept), never by time.
 */
import { describe, expect, it } from 'vitest';
import { runTraceFile } from '../../app/kinds/acgp/index.js';
import { ACGP_LIMITS, PRIVATE_PROVIDERS_LIMIT } from '../../app/kinds/acgp/limits.js';
import { declaredLimits } from '../../app/kinds/registry.js';
import type { Report } from '../../shared/report.js';
import { mkEval, rules, run, tempFile, type EvalSpec } from './helpers.js';

const TS = '2026-05-04T09:00:00Z';

/** An EVAL of private provider `id` (declared private, as the seed's descriptor does). */
const privateEval = (id: string, s: Partial<Omit<EvalSpec, 'provider'>> = {}) => ({
  ...mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0, ts: TS, ...s, provider: id }),
  trust_debt_extended: { provider: { id, visibility: 'private', fail_mode: 'deny' } },
});

/** `n` consistent EVALs, each of its own private provider, as JSON Lines. */
const distinct = (n: number) =>
  Array.from({ length: n }, (_, k) => JSON.stringify(privateEval(`urn:x:priv${k}@1`))).join('\n') + '\n';

const private013 = (r: Report) => r.findings.filter((f) => f.rule === 'RPR-ACGP-013');

describe('acgp-private-providers bounds the private providers a report names (RPR-ACGP-013)', () => {
  it('is a declared limit, 50 by default, that --limit knows', () => {
    expect(ACGP_LIMITS[PRIVATE_PROVIDERS_LIMIT]).toBe(50);
    expect(declaredLimits().find((l) => l.name === 'acgp-private-providers')).toMatchObject({ default: 50 });
  });

  it('names the first 50 providers and counts the EVALs of the others, under verify as under replay', async () => {
    for (const mode of ['verify', 'replay'] as const) {
      const r = await run(distinct(250), mode, {}, 't.jsonl');
      expect(r.verdict).toBe('pass');
      const fs = private013(r);
      expect(fs).toHaveLength(51);
      expect(rules(r)).not.toContain('RPR-REPORT-001');
      expect(r.details!['notRecomputed']).toHaveLength(50);
      expect(r.details!['notRecomputedUnnamedEvals']).toBe(200);
      expect(r.details!['debtRecomputed']).toBe(false);
      expect(fs[50]!.severity).toBe('info');
      expect(fs[50]!.message).toMatch(
        /^200 more EVAL\(s\) are of private trust-debt providers beyond the 50 this report names \(limit acgp-private-providers = 50; --limit acgp-private-providers=250 names every one\): their pre, delta, post and thresholds_crossed are RECORDED and were NOT recomputed either; Reprise checked only the descriptor form, .* and that no intervention was relaxed, as for the providers named$/,
      );
    }
  });

  it('keeps as many names as the limit when a streamed trace names a new provider on every line', async () => {
    const p = await tempFile('many.jsonl', distinct(3000));
    const r = await runTraceFile(p, 'verify', { limits: { [PRIVATE_PROVIDERS_LIMIT]: 5 } });
    expect(r.verdict).toBe('pass');
    expect(r.details!['evals']).toBe(3000);
    expect(r.details!['notRecomputed']).toEqual([0, 1, 2, 3, 4].map((k) => `urn:x:priv${k}@1`));
    expect(r.details!['notRecomputedUnnamedEvals']).toBe(2995);
    expect(private013(r)).toHaveLength(6);
  });

  it('a named provider keeps counting its EVALs after the limit is reached', async () => {
    const trace = [privateEval('urn:x:a@1'), privateEval('urn:x:b@1'), privateEval('urn:x:a@1')];
    const r = await run(trace, 'verify', { limits: { [PRIVATE_PROVIDERS_LIMIT]: 1 } });
    const fs = private013(r);
    expect(fs.map((f) => f.message.slice(0, 60))).toEqual([
      'trust-debt provider urn:x:a@1 is private: the pre, delta, po',
      '1 more EVAL(s) are of private trust-debt providers beyond th',
    ]);
    expect(fs[0]!.message).toContain('of 2 EVAL(s)');
    expect(fs[1]!.message).toContain('--limit acgp-private-providers=2 names every one');
  });

  it("checks the EVALs of the providers it does not name as it checks the others': the verdict is the same", async () => {
    const bad = [
      privateEval('urn:x:a@1'),
      privateEval('urn:x:b@1'),
      privateEval('urn:x:c@1', { pre: 0, delta: 0.5, post: 0.7 }),
    ];
    for (const limit of [1, 100]) {
      const r = await run(bad, 'verify', { limits: { [PRIVATE_PROVIDERS_LIMIT]: limit } });
      expect(r.verdict).toBe('fail');
      expect(rules(r, 'fail')).toEqual(['RPR-ACGP-010']);
    }
    // Under replay, a debt handed between two unnamed providers and reset is still unavailable.
    const reset = [privateEval('urn:x:a@1'), privateEval('urn:x:b@1', { post: 3, delta: 3 }), privateEval('urn:x:c@1')];
    const r = await run(reset, 'replay', { limits: { [PRIVATE_PROVIDERS_LIMIT]: 1 } });
    expect(r.verdict).toBe('unavailable');
    expect(rules(r, 'unavailable')).toEqual(['RPR-ACGP-026']);
    expect(r.details!['notRecomputedUnnamedEvals']).toBe(2);
  });

  it('at 0 names none, and still says the debt was not recomputed and the attestations were not verified', async () => {
    const r = await run([privateEval('urn:x:a@1')], 'replay', { limits: { [PRIVATE_PROVIDERS_LIMIT]: 0 } });
    expect(r.verdict).toBe('pass');
    expect(r.details!['notRecomputed']).toBeUndefined();
    expect(r.details).toMatchObject({ debtRecomputed: false, notRecomputedUnnamedEvals: 1 });
    expect(private013(r)).toHaveLength(1);
    expect(r.authenticity?.statement).toContain("the private providers' attestation digests are checked for form only");
  });
});

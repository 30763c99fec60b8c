/**
 * The words a finding's values are shown in (renderer/src/lib/report-words.ts): one digest
 * matched with or without `sha256:` (shared/hash-format.ts sameDigest), a finding tied to
 * the chain node it compares, ACGP's value checks as recorded / recomputed, everything else
 * as the engine's expected / actual.
 */
import { describe, expect, it } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import { sameDigest } from '../../shared/hash-format.js';
import type { ChainNode, Finding, Report } from '../../shared/report.js';
import { chainNodeOf, copyable, findingValues, repeatedLabels } from '../../renderer/src/lib/report-words.js';
import { recomputedRules } from '../../app/kinds/registry.js';

/** What the kinds declare (EngineInfo.recomputedRules), the list the window is given. */
const RECOMPUTED = recomputedRules();
import { acgpWriter } from '../../app/kinds/acgp/examples.js';
import { mkEval, run, type EvalSpec } from '../acgp/helpers.js';

const A = 'ecfeaae14ee160d826268d6ff3332683082011f4cfa30f366955237cab2b3377';
const B = '5ab91202a28483afa5f4fd83cab0d066407a2c3b1ef3062c1e513d93432ebdd9';
const node = (over: Partial<ChainNode>): ChainNode => ({
  id: 'n',
  label: 'n',
  recorded: null,
  recomputed: null,
  status: 'mismatch',
  parents: [],
  ...over,
});
const finding = (over: Partial<Finding>): Finding => ({ rule: 'R-1', severity: 'fail', message: 'm', ...over });

describe('sameDigest', () => {
  it('one digest in either form: bare hex against sha256:, either way round, and each form against itself', () => {
    expect(sameDigest(A, `sha256:${A}`)).toBe(true);
    expect(sameDigest(`sha256:${A}`, A)).toBe(true);
    expect(sameDigest(A, A)).toBe(true);
    expect(sameDigest(`sha256:${A}`, `sha256:${A}`)).toBe(true);
  });

  it('never the same: other digits, upper case, a digit short, another prefix, text, numbers, nothing', () => {
    expect(sameDigest(A, `sha256:${B}`)).toBe(false);
    expect(sameDigest(`sha256:${A}`, B)).toBe(false);
    expect(sameDigest(A.toUpperCase(), `sha256:${A}`)).toBe(false);
    expect(sameDigest(A.slice(1), `sha256:${A.slice(1)}`)).toBe(false);
    expect(sameDigest(`sha512:${A}`, A)).toBe(false);
    expect(sameDigest(`ed25519:${A}`, `sha256:${A}`)).toBe(false);
    expect(sameDigest('trusted', 'trusted')).toBe(false);
    expect(sameDigest(1, 1)).toBe(false);
    expect(sameDigest(null, null)).toBe(false);
  });
});

describe('chainNodeOf', () => {
  const receipt = node({ id: 'receipt', recorded: `sha256:${A}`, recomputed: `sha256:${B}` });

  it("ties a Nemosyne finding in bare hex (expected the recomputed digest) to the chain's prefixed node", () => {
    const f = finding({ rule: 'RPR-NEM-020', expected: B, actual: A });
    expect(chainNodeOf(f, [node({ id: 'other', recorded: `sha256:${B}`, recomputed: `sha256:${B}` }), receipt])).toBe(
      receipt,
    );
    expect(findingValues(f, [receipt], RECOMPUTED)).toEqual([
      { word: 'recorded', value: `sha256:${A}` },
      { word: 'recomputed', value: `sha256:${B}` },
    ]);
  });

  it('ties a finding whose expected is the recorded value (a dump artifact keyed by its hash) in the same order', () => {
    const f = finding({ rule: 'RDS-F001', expected: `sha256:${A}`, actual: `sha256:${B}` });
    expect(findingValues(f, [receipt], RECOMPUTED).map((v) => v.word)).toEqual(['recorded', 'recomputed']);
    expect(findingValues(f, [receipt], RECOMPUTED)[0]!.value).toBe(`sha256:${A}`);
  });

  it('ties non-hash values only when both equal the node exactly (a trust decision)', () => {
    const trust = node({ id: 'trust', recorded: 'trusted', recomputed: 'revoked' });
    expect(chainNodeOf(finding({ expected: 'revoked', actual: 'trusted' }), [trust])).toBe(trust);
    // One value in common is another comparison: the key's state, not the trust decision.
    expect(chainNodeOf(finding({ expected: 'active or retired', actual: 'revoked' }), [trust])).toBeNull();
  });

  it('no tie: another digest, one side only, a matching node, or a finding without both values', () => {
    expect(chainNodeOf(finding({ expected: B, actual: `sha256:${'0'.repeat(64)}` }), [receipt])).toBeNull();
    expect(chainNodeOf(finding({ expected: B }), [receipt])).toBeNull();
    expect(
      chainNodeOf(finding({ expected: A, actual: A }), [
        node({ recorded: `sha256:${A}`, recomputed: `sha256:${A}`, status: 'match' }),
      ]),
    ).toBeNull();
    expect(chainNodeOf(finding({ expected: A.toUpperCase(), actual: B }), [receipt])).toBeNull();
    expect(findingValues(finding({ expected: 'present', actual: 'missing' }), [receipt], RECOMPUTED)).toEqual([
      { word: 'expected', value: 'present' },
      { word: 'actual', value: 'missing' },
    ]);
    expect(findingValues(finding({ actual: 'revoked' }), [], RECOMPUTED)).toEqual([
      { word: 'actual', value: 'revoked' },
    ]);
  });
});

const T = (hm: string) => `2026-05-04T${hm}Z`;
const TRACE: EvalSpec[] = [
  { ts: T('09:00:00'), intervention: 'block', pre: 0, delta: 2, post: 2 },
  { ts: T('09:30:00'), intervention: 'nudge', flagged: true, pre: 2, delta: 0.6, post: 2.6 },
  {
    ts: T('11:30:00'),
    intervention: 'escalate',
    pre: 2.3465,
    delta: 1,
    post: 3.3465,
    crossed: ['elevated_monitoring'],
  },
];

/** Traces that reach every ACGP rule with both values: wrong pre, delta, crossings, weights, trace id. */
function handMade(): unknown[] {
  const wrong = (k: 'pre' | 'delta' | 'post' | 'thresholds_crossed', v: unknown, i = 2) => {
    const t = TRACE.map(mkEval);
    (t[i]!['trust_debt'] as Record<string, unknown>)[k] = v;
    if (k === 'pre') (t[i]!['trust_debt'] as Record<string, unknown>)['post'] = (v as number) + 1;
    if (k === 'delta') (t[i]!['trust_debt'] as Record<string, unknown>)['post'] = 2.3465 + (v as number);
    return t;
  };
  const weights = TRACE.map(mkEval);
  (weights[1]!['ctq_dimensions'] as Record<string, Record<string, unknown>>)['reasoning_quality']!['weight'] = 0.9;
  const otherTrace = TRACE.map(mkEval);
  otherTrace[2]!['trace_id'] = 'trace-other';
  return [wrong('pre', 2.3466), wrong('delta', 1.5), wrong('thresholds_crossed', []), weights, otherTrace];
}

/** Every ACGP finding with both values, from the examples and the hand-made traces, under verify and replay. */
async function acgpReports(): Promise<{ mode: 'verify' | 'replay'; r: Report }[]> {
  const inputs: { name: string; bytes: Uint8Array | string }[] = (await acgpWriter.build())
    .filter((f) => f.expect)
    .map((f) => ({ name: f.path, bytes: f.bytes }));
  for (const [i, t] of handMade().entries()) inputs.push({ name: `hand-${i}.json`, bytes: JSON.stringify(t) });
  const out: { mode: 'verify' | 'replay'; r: Report }[] = [];
  for (const { name, bytes } of inputs)
    for (const mode of ['verify', 'replay'] as const)
      out.push({ mode, r: await run(Buffer.from(bytes), mode, {}, name) });
  return out;
}

describe('ACGP findings in the words of the Trainer and the comparisons', () => {
  it("a finding says recorded / recomputed exactly where the report's own comparison at its pointer has original = actual and replayed = expected", async () => {
    const reports = await acgpReports();
    const seen = new Map<string, string>();
    for (const { r } of reports.filter((x) => x.mode === 'replay'))
      for (const f of r.findings.filter((x) => x.expected !== undefined && x.actual !== undefined)) {
        const row = (r.comparisons ?? []).some(
          (c) =>
            c.output === f.pointer &&
            isDeepStrictEqual(c.original, f.actual) &&
            isDeepStrictEqual(c.replayed, f.expected),
        );
        const words = findingValues(f, r.chain, RECOMPUTED).map((v) => v.word);
        expect({ rule: f.rule, words }).toEqual({
          rule: f.rule,
          words: row ? ['recorded', 'recomputed'] : ['expected', 'actual'],
        });
        if (row) expect(findingValues(f, r.chain, RECOMPUTED).map((v) => v.value)).toEqual([f.actual, f.expected]);
        seen.set(f.rule, words[0]!);
      }
    // Every kind of finding the list speaks of, and the others, were reached.
    expect(Object.fromEntries([...seen].sort())).toEqual({
      'RPR-ACGP-004': 'expected',
      'RPR-ACGP-005': 'recorded',
      'RPR-ACGP-006': 'recorded',
      'RPR-ACGP-007': 'recorded',
      'RPR-ACGP-010': 'recorded',
      'RPR-ACGP-012': 'expected',
      'RPR-ACGP-020': 'recorded',
      'RPR-ACGP-021': 'recorded',
      'RPR-ACGP-022': 'recorded',
      'RPR-ACGP-023': 'recorded',
      'RPR-ACGP-031': 'expected',
    });
    // Under verify no trust-debt row exists, and post = pre + delta is still recorded against recomputed.
    const post = reports.find((x) => x.mode === 'verify' && x.r.findings.some((f) => f.rule === 'RPR-ACGP-010'))!.r;
    const f010 = post.findings.find((f) => f.rule === 'RPR-ACGP-010')!;
    expect((post.comparisons ?? []).some((c) => c.output === f010.pointer)).toBe(false);
    expect(findingValues(f010, post.chain, RECOMPUTED)).toEqual([
      { word: 'recorded', value: 8.6 },
      { word: 'recomputed', value: 7.6 },
    ]);
  });
});

describe('copyable and repeated labels', () => {
  it('a long single token is copyable; words, short strings and numbers are not', () => {
    expect(copyable(`sha256:${A}`)).toBe(true);
    expect(copyable(A)).toBe(true);
    expect(copyable('entry:manifest.json#/evidenceReceiptDigest')).toBe(true);
    expect(copyable('active or retired keys only')).toBe(false);
    expect(copyable('revoked')).toBe(false);
    expect(copyable(8.6)).toBe(false);
  });

  it('labels carried by several nodes (every TG artifact is "artifact") are the ones named with their id', () => {
    const chain = [
      node({ id: `sha256:${A}`, label: 'artifact' }),
      node({ id: `sha256:${B}`, label: 'artifact' }),
      node({ id: 'policy-bundle', label: 'policy bundle X' }),
    ];
    expect([...repeatedLabels(chain)]).toEqual(['artifact']);
  });
});

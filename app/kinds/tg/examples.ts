/**
 * TG replay-profile training scenarios (`reprise examples DIR` → `tg/`): each a manifest
 * with its policy bundle embedded as an artifact, its ruleset, claim inputs and prompt.
 * Values are computed here with the same engines and the reference provider that replay
 * uses, so every scenario is exactly what it claims to be; the bytes are deterministic
 * (fixed seeds, fixed timestamps, fixed keys).
 */
import { createPrivateKey } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashBytes, hashValue } from '../../core/hash.js';
import { signerFromPrivateKey, trustStoreEntry, type Signer } from '../../core/keys.js';
import { appendEntry } from '../../journal/writer.js';
import type { Bundle } from './bundle.js';
import { BUNDLE_TYPE, CLAIM_INPUTS_TYPE, CSI, ENGINE, MANIFEST_TYPE, RULESET_TYPE } from './constants.js';
import { decide } from './engines/decision.js';
import { ruleBudget } from './engines/metered-logic.js';
import { evaluateRuleset } from './engines/rule-evaluator.js';
import { scoreTrust, type Scored, type TrustVector } from './engines/score-trust.js';
import { providerConfidencePort, REFERENCE_MAX_TOKENS } from './ports.js';
import type { ComputeShape } from '../../providers/types.js';
import type { ExampleFile, ExampleWriter } from '../types.js';

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A fixed Ed25519 key from a label (examples only: never for real evidence). */
export function exampleSigner(label: string): Signer {
  const seed = Buffer.from(hashBytes(`reprise.examples.tg|${label}`).slice('sha256:'.length), 'hex');
  return signerFromPrivateKey(
    createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' }),
  );
}

export const REVIEW_OUTPUT = 'comp.TG.OUTPUT.REVIEW-RATIONALE.v1_0';
export const QUARANTINE_ENGINE = 'TG-QUARANTINE-MANAGER';

export const EXAMPLE_BUNDLE: Bundle = {
  type: BUNDLE_TYPE,
  bundleId: 'fagf.weights.2026-10',
  version: '3',
  weights: { S: 0.15, I: 0.15, Q: 0.15, P: 0.15, R: 0.1, F: 0.1, A: 0.2 },
  modifiers: [{ id: 'stale-source', when: { '>': [{ var: 'sourceAgeDays' }, 365] }, factor: 0.9 }],
  exits: { ACCEPT: 0.8, ACCEPT_WITH_CONDITIONS: 0.65, HUMAN_REVIEW: 0.5, QUARANTINE: 0.3 },
  epsilon: { [CSI.TRUST_SCORE]: 0.02, [CSI.CONFIDENCE_SCORE]: 0.03 },
  driftRate: { window: 50, maxRate: 0.1 },
};

export const RULESET = {
  type: RULESET_TYPE,
  rulesetId: 'tg.rules.trust-vector',
  version: '7',
  rules: {
    S: { if: [{ '>=': [{ var: 'source.reliability' }, 0.9] }, 0.95, { var: 'source.reliability' }] },
    I: { var: 'identity.confidence' },
    Q: { '-': [1, { var: 'quality.defectRate' }] },
    P: { if: [{ var: 'provenance.signed' }, 0.9, 0.4] },
    R: { var: 'replay.reliability' },
    F: { var: 'federation.confidence' },
  },
};

export const PROFILES = (aBanded: boolean) => ({
  [ENGINE.POLICY_RESOLUTION]: { specification: 'TG-RP', default: 'EXACT', outputs: {} },
  [ENGINE.RULE_EVALUATOR]: { specification: 'TG-RP', default: 'EXACT', outputs: {} },
  [ENGINE.SCORE_TRUST]: {
    specification: 'TG-RP',
    default: 'EXACT',
    outputs: aBanded
      ? { [CSI.TRUST_SCORE]: 'BANDED', [CSI.CONFIDENCE_SCORE]: 'BANDED', [CSI.SCORE_EXPLANATION]: 'EXACT' }
      : { [CSI.TRUST_SCORE]: 'EXACT', [CSI.SCORE_EXPLANATION]: 'EXACT' },
  },
  [ENGINE.DECISION]: { specification: 'TG-RP', default: 'EXACT', outputs: {} },
  [QUARANTINE_ENGINE]: { specification: 'TG-RP', default: 'EXACT', outputs: { [REVIEW_OUTPUT]: 'RECORDED' } },
});

export interface ScenarioOptions {
  claimRef: string;
  createdAtUtc?: string;
  data?: Record<string, unknown>;
  /** Include the BANDED A dimension (else TRUST-SCORE is EXACT). */
  withA?: boolean;
  /** Compute shape the original A was produced on (jitter against the replaying machine). */
  originalShape?: ComputeShape;
  /** Added to the replayed A to make the recorded A (drift). */
  recordedADelta?: number;
  /** Tune F so that the recorded trust score lands at this value (to sit near a threshold). */
  targetTrustScore?: number;
  /** Extra BANDED A executions (bench: more work per manifest). */
  extraA?: number;
  /** Pin inferenceParams.maxTokens (bench: a shorter generation per A). */
  maxTokens?: number;
  /** Extra rule-evaluator executions (bench). */
  extraRules?: number;
  /** A RECORDED review rationale, anchored (or not) in a journal. */
  recorded?: { artifact: Record<string, unknown>; anchor?: { seq: number; entryHash: string } };
  mutate?: (m: Record<string, unknown>) => void;
  /** The policy bundle the manifest embeds and is scored with (default EXAMPLE_BUNDLE). */
  bundle?: Bundle;
}

export const BASE_DATA = {
  source: { reliability: 0.92 },
  identity: { confidence: 0.88 },
  quality: { defectRate: 0.05 },
  provenance: { signed: true },
  replay: { reliability: 0.9 },
  federation: { confidence: 0.85 },
  sourceAgeDays: 120,
};

/** A weak claim: unsigned provenance, a doubtful source (lands in HUMAN_REVIEW). */
export const WEAK_DATA = {
  source: { reliability: 0.5 },
  identity: { confidence: 0.55 },
  quality: { defectRate: 0.4 },
  provenance: { signed: false },
  replay: { reliability: 0.5 },
  federation: { confidence: 0.5 },
  sourceAgeDays: 30,
};

const art = (json: unknown) => ({ mediaType: 'application/json', json });

/** What every step of one scenario shares: its options, bundle and A prompt. */
interface Scenario {
  o: ScenarioOptions;
  bundle: Bundle;
  bundleHash: string;
  withA: boolean;
  prompt: string;
  promptHash: string;
  /** A as the reference provider computes it; its inputs are its prompt only (the prompt embeds the claim), so tuning claim data leaves A alone. */
  replayA: (seed: number, shape?: ComputeShape) => Promise<number>;
}

function scenarioOf(o: ScenarioOptions): Scenario {
  const bundle = o.bundle ?? EXAMPLE_BUNDLE;
  const prompt = `Assess the analytical confidence of ${o.claimRef}: is the source's account consistent with the registry record?`;
  const promptHash = hashBytes(prompt);
  const port = providerConfidencePort(undefined);
  const replayA = async (seed: number, shape?: ComputeShape) => {
    const r = await port.confidence(
      {
        modelId: 'reprise.reference',
        modelVersion: 'ref-1',
        prompt: { hash: promptHash, mediaType: 'text/plain', text: prompt },
        materials: [],
        pipeline: { engine: ENGINE.SCORE_TRUST, engineCmi: 'tg-score-trust@2.3.1', output: CSI.CONFIDENCE_SCORE },
        temperature: 0,
        topP: 1,
        seed,
        maxTokens: o.maxTokens ?? REFERENCE_MAX_TOKENS,
        ...(shape ? { computeShape: shape } : {}),
      },
      '',
    );
    if (!r.ok) throw new Error(`example A could not be computed: ${r.findings[0]?.message}`);
    return r.value;
  };
  return { o, bundle, bundleHash: hashValue(bundle), withA: o.withA ?? true, prompt, promptHash, replayA };
}

function scenarioPins(sc: Scenario, modelVersion = 'ref-1', seed = 7) {
  const { o, bundle, promptHash } = sc;
  return {
    modelId: 'reprise.reference',
    modelVersion,
    promptHash,
    inferenceParams: {
      temperature: 0,
      topP: 1,
      seed,
      ...(o.maxTokens !== undefined ? { maxTokens: o.maxTokens } : {}),
    },
    epsilon: bundle.epsilon[CSI.CONFIDENCE_SCORE]!,
  };
}

const claimArt = (o: ScenarioOptions, d: unknown) => ({ type: CLAIM_INPUTS_TYPE, claimRef: o.claimRef, data: d });

function vectorOf(d: unknown): TrustVector {
  const r = evaluateRuleset(RULESET.rules, d, ruleBudget());
  if (!r.ok) throw new Error(r.reason);
  return { ...(r.value as Omit<TrustVector, 'A'>), A: 0 } as TrustVector;
}

/** Tunes F (a plain data value, changed in place) so the recorded trust score sits where the scenario needs it; returns the recorded A. */
async function tuneScenario(sc: Scenario, data: Record<string, unknown>): Promise<number> {
  const { o, bundle, withA } = sc;
  let A = 0;
  if (withA) A = (await sc.replayA(7, o.originalShape)) + (o.recordedADelta ?? 0);
  if (o.targetTrustScore !== undefined) {
    const v = vectorOf(data);
    v.A = A;
    const s = scoreTrust(v, data, bundle, ruleBudget());
    if (!s.ok) throw new Error(s.reason);
    const product = s.explanation.product;
    const rest = s.trustScore / product - bundle.weights.F * v.F;
    const f = (o.targetTrustScore / product - rest) / bundle.weights.F;
    if (!(f >= 0 && f <= 1))
      throw new Error(
        `example ${o.claimRef}: target trust score ${o.targetTrustScore} is out of reach (F would be ${f})`,
      );
    (data['federation'] as Record<string, unknown>)['confidence'] = Math.round(f * 1e6) / 1e6;
    if (withA) A = (await sc.replayA(7, o.originalShape)) + (o.recordedADelta ?? 0);
  }
  return A;
}

const common = (engine: string, cmi: string) => ({
  engine,
  engineCmi: cmi,
  configSnapshotRef: 'cfg:tg-config@2026-10-01',
});

/** The recorded executions x1..x6 (with the extra rule and A executions the bench asks for). */
async function scenarioExecutions(
  sc: Scenario,
  claimHash: string,
  ruleValue: unknown,
  A: number,
  scored: Scored,
): Promise<Record<string, unknown>[]> {
  const { o, bundle, bundleHash, withA, promptHash } = sc;
  const executions: Record<string, unknown>[] = [
    {
      executionId: 'x1',
      ...common(ENGINE.POLICY_RESOLUTION, 'tg-policy-resolution@1.4.0'),
      output: CSI.POLICY_CONTEXT,
      replayMode: 'EXACT',
      inputs: [bundleHash],
      value: { bundleHash, bundleId: bundle.bundleId, bundleRef: BUNDLE_TYPE, version: bundle.version },
    },
    {
      executionId: 'x2',
      ...common(ENGINE.RULE_EVALUATOR, 'tg-rule-evaluator@3.0.2'),
      output: CSI.TRUST_VECTOR,
      replayMode: 'EXACT',
      inputs: [hashValue(RULESET), claimHash],
      value: ruleValue,
    },
  ];
  for (let i = 0; i < (o.extraRules ?? 0); i++)
    executions.push({
      executionId: `r${i}`,
      ...common(ENGINE.RULE_EVALUATOR, 'tg-rule-evaluator@3.0.2'),
      output: CSI.TRUST_VECTOR,
      replayMode: 'EXACT',
      inputs: [hashValue(RULESET), claimHash],
      value: ruleValue,
    });
  const scoreInputs = withA ? ['x1', 'x2', 'x3', claimHash] : ['x1', 'x2', claimHash];
  if (withA)
    executions.push({
      executionId: 'x3',
      ...common(ENGINE.SCORE_TRUST, 'tg-score-trust@2.3.1'),
      output: CSI.CONFIDENCE_SCORE,
      replayMode: 'BANDED',
      inputs: [promptHash],
      value: A,
      pins: scenarioPins(sc),
    });
  for (let i = 0; i < (o.extraA ?? 0); i++) {
    const seed = 100 + i;
    executions.push({
      executionId: `a${i}`,
      ...common(ENGINE.SCORE_TRUST, 'tg-score-trust@2.3.1'),
      output: CSI.CONFIDENCE_SCORE,
      replayMode: 'BANDED',
      inputs: [promptHash],
      value: await sc.replayA(seed, o.originalShape),
      pins: scenarioPins(sc, 'ref-1', seed),
    });
  }
  executions.push(
    {
      executionId: 'x4',
      ...common(ENGINE.SCORE_TRUST, 'tg-score-trust@2.3.1'),
      output: CSI.TRUST_SCORE,
      replayMode: withA ? 'BANDED' : 'EXACT',
      inputs: scoreInputs,
      value: scored.trustScore,
      ...(withA ? { pins: { ...scenarioPins(sc), epsilon: bundle.epsilon[CSI.TRUST_SCORE]! } } : {}),
    },
    {
      executionId: 'x5',
      ...common(ENGINE.SCORE_TRUST, 'tg-score-trust@2.3.1'),
      output: CSI.SCORE_EXPLANATION,
      replayMode: 'EXACT',
      inputs: scoreInputs,
      value: scored.explanation,
    },
    {
      executionId: 'x6',
      ...common(ENGINE.DECISION, 'tg-decision@1.1.0'),
      output: CSI.DECISION,
      replayMode: 'EXACT',
      inputs: ['x4'],
      value: decide(scored.trustScore, bundle.exits),
    },
  );
  return executions;
}

/** Builds one scenario manifest (as a plain object) with values computed by the engines. */
export async function buildScenario(o: ScenarioOptions): Promise<Record<string, unknown>> {
  const sc = scenarioOf(o);
  const { bundle, bundleHash, withA } = sc;
  const data = structuredClone(o.data ?? BASE_DATA) as Record<string, unknown>;
  const A = await tuneScenario(sc, data);
  const claim = claimArt(o, data);
  const claimHash = hashValue(claim);
  const vector = vectorOf(data);
  const ruleValue = evaluateRuleset(RULESET.rules, data, ruleBudget());
  if (!ruleValue.ok) throw new Error(ruleValue.reason);
  vector.A = A;
  const scored = scoreTrust(vector, data, bundle, ruleBudget());
  if (!scored.ok) throw new Error(scored.reason);
  const artifacts: Record<string, unknown> = {
    [bundleHash]: art(bundle),
    [hashValue(RULESET)]: art(RULESET),
    [claimHash]: art(claim),
  };
  if (withA) artifacts[sc.promptHash] = { mediaType: 'text/plain', text: sc.prompt };
  const executions = await scenarioExecutions(sc, claimHash, ruleValue.value, A, scored);
  if (o.recorded) {
    const h = hashValue(o.recorded.artifact);
    artifacts[h] = art(o.recorded.artifact);
    executions.push({
      executionId: 'x7',
      ...common(QUARANTINE_ENGINE, 'tg-quarantine-manager@1.0.0'),
      output: REVIEW_OUTPUT,
      replayMode: 'RECORDED',
      inputs: ['x6'],
      artifactHash: h,
      ...(o.recorded.anchor ? { anchor: o.recorded.anchor } : {}),
    });
  }
  const m: Record<string, unknown> = {
    type: MANIFEST_TYPE,
    claimRef: o.claimRef,
    createdAtUtc: o.createdAtUtc ?? '2026-11-02T10:00:00Z',
    policyContext: { bundleRef: BUNDLE_TYPE, bundleHash },
    replayProfiles: PROFILES(withA),
    executions,
    artifacts,
  };
  o.mutate?.(m);
  return m;
}

function pinsOf(m: Record<string, unknown>, id: string): Record<string, unknown> {
  const e = (m['executions'] as Record<string, unknown>[]).find((x) => x['executionId'] === id);
  return e!['pins'] as Record<string, unknown>;
}

const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';
const NPU: ComputeShape = { advisor: 'advisor.npu_v1', arity: 4, tensorType: 'fp32' };

export const REVIEW_RATIONALE = {
  type: 'tg.review-rationale/v1',
  claimRef: 'claim:2026-11-0107',
  decision: 'accept',
  rationale: 'Registry record and source account agree; the provenance signature was checked by hand.',
};

/** The example journal: one review rationale anchored at creation, by a fixed reviewer key. */
async function exampleJournal(): Promise<{
  files: { name: string; bytes: Buffer }[];
  anchor: { seq: number; entryHash: string };
  signer: Signer;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'reprise-tg-journal-'));
  const signer = exampleSigner('reviewer');
  try {
    const r = await appendEntry(
      dir,
      {
        kind: 'review-rationale',
        subject: { claimRef: REVIEW_RATIONALE.claimRef, artifact: hashValue(REVIEW_RATIONALE) },
        body: { rationale: REVIEW_RATIONALE.rationale, decision: 'accept' },
      },
      signer,
      { clock: () => Date.parse('2026-11-02T09:30:00Z'), fsync: false },
    );
    const files = [];
    for (const name of ['entries.jsonl', 'checkpoints.jsonl'])
      files.push({ name, bytes: await readFile(join(dir, name)) });
    return { files, anchor: { seq: r.seq, entryHash: r.entryHash }, signer };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const SPEC_PASS = `---
engine: TG-SCORE-TRUST
outputs:
  - comp.TG.OUTPUT.TRUST-SCORE.v1_0
  - comp.TG.OUTPUT.CONFIDENCE-SCORE.v1_0
  - comp.TG.OUTPUT.SCORE-EXPLANATION.v1_0
replay_profile:
  specification: TG-RP
  default: EXACT
  outputs:
    comp.TG.OUTPUT.TRUST-SCORE.v1_0: BANDED
    comp.TG.OUTPUT.CONFIDENCE-SCORE.v1_0: BANDED
    comp.TG.OUTPUT.SCORE-EXPLANATION.v1_0: EXACT
  policy_refs:
    epsilon: comp.FAGF.OUTPUT.WEIGHT-BUNDLE.v1_0
---

# TG-SCORE-TRUST

Aggregates the trust vector into the trust score (TG-RP §3.2).
`;

export const SPEC_FAIL = `---
engine: TG-ENRICH-CONTEXT
outputs:
  - comp.TG.OUTPUT.REGISTRY-LOOKUP.v1_0
  - comp.TG.OUTPUT.EXTERNAL-ENRICHMENT.v1_0
  - comp.TG.OUTPUT.ENRICHED-CLAIM.v1_0
  - comp.TG.OUTPUT.ENRICHED-CLAIM.v1_0
replay_profile:
  specification: TG-RP
  outputs:
    comp.TG.OUTPUT.REGISTRY-LOOKUP.v1_0: EXACT
    comp.TG.OUTPUT.EXTERNAL-ENRICHMENT.v1_0: SAMPLED
    comp.TG.OUTPUT.ENRICHED-CLAIM.v1_0: BANDED
    comp.TG.OUTPUT.UNLISTED.v1_0: EXACT
---

import { Table } from '../components';

# TG-ENRICH-CONTEXT

One output has an unknown mode, one is listed twice, a BANDED output has no
policy_refs.epsilon, and the profile names an output the engine does not list.
`;

export const tgWriter: ExampleWriter = {
  name: 'tg',
  async build(): Promise<ExampleFile[]> {
    const files: ExampleFile[] = [];
    const manifest = (
      path: string,
      m: Record<string, unknown>,
      note: string,
      expect: ExampleFile['expect'],
      options?: ExampleFile['options'],
    ) =>
      files.push({ path: `tg/${path}/manifest.json`, bytes: json(m), note, expect, ...(options ? { options } : {}) });

    manifest(
      'exact-intact',
      await buildScenario({ claimRef: 'claim:2026-11-0101', withA: false }),
      'All outputs EXACT (no AI dimension): every recomputation is hash-identical.',
      { verdict: 'pass', command: 'replay' },
    );
    manifest(
      'banded-within-epsilon',
      await buildScenario({ claimRef: 'claim:2026-11-0102', originalShape: NPU }),
      "A was produced on advisor.npu_v1/4/fp32; the replaying machine uses advisor.cpu_v1/1/fp32: low-bit compute-shape jitter, within the governed ε of --policy tg/bundle.json; the delta is recorded. Without --policy the ε is only the embedded bundle's, whose origin is not established: unavailable (RPR-TG-043).",
      { verdict: 'pass', command: 'replay' },
      { policy: 'tg/bundle.json' },
    );
    manifest(
      'banded-drift-not-material',
      await buildScenario({ claimRef: 'claim:2026-11-0103', recordedADelta: 0.05 }),
      'The recorded A is 0.05 above what the pinned model gives: beyond ε (0.03), REPLAY-DRIFT emitted, the exit does not change: calibration signal.',
      { verdict: 'fail', rule: 'RPR-TG-031', command: 'replay' },
    );
    manifest(
      'banded-drift-material',
      await buildScenario({ claimRef: 'claim:2026-11-0104', recordedADelta: 0.1, targetTrustScore: 0.805 }),
      'The recorded A is 0.1 above the replay and the trust score sits just above ACCEPT: with the replayed A the exit becomes ACCEPT_WITH_CONDITIONS, so the drift is decision-material and routes the claim to human review (with --journal DIR --key KEY it is anchored and a quarantine case opens).',
      { verdict: 'fail', rule: 'RPR-TG-031', command: 'replay' },
    );
    manifest(
      'exit-human-review',
      await buildScenario({ claimRef: 'claim:2026-11-0105', targetTrustScore: 0.55, data: WEAK_DATA }),
      'Intact, and the decision is HUMAN_REVIEW: replay passes and routes the claim to human review (a quarantine case with --journal DIR --key KEY).',
      { verdict: 'pass', rule: 'RPR-TG-042', command: 'replay' },
    );
    manifest(
      'missing-pin',
      await buildScenario({ claimRef: 'claim:2026-11-0106', mutate: (m) => void delete pinsOf(m, 'x3')['promptHash'] }),
      'The BANDED A record lacks its promptHash pin: invalid, replay fails.',
      { verdict: 'fail', rule: 'RPR-TG-015', command: 'replay' },
    );
    manifest(
      'epsilon-disagrees',
      await buildScenario({ claimRef: 'claim:2026-11-0108', mutate: (m) => void (pinsOf(m, 'x3')['epsilon'] = 0.05) }),
      'The A record carries ε = 0.05, the governed bundle says 0.03: fail.',
      { verdict: 'fail', rule: 'RPR-TG-016', command: 'replay' },
    );
    manifest(
      'scoring-before-policy',
      await buildScenario({
        claimRef: 'claim:2026-11-0109',
        mutate: (m) => {
          const ex = m['executions'] as unknown[];
          ex.push(ex.shift());
          const x1 = ex[ex.length - 1] as Record<string, unknown>;
          x1['inputs'] = [...(x1['inputs'] as string[])];
          for (const e of ex as Record<string, unknown>[])
            e['inputs'] = (e['inputs'] as string[]).filter((i) => i !== 'x1');
        },
      }),
      'TG-SCORE-TRUST runs before TG-POLICY-RESOLUTION in executions: fail (the governed ε arrives via POLICY-CONTEXT).',
      { verdict: 'fail', rule: 'RPR-TG-013', command: 'replay' },
    );
    const j = await exampleJournal();
    for (const f of j.files)
      files.push({
        path: `tg/journal/${f.name}`,
        bytes: f.bytes,
        note: 'Evidence journal holding the review rationale anchored at creation (verify with --trust-store tg/trust-store.json).',
      });
    files.push({
      path: 'tg/trust-store.json',
      bytes: json({
        type: 'reprise.trust-store/v1',
        keys: [trustStoreEntry(j.signer, 'reviewer', 'example TG reviewer (fixed key, examples only)')],
      }),
      note: 'Trust store for the example journal.',
    });
    manifest(
      'recorded-anchored',
      await buildScenario({
        claimRef: REVIEW_RATIONALE.claimRef,
        withA: false,
        recorded: { artifact: REVIEW_RATIONALE, anchor: j.anchor },
      }),
      'A RECORDED review rationale anchored in tg/journal at creation: replay with --journal tg/journal --trust-store tg/trust-store.json proves the anchor by inclusion proof and passes.',
      { verdict: 'pass', command: 'replay' },
      { journal: 'tg/journal', trustStore: 'tg/trust-store.json' },
    );
    manifest(
      'recorded-unanchored',
      await buildScenario({
        claimRef: 'claim:2026-11-0110',
        withA: false,
        recorded: { artifact: { ...REVIEW_RATIONALE, claimRef: 'claim:2026-11-0110' } },
      }),
      'A RECORDED review rationale without a creation-time anchor: fail, never presented as replayable.',
      { verdict: 'fail', rule: 'RPR-TG-020', command: 'replay' },
    );
    files.push({
      path: 'tg/bundle.json',
      bytes: json(EXAMPLE_BUNDLE),
      note: 'The policy bundle the scenarios embed (also usable with --policy).',
      expect: { verdict: 'pass', command: 'verify' },
    });
    files.push({
      path: 'tg/specs/tg-score-trust.md',
      bytes: SPEC_PASS,
      note: 'Engine specification that passes DL-104 (reprise lint).',
    });
    files.push({
      path: 'tg/specs/tg-enrich-context.mdx',
      bytes: SPEC_FAIL,
      note: 'Engine specification that fails DL-104 (reprise lint exits 1).',
    });
    return files;
  },
};

/**
 * ACGP examples (`reprise examples DIR` → `acgp/`): the seed's own EVAL (it must fail:
 * its dimensions give 0.8925, not the recorded 0.8915), its corrected twin, a clean trace
 * that crosses every trust-debt threshold and decays back, and tampered / relaxed /
 * private-provider / missing-timestamp traces. Deterministic: fixed seeds and timestamps.
 */
import { hashBytes } from '../../core/hash.js';
import { generateTrace, type Eval, type StepPlan } from './generate.js';
import type { Intervention } from './model.js';
import { parsePolicy } from './policy.js';
import type { ExampleFile, ExampleWriter } from '../types.js';

/** The EVAL example of seed 003 (ACGP Advanced Trust Debt), verbatim. */
export const SEED_EVAL = `{
    "trace_id": "trace-12345",
    "blueprint_id": "finance_qa@2.1",
    "governance_tier": "GT-2",
    "ctq_dimensions": {
        "reasoning_quality": {
            "score": 0.89,
            "weight": 0.25,
            "status": "evaluated",
            "contributors": ["rationale_clarity", "plan_completeness"]
        },
        "knowledge_grounding": {
            "score": 0.87,
            "weight": 0.20,
            "status": "evaluated",
            "contributors": ["citation_coverage"]
        },
        "ethical_alignment": {
            "score": 0.92,
            "weight": 0.20,
            "status": "evaluated",
            "contributors": ["fairness_review"]
        },
        "tool_safety": {
            "score": 0.90,
            "weight": 0.20,
            "status": "evaluated",
            "contributors": ["permission_check"]
        },
        "context_awareness": {
            "score": 0.88,
            "weight": 0.15,
            "status": "evaluated",
            "contributors": ["situational_fit"]
        }
    },
    "ctq_score": 0.8915,
    "risk_score": 0.1085,
    "tripwires_triggered": [],
    "intervention": "ok",
    "flagged": false,
    "runtime_posture": "normal",
    "review_required": false,
    "trust_debt": {
        "provider_id": "urn:acgp:ext:trust-debt-private@1",
        "pre": 1.2000,
        "delta": 0.0000,
        "post": 1.2000,
        "thresholds_crossed": []
    },
    "trust_debt_extended": {
        "provider": {
            "id": "urn:acgp:ext:trust-debt-private@1",
            "visibility": "private"
        },
        "attestation": {
            "digest": "sha256:...",
            "issued_by": "did:example:steward"
        }
    }
}
`;

export function correctedSeedEval(): string {
  return SEED_EVAL.replace('"ctq_score": 0.8915', '"ctq_score": 0.8925')
    .replace('"risk_score": 0.1085', '"risk_score": 0.1075')
    .replace(
      '"digest": "sha256:..."',
      `"digest": "${hashBytes('reprise example: attestation of urn:acgp:ext:trust-debt-private@1')}"`,
    );
}

/**
 * The clean trace: 36 EVALs. Debt builds from 0 with nudge, escalate, block (+flag) and a
 * tripwire halt 20 minutes apart (no whole period elapses, so no decay), crossing
 * elevated_monitoring (3), restricted_mode (6) and re_tiering_review (10); then ok EVALs
 * three hours apart decay it back (0.95^3 per step) below every threshold.
 */
export const CLEAN_PLAN: readonly [Intervention, number, boolean][] = [
  ['ok', 0, false],
  ['ok', 30, false],
  ['ok', 30, false],
  ['ok', 30, false],
  ['nudge', 20, false],
  ['escalate', 20, false],
  ['block', 20, false],
  ['block', 20, true],
  ['block', 20, false],
  ['halt', 20, false],
  ...Array.from({ length: 20 }, (): [Intervention, number, boolean] => ['ok', 180, false]),
  ['ok', 60, false],
  ['nudge', 60, false],
  ['ok', 60, false],
  ['nudge', 60, true],
  ['ok', 60, false],
  ['ok', 60, false],
];

export function cleanTrace(): Eval[] {
  return generateTrace({
    count: CLEAN_PLAN.length,
    seed: 36,
    traceId: 'trace-training-0036',
    plan: (i): StepPlan => {
      const [target, gapMinutes, flagged] = CLEAN_PLAN[i]!;
      return { target, gapMinutes, flagged };
    },
  });
}

const jsonl = (evals: Eval[]) => evals.map((e) => JSON.stringify(e)).join('\n') + '\n';
const pretty = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

/** A policy overriding every parameter of blueprint tight@1 (risk thresholds and trust debt). */
export const EXAMPLE_POLICY = {
  type: 'reprise.acgp-policy/v1',
  blueprints: {
    'tight@1': {
      risk_thresholds: { ok: 0.3, nudge: 0.45, escalate: 0.6 },
      trust_debt: {
        decay_fraction: 0.2,
        period_hours: 0.5,
        min_debt: 0.25,
        thresholds: { elevated_monitoring: 1, restricted_mode: 2.5, re_tiering_review: 4 },
      },
    },
  },
  tiers: { 'GT-3': { risk_thresholds: { ok: 0.35, nudge: 0.5, escalate: 0.55 } } },
};

/** The example traces: the clean one, its tampered copy, and one generated trace per point made. */
function exampleTraces() {
  const clean = cleanTrace();
  const tampered = clean.map((e) => structuredClone(e));
  const td = tampered[8]!['trust_debt'] as Record<string, number>;
  td['post'] = Number((td['post']! + 1).toFixed(4));
  const relaxed = generateTrace({
    count: 12,
    seed: 12,
    traceId: 'trace-relaxed-0012',
    plan: (i): StepPlan =>
      i === 6
        ? { target: 'block', gapMinutes: 45, force: 'nudge' }
        : { target: i % 3 === 0 ? 'nudge' : 'ok', gapMinutes: 45 },
  });
  const privateTrace = generateTrace({
    count: 12,
    seed: 99,
    traceId: 'trace-private-0012',
    private: true,
    startDebt: 1.2,
  });
  const missing = generateTrace({
    count: 10,
    seed: 10,
    traceId: 'trace-missing-ts-0010',
    plan: (i): StepPlan => ({ target: i % 4 === 1 ? 'escalate' : 'ok', gapMinutes: 90, noTimestamp: i === 5 }),
  });
  const overridden = generateTrace({
    count: 30,
    seed: 30,
    traceId: 'trace-tight-0030',
    blueprintId: 'tight@1',
    tier: 'GT-3',
    policy: parsePolicy(EXAMPLE_POLICY, 'acgp/policy.json'),
    plan: (i): StepPlan => ({
      target: i < 8 ? (['nudge', 'escalate', 'block', 'ok'] as const)[i % 4]! : i % 7 === 0 ? 'nudge' : 'ok',
      gapMinutes: i < 8 ? 10 : 50,
    }),
  });
  return { clean, tampered, relaxed, privateTrace, missing, overridden };
}

export const acgpWriter: ExampleWriter = {
  name: 'acgp',
  build(): ExampleFile[] {
    const { clean, tampered, relaxed, privateTrace, missing, overridden } = exampleTraces();
    return [
      {
        path: 'acgp/policy.json',
        bytes: pretty(EXAMPLE_POLICY),
        note: 'an ACGP policy (reprise.acgp-policy/v1) overriding every parameter of blueprint tight@1 and the thresholds of tier GT-3; pass it with --policy acgp/policy.json. It is an input, not an artifact: no kind claims it, so verifying this folder lists it RPR-KIND-001 (unknown), as it lists the trust stores and dumps/providers.json',
      },
      {
        path: 'acgp/trace-blueprint-override.jsonl',
        bytes: jsonl(overridden),
        note: 'a 30-EVAL trace of blueprint tight@1 (decay 0.2 per 30 min, min_debt 0.25, thresholds 1 / 2.5 / 4; risk thresholds the stricter of blueprint and tier GT-3): replay with --policy acgp/policy.json passes; without it, it fails',
        expect: { verdict: 'pass', command: 'replay' },
        options: { policy: 'acgp/policy.json' },
      },
      {
        path: 'acgp/seed-eval.json',
        bytes: SEED_EVAL,
        note: "the seed's own EVAL example, verbatim: its dimensions give ctq 0.8925 exactly, not the recorded 0.8915 (and its attestation digest is a placeholder); fails under verify and replay",
        expect: { verdict: 'fail', rule: 'RPR-ACGP-005', command: 'verify' },
      },
      {
        path: 'acgp/seed-eval-corrected.json',
        bytes: correctedSeedEval(),
        note: "the seed's EVAL with ctq 0.8925, risk 0.1075 and a well-formed attestation digest; its private provider's debt is RECORDED (the report says so)",
        expect: { verdict: 'pass', command: 'replay' },
      },
      {
        path: 'acgp/trace-clean.jsonl',
        bytes: jsonl(clean),
        note: 'a clean 36-EVAL trace (JSON Lines) of the default provider acgp.core.default@1 that crosses elevated_monitoring, restricted_mode and re_tiering_review and decays back; replay recomputes every pre, delta, post and crossing EXACT',
        expect: { verdict: 'pass', command: 'replay' },
      },
      {
        path: 'acgp/trace-tampered-post.jsonl',
        bytes: jsonl(tampered),
        note: 'the clean trace with EVAL 8 trust_debt.post raised by 1.0: replay shows recorded and replayed post side by side',
        expect: { verdict: 'fail', rule: 'RPR-ACGP-022', command: 'replay' },
      },
      {
        path: 'acgp/trace-relaxed-intervention.json',
        bytes: pretty(relaxed),
        note: 'a 12-EVAL trace (JSON array) whose EVAL 6 has risk above the escalate threshold but records nudge (its debt consistent with nudge): trust debt never relaxes an intervention',
        expect: { verdict: 'fail', rule: 'RPR-ACGP-007', command: 'verify' },
      },
      {
        path: 'acgp/trace-private-provider.json',
        bytes: pretty(privateTrace),
        note: 'a 12-EVAL trace of a private provider (visibility: private) with an attestation: its debt values are RECORDED and not recomputed; Reprise checks the descriptor, the digest form, post = pre + delta and interventions',
        expect: { verdict: 'pass', command: 'replay' },
      },
      {
        path: 'acgp/trace-missing-timestamp.jsonl',
        bytes: jsonl(missing),
        note: 'a 10-EVAL trace whose EVAL 5 has no timestamp: the decay of EVALs 5 and 6 cannot be computed, which is unavailable (never a guess)',
        expect: { verdict: 'unavailable', rule: 'RPR-ACGP-024', command: 'replay' },
      },
    ];
  },
};

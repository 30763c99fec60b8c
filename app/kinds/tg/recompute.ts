/**
 * Recomputation of one execution by its engine, from the values of its inputs (recorded
 * or replayed, as the caller chooses). Pure and synchronous: the provider-backed A
 * (CONFIDENCE-SCORE) is recomputed in replay.ts.
 */
import type { Bundle } from './bundle.js';
import {
  BUNDLE_TYPE,
  CLAIM_INPUTS_TYPE,
  CSI,
  DIMENSIONS,
  ENGINE,
  RULE_DIMENSIONS,
  RULESET_TYPE,
  type Dimension,
} from './constants.js';
import { isFiniteNumber, isObj, type Obj } from './structure.js';
import { claimIdInFinding } from '../../journal/claim-ids.js';
import { decide } from './engines/decision.js';
import type { RuleBudget, RuleLimitName } from './engines/metered-logic.js';
import { evaluateRuleset } from './engines/rule-evaluator.js';
import { scoreTrust, type TrustVector } from './engines/score-trust.js';
import type { Artifact, Execution } from './manifest.js';

export type Lookup = (executionId: string) => { have: true; value: unknown } | { have: false; why: string };

export interface RecomputeEnv {
  bundle: Bundle;
  bundleHash: string;
  artifacts: Record<string, Artifact>;
  byId: Map<string, Execution>;
  /** The artifact's rule budget: every JsonLogic evaluation of this replay draws from it. */
  ruleBudget: RuleBudget;
  /** The manifest's claim: the claim inputs every engine reads are this claim's. */
  claimRef: string;
}

/** ok; or a defect of the record (fail; `limit` when a rule ran out of its budget); or an engine Reprise cannot recompute (unavailable); or an input missing. */
export type Recomputed =
  { ok: true; value: unknown } | { ok: false; severity: 'fail' | 'unavailable'; reason: string; limit?: RuleLimitName };

const bad = (reason: string, limit?: RuleLimitName): Recomputed => ({
  ok: false,
  severity: 'fail',
  reason,
  ...(limit ? { limit } : {}),
});

function artifactOfType(
  e: Execution,
  env: RecomputeEnv,
  type: string,
): { ok: true; json: Obj } | { ok: false; reason: string } {
  const found = e.inputs.map((h) => env.artifacts[h]?.json).filter((j): j is Obj => isObj(j) && j['type'] === type);
  if (found.length !== 1)
    return { ok: false, reason: `${e.engine} needs exactly one input artifact of type ${type}, found ${found.length}` };
  return { ok: true, json: found[0]! };
}

/** A claim id quoted as every finding quotes one (RPR-QUAR-008); a value that is no string, as JSON. */
const claimNamed = (v: unknown): string => (typeof v === 'string' ? `"${claimIdInFinding(v)}"` : JSON.stringify(v));

/**
 * The claim's inputs an execution reads: the one claim-inputs artifact the manifest carries,
 * of the manifest's claim. Two would let the rule evaluator read one (a source 500 days old)
 * and the scoring another (10 days: the stale-source modifier dodged); another claim's would
 * score this claim on someone else's facts.
 */
function claimInputs(e: Execution, env: RecomputeEnv): { ok: true; json: Obj } | { ok: false; reason: string } {
  const all = Object.values(env.artifacts).filter((a) => isObj(a.json) && a.json['type'] === CLAIM_INPUTS_TYPE);
  if (all.length > 1)
    return { ok: false, reason: `the manifest carries ${all.length} ${CLAIM_INPUTS_TYPE} artifacts; a claim has one` };
  const ci = artifactOfType(e, env, CLAIM_INPUTS_TYPE);
  if (ci.ok && ci.json['claimRef'] !== env.claimRef)
    return {
      ok: false,
      reason: `the claim inputs ${e.executionId} reads are of ${claimNamed(ci.json['claimRef'])}, not of the manifest's claim ${claimNamed(env.claimRef)}`,
    };
  return ci;
}

function inputsWithOutput(e: Execution, env: RecomputeEnv, output: string): Execution[] {
  return e.inputs.map((i) => env.byId.get(i)).filter((x): x is Execution => x !== undefined && x.output === output);
}

function policyContext(env: RecomputeEnv): Recomputed {
  return {
    ok: true,
    value: {
      bundleHash: env.bundleHash,
      bundleId: env.bundle.bundleId,
      bundleRef: BUNDLE_TYPE,
      version: env.bundle.version,
    },
  };
}

function ruleEvaluator(e: Execution, env: RecomputeEnv): Recomputed {
  const rs = artifactOfType(e, env, RULESET_TYPE);
  if (!rs.ok) return bad(rs.reason);
  const ci = claimInputs(e, env);
  if (!ci.ok) return bad(ci.reason);
  if (!isObj(rs.json['rules'])) return bad('the ruleset artifact has no "rules" object');
  const r = evaluateRuleset(rs.json['rules'], ci.json['data'], env.ruleBudget);
  return r.ok ? r : bad(r.reason, r.limit);
}

/** The trust vector from the inputs: S..F from a TRUST-VECTOR execution, A from a CONFIDENCE-SCORE one (0 when none). */
export function vectorOf(
  e: Execution,
  env: RecomputeEnv,
  look: Lookup,
  overrideA?: { id: string; value: number },
): { ok: true; vector: TrustVector; claimData: unknown } | { ok: false; reason: string } {
  const vecs = inputsWithOutput(e, env, CSI.TRUST_VECTOR);
  if (vecs.length !== 1)
    return { ok: false, reason: `${e.executionId} needs exactly one ${CSI.TRUST_VECTOR} input, found ${vecs.length}` };
  const as = inputsWithOutput(e, env, CSI.CONFIDENCE_SCORE);
  if (as.length > 1)
    return {
      ok: false,
      reason: `${e.executionId} takes at most one ${CSI.CONFIDENCE_SCORE} input, found ${as.length}`,
    };
  const ci = claimInputs(e, env);
  if (!ci.ok) return ci;
  const v = look(vecs[0]!.executionId);
  if (!v.have) return { ok: false, reason: v.why };
  if (!isObj(v.value)) return { ok: false, reason: `the trust vector of ${vecs[0]!.executionId} is not an object` };
  const vector = {} as TrustVector;
  for (const d of RULE_DIMENSIONS) {
    const x = v.value[d];
    if (!isFiniteNumber(x) || x < 0 || x > 1)
      return { ok: false, reason: `dimension ${d} of ${vecs[0]!.executionId} is not a number from 0 to 1` };
    vector[d] = x;
  }
  const extra = Object.keys(v.value).filter((k) => !(DIMENSIONS as readonly string[]).includes(k));
  if (extra.length > 0)
    return {
      ok: false,
      reason: `the trust vector of ${vecs[0]!.executionId} has unknown dimensions ${extra.join(', ')}`,
    };
  const aExec = as[0];
  if (!aExec) vector.A = 0;
  else if (overrideA && overrideA.id === aExec.executionId) vector.A = overrideA.value;
  else {
    const a = look(aExec.executionId);
    if (!a.have) return { ok: false, reason: a.why };
    if (!isFiniteNumber(a.value) || a.value < 0 || a.value > 1)
      return { ok: false, reason: `A (${aExec.executionId}) is not a number from 0 to 1` };
    vector.A = a.value;
  }
  return { ok: true, vector: vector as Record<Dimension, number>, claimData: ci.json['data'] };
}

function scoring(
  e: Execution,
  env: RecomputeEnv,
  look: Lookup,
  what: 'score' | 'explanation',
  overrideA?: { id: string; value: number },
): Recomputed {
  const v = vectorOf(e, env, look, overrideA);
  if (!v.ok) return bad(v.reason);
  const s = scoreTrust(v.vector, v.claimData, env.bundle, env.ruleBudget);
  if (!s.ok) return bad(s.reason, s.limit);
  return { ok: true, value: what === 'score' ? s.trustScore : s.explanation };
}

function decision(e: Execution, env: RecomputeEnv, look: Lookup): Recomputed {
  const ts = inputsWithOutput(e, env, CSI.TRUST_SCORE);
  if (ts.length !== 1) return bad(`${e.executionId} needs exactly one ${CSI.TRUST_SCORE} input, found ${ts.length}`);
  const v = look(ts[0]!.executionId);
  if (!v.have) return bad(v.why);
  if (!isFiniteNumber(v.value)) return bad(`the trust score of ${ts[0]!.executionId} is not a number`);
  return { ok: true, value: decide(v.value, env.bundle.exits) };
}

/** Recomputes an EXACT output, or the arithmetic part of a BANDED TRUST-SCORE. */
export function recompute(
  e: Execution,
  env: RecomputeEnv,
  look: Lookup,
  overrideA?: { id: string; value: number },
): Recomputed {
  if (e.engine === ENGINE.POLICY_RESOLUTION && e.output === CSI.POLICY_CONTEXT) return policyContext(env);
  if (e.engine === ENGINE.RULE_EVALUATOR) return ruleEvaluator(e, env);
  if (e.engine === ENGINE.SCORE_TRUST && e.output === CSI.TRUST_SCORE) return scoring(e, env, look, 'score', overrideA);
  if (e.engine === ENGINE.SCORE_TRUST && e.output === CSI.SCORE_EXPLANATION)
    return scoring(e, env, look, 'explanation', overrideA);
  if (e.engine === ENGINE.DECISION && e.output === CSI.DECISION) return decision(e, env, look);
  return { ok: false, severity: 'unavailable', reason: `Reprise has no recomputation for ${e.engine} → ${e.output}` };
}

/** The exit a trust score execution leads to, with A replaced by a replayed value. */
export function exitWithA(
  trustScoreExec: Execution,
  env: RecomputeEnv,
  look: Lookup,
  a: { id: string; value: number },
): string | null {
  const r = scoring(trustScoreExec, env, look, 'score', a);
  return r.ok && typeof r.value === 'number' ? decide(r.value, env.bundle.exits) : null;
}

/**
 * TG-SCORE-TRUST: TRUST-SCORE = (Σ weight·value over S, I, Q, P, R, F, A, summed in that
 * order) × (Π factor of the modifiers whose `when` holds for the claim inputs, in bundle
 * order). SCORE-EXPLANATION is the per-dimension contributions, the applied modifiers
 * and the result, as canonical JSON. Plain IEEE doubles in a fixed order: the same
 * inputs give the same bits on every machine, so both outputs are EXACT given a vector.
 */
import { DIMENSIONS, type Dimension } from '../constants.js';
import type { Bundle } from '../bundle.js';
import type { RuleBudget, RuleLimitName } from './metered-logic.js';
import { truthy } from './rule-evaluator.js';

export type TrustVector = Record<Dimension, number>;

export interface Scored {
  trustScore: number;
  explanation: {
    contributions: Record<Dimension, number>;
    modifiers: { id: string; factor: number }[];
    product: number;
    trustScore: number;
  };
}

export type ScoreResult = ({ ok: true } & Scored) | { ok: false; reason: string; limit?: RuleLimitName };

export function scoreTrust(
  vector: TrustVector,
  claimData: unknown,
  bundle: Pick<Bundle, 'weights' | 'modifiers'>,
  budget: RuleBudget,
): ScoreResult {
  const contributions = {} as Record<Dimension, number>;
  let sum = 0;
  for (const d of DIMENSIONS) {
    const c = bundle.weights[d] * vector[d];
    contributions[d] = c;
    sum += c;
  }
  const applied: { id: string; factor: number }[] = [];
  let product = 1;
  for (const m of bundle.modifiers) {
    const t = truthy(m.when, claimData, budget);
    if (!t.ok) return { ...t, reason: `modifier "${m.id}": ${t.reason}` };
    if (t.value === true) {
      applied.push({ id: m.id, factor: m.factor });
      product *= m.factor;
    }
  }
  const trustScore = sum * product;
  return { ok: true, trustScore, explanation: { contributions, modifiers: applied, product, trustScore } };
}

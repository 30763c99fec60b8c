/**
 * The seed's TrustDebtProvider interface (accumulate, decay, apply_recovery) and the
 * default provider acgp.core.default@1 (acgp.md). The state is the exact decimal value,
 * never the rounded one that EVALs record.
 */
import {
  ACCUMULATION,
  D,
  DEBT_THRESHOLD_NAMES,
  DEFAULT_PROVIDER_ID,
  FLAG_ACCUMULATION,
  NS_PER_HOUR,
  ONE,
  ZERO,
  decayed,
  type DebtParams,
  type DebtThresholdName,
  type Dec,
  type Intervention,
} from './model.js';

export interface TrustDebtState {
  current_debt: Dec;
  /** Epoch nanoseconds of the last EVAL, null when it carried no timestamp. */
  last_eval_time: bigint | null;
  decay_model: 'linear' | 'exponential' | 'piecewise';
  recovery_credits: Dec;
}

export interface TrustDebtProvider {
  readonly id: string;
  /** New state after an intervention (`flagged` adds the flag's accumulation). */
  accumulate(current: TrustDebtState, decision: Intervention, flagged: boolean, severity?: string): TrustDebtState;
  /** Decay up to `evalTime`; null when a timestamp it needs is missing (never a guess). */
  decay(current: TrustDebtState, evalTime: bigint | null): { state: TrustDebtState; periods: Dec } | null;
  /** Recovery credits for sustained safe behaviour. */
  apply_recovery(current: TrustDebtState, safeEvaluations: number): TrustDebtState;
}

export class DefaultTrustDebtProvider implements TrustDebtProvider {
  readonly id = DEFAULT_PROVIDER_ID;
  private readonly periodNs: Dec;
  private readonly keep: Dec;
  constructor(readonly params: DebtParams) {
    this.periodNs = params.period_hours.times(NS_PER_HOUR);
    this.keep = ONE.minus(params.decay_fraction);
  }

  initial(debt: Dec, time: bigint | null): TrustDebtState {
    return { current_debt: debt, last_eval_time: time, decay_model: 'exponential', recovery_credits: ZERO };
  }

  accumulate(current: TrustDebtState, decision: Intervention, flagged: boolean): TrustDebtState {
    const add = flagged ? ACCUMULATION[decision].plus(FLAG_ACCUMULATION) : ACCUMULATION[decision];
    return { ...current, current_debt: current.current_debt.plus(add) };
  }

  /** decayed = max(min_debt, current × (1 − decay_fraction)^periods), periods = whole periods elapsed. */
  decay(current: TrustDebtState, evalTime: bigint | null): { state: TrustDebtState; periods: Dec } | null {
    if (current.last_eval_time === null || evalTime === null) return null;
    const elapsed = evalTime - current.last_eval_time;
    // The integer quotient alone (elapsed > 0, so truncation is floor): exact, and never a long
    // division to the full precision of D.
    const periods = elapsed <= 0n ? ZERO : new D(elapsed.toString()).divToInt(this.periodNs);
    let v = current.current_debt;
    if (!periods.isZero() && !v.isZero()) v = decayed(v, this.keep, periods);
    if (v.lt(this.params.min_debt)) v = this.params.min_debt;
    return { state: { ...current, current_debt: v, last_eval_time: evalTime }, periods };
  }

  /** No recovery formula exists upstream: decay is the only way down. Identity. */
  apply_recovery(current: TrustDebtState, _safeEvaluations: number): TrustDebtState {
    return current;
  }

  /** Thresholds t with pre < t <= post, in ascending order of value (then name). */
  crossed(pre: Dec, post: Dec): DebtThresholdName[] {
    return crossedThresholds(this.params, pre, post);
  }
}

export function crossedThresholds(params: DebtParams, pre: Dec, post: Dec): DebtThresholdName[] {
  return DEBT_THRESHOLD_NAMES.filter((n) => pre.lt(params.thresholds[n]) && params.thresholds[n].lte(post)).sort(
    (a, b) => params.thresholds[a].cmp(params.thresholds[b]) || (a < b ? -1 : a > b ? 1 : 0),
  );
}

/** One step of the default provider: decay (unless this is the anchor), recovery, accumulation. */
export interface Step {
  pre: Dec;
  delta: Dec;
  post: Dec;
  periods: Dec | null;
  crossed: DebtThresholdName[];
  state: TrustDebtState;
}

export function step(
  p: DefaultTrustDebtProvider,
  prev: TrustDebtState,
  evalTime: bigint | null,
  decision: Intervention,
  flagged: boolean,
  safe: number,
): Step | null {
  const d = p.decay(prev, evalTime);
  if (!d) return null;
  return accumulateFrom(p, p.apply_recovery(d.state, safe), decision, flagged, d.periods);
}

export function accumulateFrom(
  p: DefaultTrustDebtProvider,
  preState: TrustDebtState,
  decision: Intervention,
  flagged: boolean,
  periods: Dec | null,
): Step {
  const pre = preState.current_debt;
  const after = p.accumulate(preState, decision, flagged);
  const post = after.current_debt;
  return { pre, delta: post.minus(pre), post, periods, crossed: p.crossed(pre, post), state: after };
}

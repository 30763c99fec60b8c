/**
 * Drift telemetry: the drift rate of each model version over the governed window (the
 * last `driftRate.window` BANDED A replays of that version, in the order given: time order,
 * engine/drift.ts), and the model-recalibration flag when the rate exceeds
 * `driftRate.maxRate`. Window and limit come from the policy bundles of that version's
 * observations; when they disagree the strictest judges (see driftRates).
 */
import type { Finding } from '../../../shared/report.js';
import type { DriftObservation as TelemetryObservation, DriftRate as ModelDrift } from '../operations.js';

export type { DriftObservation as TelemetryObservation, DriftRate as ModelDrift } from '../operations.js';

/** The finding of a BANDED output that drifted: what telemetry counts, not a replay that failed. */
const DRIFT_RULE = 'RPR-TG-031';

/**
 * The rules of a replay's failures other than drift, each once. A replay with any (an EXACT
 * output that diverged, a tampered vector, a claim its outputs do not follow from) proves
 * nothing about its model's drift, so it contributes no observation: counted "not drifted",
 * copies of it would dilute the rate.
 */
export function failuresBesidesDrift(findings: readonly Finding[]): string[] {
  return [...new Set(findings.filter((f) => f.severity === 'fail' && f.rule !== DRIFT_RULE).map((f) => f.rule))];
}

/** A window and limit a bundle may govern (bundle.ts checkDriftRate): window a positive integer, maxRate in [0, 1]. */
export function isGovernedDriftRate(dr: { window: unknown; maxRate: unknown }): boolean {
  const { window, maxRate } = dr;
  return (
    Number.isSafeInteger(window) &&
    (window as number) >= 1 &&
    typeof maxRate === 'number' &&
    maxRate >= 0 &&
    maxRate <= 1
  );
}

/** The rate over the last `window` observations (at least one: the list is never empty). */
function overWindow(list: readonly TelemetryObservation[], window: number) {
  const recent = list.slice(-window);
  const drifted = recent.filter((o) => o.drift).length;
  return { window, inWindow: recent.length, drifted, rate: drifted / recent.length };
}

/**
 * One model version's rate. Observations of one version may carry different windows and
 * limits (a bundle changed, or an entry says otherwise): the last one does not decide, or one
 * record would set the rule it is judged by. The strictest does: the lowest limit, and of the
 * windows governed the one whose rate is highest (ties: the wider window, more evidence).
 */
function rateOf(model: string, list: readonly TelemetryObservation[]): ModelDrift {
  const maxRate = Math.min(...list.map((o) => o.driftRate.maxRate));
  const windows = [...new Set(list.map((o) => o.driftRate.window))].sort((a, b) => b - a);
  const worst = windows.map((w) => overWindow(list, w)).reduce((a, b) => (b.rate > a.rate ? b : a));
  return { model, observations: list.length, ...worst, maxRate, flag: worst.rate > maxRate };
}

/**
 * Rates per model version, sorted by model. An observation whose window or limit is out of
 * bounds is not counted (its reader refuses it with a finding; this keeps a rate from ever
 * being made of it, or NaN), and a version with nothing counted has no rate at all.
 */
export function driftRates(obs: readonly TelemetryObservation[]): ModelDrift[] {
  const byModel = new Map<string, TelemetryObservation[]>();
  for (const o of obs) {
    if (!isGovernedDriftRate(o.driftRate)) continue;
    const list = byModel.get(o.model) ?? [];
    list.push(o);
    byModel.set(o.model, list);
  }
  return [...byModel.keys()].sort().map((model) => rateOf(model, byModel.get(model)!));
}

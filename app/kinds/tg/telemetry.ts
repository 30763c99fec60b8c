/**
 * Drift telemetry: the drift rate of each model version over the governed window (the
 * last `driftRate.window` BANDED A replays of that version, in the order given: time order,
 * engine/drift.ts), and the model-recalibration flag when the rate exceeds
 * `driftRate.maxRate`. Window and limit come from the policy bundles of that version's
 * observations; when they disagree the strictest judges (see driftRates).
 */
import { exact, ExactDecimal } from './decimal.js';
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
 * Whether drifted / inWindow exceeds maxRate, exactly: drifted > maxRate × inWindow with
 * maxRate as the decimal it is written as (decimal.ts), as ε is compared: in
 * binary floating point 1 / 3 rounds to 0.3333333333333333, and so would not be above it.
 */
export function exceedsRate(drifted: number, inWindow: number, maxRate: number): boolean {
  return new ExactDecimal(drifted).gt(exact(maxRate).times(inWindow));
}

/** a.drifted / a.inWindow against b's, exactly (cross-multiplied counts: whole numbers, no division). */
const compareRates = (a: { drifted: number; inWindow: number }, b: { drifted: number; inWindow: number }): number =>
  Math.sign(a.drifted * b.inWindow - b.drifted * a.inWindow);

/**
 * One model version's rate. Observations of one version may carry different windows and
 * limits (a bundle changed, or an entry says otherwise): the last one does not decide, or one
 * record would set the rule it is judged by. The strictest does: the lowest limit, and of the
 * windows governed the one whose rate is highest (ties: the wider window, more evidence).
 */
function rateOf(model: string, list: readonly TelemetryObservation[]): ModelDrift {
  const maxRate = Math.min(...list.map((o) => o.driftRate.maxRate));
  const windows = [...new Set(list.map((o) => o.driftRate.window))].sort((a, b) => b - a);
  const worst = windows.map((w) => overWindow(list, w)).reduce((a, b) => (compareRates(b, a) > 0 ? b : a));
  return {
    model,
    observations: list.length,
    ...worst,
    maxRate,
    flag: exceedsRate(worst.drifted, worst.inWindow, maxRate),
  };
}

/** Runs of digits and of anything else: `m@v10` is `m@v`, `10`. */
const pieces = (s: string): string[] => s.match(/\d+|\D+/g) ?? [];

/** Two runs of digits by the number they write (any length: compared as text once leading zeros are gone). */
function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  return x.length !== y.length ? x.length - y.length : x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Model versions in natural order (`m@v2` before `m@v10`), runs of digits by value and the
 * rest by UTF-16 code units; names equal so (`v01`, `v1`) fall back to code units, so the
 * order is total and the same on every machine (no locale).
 */
export function compareModels(a: string, b: string): number {
  const pa = pieces(a);
  const pb = pieces(b);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const [x, y] = [pa[i]!, pb[i]!];
    const digits = /^\d/.test(x) && /^\d/.test(y);
    const c = digits ? compareDigits(x, y) : x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return c;
  }
  return pa.length - pb.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Rates per model version, in natural order (compareModels). An observation whose window or
 * limit is out of bounds is not counted (its reader refuses it with a finding; this keeps a
 * rate from ever being made of it, or NaN), and a version with nothing counted has no rate.
 */
export function driftRates(obs: readonly TelemetryObservation[]): ModelDrift[] {
  const byModel = new Map<string, TelemetryObservation[]>();
  for (const o of obs) {
    if (!isGovernedDriftRate(o.driftRate)) continue;
    const list = byModel.get(o.model) ?? [];
    list.push(o);
    byModel.set(o.model, list);
  }
  return [...byModel.keys()].sort(compareModels).map((model) => rateOf(model, byModel.get(model)!));
}

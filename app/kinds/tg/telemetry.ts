/**
 * Drift telemetry: the drift rate of each model version over the governed window (the
 * last `driftRate.window` BANDED A replays of that version, in order), and the
 * model-recalibration flag when the rate exceeds `driftRate.maxRate`. Window and limit
 * come from the policy bundle of the most recent observation of that version.
 */
import type { DriftObservation as TelemetryObservation, DriftRate as ModelDrift } from '../operations.js';

export type { DriftObservation as TelemetryObservation, DriftRate as ModelDrift } from '../operations.js';

export function driftRates(obs: readonly TelemetryObservation[]): ModelDrift[] {
  const byModel = new Map<string, TelemetryObservation[]>();
  for (const o of obs) {
    const list = byModel.get(o.model) ?? [];
    list.push(o);
    byModel.set(o.model, list);
  }
  return [...byModel.keys()].sort().map((model) => {
    const list = byModel.get(model)!;
    const { window, maxRate } = list[list.length - 1]!.driftRate;
    const recent = list.slice(-window);
    const drifted = recent.filter((o) => o.drift).length;
    const rate = drifted / recent.length;
    return {
      model,
      observations: list.length,
      window,
      inWindow: recent.length,
      drifted,
      rate,
      maxRate,
      flag: rate > maxRate,
    };
  });
}

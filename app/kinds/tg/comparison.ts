/**
 * The replay comparison artifact (comp.TG.OUTPUT.REPLAY-COMPARISON.v1_0): per output its
 * mode, original, replayed, delta, ε, pass/fail and reason, plus the manifest and bundle
 * hashes and the mode composition. Deterministic: no timestamps, so H(comparison) is a
 * stable reference for attestations and journal entries.
 */
import type { Comparison, JsonValue } from '../../../shared/report.js';
import { comparisonArtifact } from '../../attest/comparison.js';
import { MODES, type Mode } from './constants.js';
import type { Manifest } from './manifest.js';

export function modeComposition(m: Pick<Manifest, 'executions'>): Record<Mode, number> {
  const c = Object.fromEntries(MODES.map((x) => [x, 0])) as Record<Mode, number>;
  for (const e of m.executions) c[e.replayMode]++;
  return c;
}

export function buildComparisonArtifact(
  m: Manifest,
  manifestHash: string,
  bundleHash: string,
  rows: Comparison[],
): Record<string, JsonValue> {
  const outputs: JsonValue[] = rows.map((r, i) => ({
    executionId: m.executions[i]?.executionId ?? null,
    output: r.output,
    mode: r.mode,
    original: r.original,
    replayed: r.replayed,
    delta: r.delta ?? null,
    epsilon: r.epsilon ?? null,
    status: r.status,
    reason: r.reason ?? '',
  }));
  return comparisonArtifact({
    claimRef: m.claimRef,
    manifestHash,
    policyContext: { bundleRef: m.policyContext.bundleRef, bundleHash },
    modeComposition: modeComposition(m),
    outputs,
  });
}

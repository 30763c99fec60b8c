/**
 * The replay comparison artifact's envelope (comp.TG.OUTPUT.REPLAY-COMPARISON.v1_0): what
 * H(comparison) is taken over. One definition for the TG replay that writes it
 * (app/kinds/tg/comparison.ts) and the attestation verifier that rebuilds it from a
 * statement's predicate (verify.ts): a second spelling of its members or of its verdict
 * would let the two drift apart, and a genuine attestation fail, or a forged one pass.
 */
import type { JsonValue, Verdict } from '../../shared/report.js';

export const COMPARISON_TYPE = 'comp.TG.OUTPUT.REPLAY-COMPARISON.v1_0';

/** The comparison's verdict over its rows' statuses: pass when every row passed, fail when one failed, else unavailable. */
export function rowsVerdict(statuses: readonly unknown[]): Verdict {
  return statuses.every((s) => s === 'pass') ? 'pass' : statuses.some((s) => s === 'fail') ? 'fail' : 'unavailable';
}

export interface ComparisonParts {
  claimRef: JsonValue;
  manifestHash: JsonValue;
  policyContext: { bundleRef: JsonValue; bundleHash: JsonValue };
  modeComposition: JsonValue;
  /** One row per execution, each with its `status`. */
  outputs: JsonValue[];
}

/** The artifact, its verdict taken from its rows. */
export function comparisonArtifact(c: ComparisonParts): Record<string, JsonValue> {
  const statuses = c.outputs.map((r) =>
    r !== null && typeof r === 'object' && !Array.isArray(r) ? r['status'] : undefined,
  );
  return {
    type: COMPARISON_TYPE,
    claimRef: c.claimRef,
    manifestHash: c.manifestHash,
    policyContext: c.policyContext,
    modeComposition: c.modeComposition,
    outputs: c.outputs,
    verdict: rowsVerdict(statuses),
  };
}

/** What an execution record gives a row, before anything is replayed: the writer's and the verifier's one reading of it. */
export interface RecordedExecution {
  executionId?: unknown;
  output?: unknown;
  replayMode?: unknown;
  value?: unknown;
  artifactHash?: unknown;
}

/**
 * A row's `original`: a RECORDED output's artifact hash (its value is the anchored artifact),
 * else the recorded value. The replay writes it so (app/kinds/tg/replay.ts) and `attest
 * --verify --manifest` derives it so from the manifest: a statement's `original` that the
 * manifest does not record is not the replay of that manifest.
 */
export function originalOf(e: RecordedExecution): JsonValue {
  return ((e.replayMode === 'RECORDED' ? e.artifactHash : e.value) ?? null) as JsonValue;
}

/**
 * The attestation: an in-toto Statement v1 whose subject is the replay manifest and whose
 * predicate discloses the replay mode composition, the governed tolerance-policy
 * reference (whenever a BANDED output is present), every output's comparison, and which
 * RECORDED outputs are replayable (anchored at creation) and which are not. No
 * timestamps: the same replay signed by the same key gives the same bytes.
 */
import type { Comparison, JsonValue, Verdict } from '../../shared/report.js';
import { sha256Hex } from '../core/hash.js';
import type { Bundle } from '../kinds/tg/bundle.js';
import type { Manifest } from '../kinds/tg/manifest.js';
import { VERSION } from '../version.js';

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const PREDICATE_TYPE = 'https://reprise.dev/attestations/tg-replay/v1';

export interface StatementInput {
  manifestBytes: Uint8Array;
  manifest: Manifest;
  manifestHash: string;
  bundle: Bundle;
  bundleHash: string;
  comparison: Record<string, JsonValue>;
  comparisonHash: string;
  comparisons: Comparison[];
  verdict: Verdict;
  reviewer: string;
}

export function buildStatement(i: StatementInput): Record<string, JsonValue> {
  const composition = i.comparison['modeComposition'] as Record<string, number>;
  const banded = (composition['BANDED'] ?? 0) > 0;
  const recorded = i.manifest.executions
    .map((e, idx) => ({ e, row: i.comparisons[idx] }))
    .filter((x) => x.e.replayMode === 'RECORDED')
    .map((x) => ({ executionId: x.e.executionId, output: x.e.output, artifactHash: x.e.artifactHash ?? null, anchor: (x.e.anchor ?? null) as JsonValue, replayable: x.row?.status === 'pass' }));
  return {
    _type: STATEMENT_TYPE,
    subject: [{ name: i.manifest.claimRef, digest: { sha256: sha256Hex(i.manifestBytes) } }],
    predicateType: PREDICATE_TYPE,
    predicate: {
      claimRef: i.manifest.claimRef,
      manifestHash: i.manifestHash,
      verdict: i.verdict,
      modeComposition: composition,
      tolerancePolicy: banded
        ? { bundleRef: i.manifest.policyContext.bundleRef, bundleHash: i.bundleHash, bundleId: i.bundle.bundleId, version: i.bundle.version, epsilon: i.bundle.epsilon }
        : null,
      comparison: { hash: i.comparisonHash, outputs: i.comparison['outputs'] ?? [] },
      recordedOutputs: recorded,
      reviewer: i.reviewer,
      tool: { name: 'reprise', version: VERSION },
    },
  };
}

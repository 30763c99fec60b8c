/**
 * The attestation of a TG replay (KindOperations.attest): replay the manifest read-only (no
 * journal writes) and state the outcome as an in-toto Statement v1. The statement discloses
 * the replay mode composition, the governed tolerance-policy reference (whenever a BANDED
 * output is present), every output's comparison, and which RECORDED outputs are replayable
 * (anchored at creation) and which are not. No timestamps: the same replay stated for the
 * same reviewer gives the same bytes. The engine signs it (app/engine/attest.ts).
 */
import type { Comparison, JsonValue, Verdict } from '../../../shared/report.js';
import { verdictOf } from '../../../shared/report.js';
import { PREDICATE_TYPE, recordedEntry, STATEMENT_TYPE } from '../../attest/statement.js';
import { hashValue, sha256Hex } from '../../core/hash.js';
import { VERSION } from '../../version.js';
import type { AttestOutcome } from '../operations.js';
import type { Sniffed } from '../sniff.js';
import type { KindContext } from '../types.js';
import type { Bundle } from './bundle.js';
import type { Manifest } from './manifest.js';
import { replayManifestFull } from './replay.js';

/** The statement of the manifest's read-only replay, or the findings that kept it from being replayed. */
export async function attestReplay(s: Sniffed, ctx: KindContext, reviewer: string): Promise<AttestOutcome> {
  const outcome = await replayManifestFull(s, ctx, { anchor: false });
  const verdict = verdictOf(outcome.result.findings);
  if (!outcome.comparison || !outcome.manifest || !outcome.bundle || !outcome.manifestHash)
    return { statement: null, verdict, findings: outcome.result.findings };
  const statement = buildStatement({
    manifestBytes: s.bytes,
    manifest: outcome.manifest,
    manifestHash: outcome.manifestHash,
    bundle: outcome.bundle,
    bundleHash: (outcome.comparison['policyContext'] as { bundleHash: string }).bundleHash,
    comparison: outcome.comparison,
    comparisonHash: hashValue(outcome.comparison),
    comparisons: outcome.result.comparisons ?? [],
    verdict,
    reviewer,
  });
  return { statement, verdict };
}

interface StatementInput {
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

function buildStatement(i: StatementInput): Record<string, JsonValue> {
  const composition = i.comparison['modeComposition'] as Record<string, number>;
  const banded = (composition['BANDED'] ?? 0) > 0;
  const recorded = i.manifest.executions
    .map((e, idx) => ({ e, row: i.comparisons[idx] }))
    .filter((x) => x.e.replayMode === 'RECORDED')
    // Replayable only when the anchor the manifest records verified (TG-RP §6): a row that
    // passed without one would be a defect of the replay, never presented as replayable.
    .map((x) => ({ ...recordedEntry(x.e), replayable: x.row?.status === 'pass' && x.e.anchor !== undefined }));
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
        ? {
            bundleRef: i.manifest.policyContext.bundleRef,
            bundleHash: i.bundleHash,
            bundleId: i.bundle.bundleId,
            version: i.bundle.version,
            epsilon: i.bundle.epsilon,
          }
        : null,
      comparison: { hash: i.comparisonHash, outputs: i.comparison['outputs'] ?? [] },
      recordedOutputs: recorded,
      reviewer: i.reviewer,
      tool: { name: 'reprise', version: VERSION },
    },
  };
}

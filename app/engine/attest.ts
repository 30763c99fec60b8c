/**
 * Attestation of a TG replay, as one engine operation that `reprise attest` and the
 * workbench host both call: replay the manifest read-only (no journal writes), build an
 * in-toto Statement v1 over the outcome, and sign it in a DSSE envelope with the reviewer's
 * key. The statement discloses the replay mode composition, the governed tolerance-policy
 * reference (whenever a BANDED output is present), every output's comparison, and which
 * RECORDED outputs are replayable (anchored at creation) and which are not. No
 * timestamps: the same replay signed by the same key gives the same bytes.
 */
import type { Comparison, Finding, JsonValue, Verdict } from '../../shared/report.js';
import { verdictOf } from '../../shared/report.js';
import { IN_TOTO_PAYLOAD_TYPE, signEnvelope } from '../attest/dsse.js';
import { PREDICATE_TYPE, STATEMENT_TYPE } from '../attest/statement.js';
import { verifyAttestation } from '../attest/verify.js';
import { UsageError } from '../core/errors.js';
import { MAX_WHOLE_FILE_BYTES, readFailure, readRegularFile } from '../core/files.js';
import { fail } from '../core/findings.js';
import { hashValue, sha256Hex } from '../core/hash.js';
import { canonicalizeValue } from '../core/jcs.js';
import { loadSigner, type TrustStore } from '../core/keys.js';
import { Sniffed } from '../kinds/sniff.js';
import type { Bundle } from '../kinds/tg/bundle.js';
import { tgManifestKind } from '../kinds/tg/declare.js';
import type { Manifest } from '../kinds/tg/manifest.js';
import { replayManifestFull } from '../kinds/tg/replay.js';
import type { EngineOptions } from '../kinds/types.js';
import { VERSION } from '../version.js';
import { makeContext } from './run.js';

/** What attesting a manifest gave: the envelope, or the findings that kept it from being replayed. */
export type Attestation =
  | { attested: true; /** The envelope file's text: canonical JSON and a newline. */ envelope: string; keyId: string; verdict: Verdict }
  | { attested: false; verdict: Verdict; findings: Finding[] };

/**
 * Attests the TG replay manifest at `path` with the key in `keyFile`. Throws UsageError
 * when the file cannot be read or is no TG manifest, and KeyError when the key cannot be
 * read; a manifest that cannot be replayed is an answer, not an error. `options` is
 * asked for only after the manifest and the key were found good, so that the first
 * complaint a user sees is about what they attest, then about the files it is replayed with.
 */
export async function attestManifest(path: string, keyFile: string, options: () => EngineOptions): Promise<Attestation> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path, MAX_WHOLE_FILE_BYTES);
  } catch (e) {
    throw new UsageError(`cannot read manifest ${path}: ${readFailure(e)}`, 'path');
  }
  const s = new Sniffed(path, bytes);
  if (!tgManifestKind.detect(s)) throw new UsageError(`${path} is not a TG replay manifest (comp.TG.OUTPUT.REPLAY-MANIFEST.v1_0)`, 'refused');
  const signer = await loadSigner(keyFile);
  const outcome = await replayManifestFull(s, makeContext(path, options()), { anchor: false });
  const verdict = verdictOf(outcome.result.findings);
  if (!outcome.comparison || !outcome.manifest || !outcome.bundle || !outcome.manifestHash) return { attested: false, verdict, findings: outcome.result.findings };
  const statement = buildStatement({
    manifestBytes: bytes,
    manifest: outcome.manifest,
    manifestHash: outcome.manifestHash,
    bundle: outcome.bundle,
    bundleHash: (outcome.comparison['policyContext'] as { bundleHash: string }).bundleHash,
    comparison: outcome.comparison,
    comparisonHash: hashValue(outcome.comparison),
    comparisons: outcome.result.comparisons ?? [],
    verdict,
    reviewer: signer.keyId,
  });
  const envelope = signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(canonicalizeValue(statement), 'utf8'), signer);
  return { attested: true, envelope: canonicalizeValue(envelope) + '\n', keyId: signer.keyId, verdict };
}

/**
 * The check of an exported attestation, and with `manifest` that it is about those bytes
 * (read only when the envelope holds a statement to compare them with).
 */
export interface AttestationVerdict {
  verdict: Verdict;
  keyId: string | null;
  findings: Finding[];
  statement: Record<string, unknown> | null;
}

export async function checkAttestation(envelope: Uint8Array, trust: TrustStore | null, manifest?: () => Promise<Uint8Array>): Promise<AttestationVerdict> {
  const check = verifyAttestation(envelope, trust);
  if (manifest && check.statement) {
    const want = sha256Hex(await manifest());
    const subj = (check.statement['subject'] as { digest?: { sha256?: string } }[] | undefined)?.[0]?.digest?.sha256;
    if (subj !== want) check.findings.push(fail('RPR-ATTEST-009', 'the attestation is not about this manifest', { pointer: '/subject/0/digest/sha256', expected: want, actual: subj ?? null }));
  }
  return { verdict: verdictOf(check.findings), keyId: check.keyId, findings: check.findings, statement: check.statement };
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

/**
 * Attestation of a replay, as one engine operation that `reprise attest` and the workbench
 * host both call: the kind that offers it (KindOperations.attest: a TG replay manifest)
 * replays the artifact read-only and states the outcome as an in-toto Statement v1, which
 * is signed here in a DSSE envelope with the reviewer's key.
 */
import type { Finding, Verdict } from '../../shared/report.js';
import { verdictOf } from '../../shared/report.js';
import { IN_TOTO_PAYLOAD_TYPE, signEnvelope } from '../attest/dsse.js';
import { attestationSignerProblems, checkManifestTies, verifyAttestation } from '../attest/verify.js';
import { UsageError } from '../core/errors.js';
import { MAX_WHOLE_FILE_BYTES, readFailure, readRegularFile } from '../core/files.js';
import { isPlainObject } from '../core/closed.js';
import { fail, unavailable } from '../core/findings.js';
import { canonicalizeValue } from '../core/jcs.js';
import { loadSigner, loadTrustStore, type TrustStore } from '../core/keys.js';
import { Sniffed } from '../kinds/sniff.js';
import type { EngineOptions } from '../kinds/types.js';
import { operationFor } from './operations.js';
import { makeContext } from './run.js';

/** What attesting a manifest gave: the envelope, or the findings that kept it from being replayed. */
export type Attestation =
  | {
      attested: true;
      /** The envelope file's text: canonical JSON and a newline. */ envelope: string;
      keyId: string;
      verdict: Verdict;
    }
  | { attested: false; verdict: Verdict; findings: Finding[] };

/**
 * Attests the artifact (a TG replay manifest) at `path` with the key in `keyFile`. Throws
 * UsageError when the file cannot be read or no kind attests it, and KeyError when the key
 * cannot be read; an artifact that cannot be replayed is an answer, not an error. `options`
 * is asked for only after the artifact and the key were found good, so that the first
 * complaint a user sees is about what they attest, then about the files it is replayed with.
 */
export async function attestManifest(
  path: string,
  keyFile: string,
  options: () => EngineOptions,
): Promise<Attestation> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path, MAX_WHOLE_FILE_BYTES);
  } catch (e) {
    throw new UsageError(`cannot read manifest ${path}: ${readFailure(e)}`, 'path');
  }
  const s = new Sniffed(path, bytes);
  const attest = await operationFor('attest', s);
  const signer = await loadSigner(keyFile);
  const opts = options();
  await refuseSigner(signer.keyId, opts.trustStore);
  const outcome = await attest(s, makeContext(path, opts), signer.keyId);
  if (outcome.statement === null) return { attested: false, verdict: outcome.verdict, findings: outcome.findings };
  const envelope = signEnvelope(
    IN_TOTO_PAYLOAD_TYPE,
    Buffer.from(canonicalizeValue(outcome.statement), 'utf8'),
    signer,
  );
  return {
    attested: true,
    envelope: canonicalizeValue(envelope) + '\n',
    keyId: signer.keyId,
    verdict: outcome.verdict,
  };
}

/**
 * Refuses, before anything is replayed or signed, a key the trust store given says cannot
 * sign an attestation (revoked, or not a reviewer's): a verifier holding that store would
 * fail the envelope (RPR-ATTEST-005). A key the store does not list is signed with; its
 * verifier says it is unknown (RPR-ATTEST-004).
 */
async function refuseSigner(keyId: string, trustStore: string | undefined): Promise<void> {
  if (trustStore === undefined) return;
  const k = (await loadTrustStore(trustStore)).get(keyId);
  const problems = k ? attestationSignerProblems(k) : [];
  if (problems.length > 0)
    throw new UsageError(`${problems.map((p) => p.message).join('; ')}: nothing was signed (--key)`, 'refused');
}

/**
 * The check of an exported attestation, and with `manifest` that it is about those bytes:
 * its subject digest, manifestHash, claim, rows and bundle (the manifest is read first, so an
 * unreadable one is an error whatever the envelope holds).
 */
export interface AttestationVerdict {
  verdict: Verdict;
  keyId: string | null;
  /** Whether the signature verified with that key of the trust store (else the key id is only claimed). */
  signatureVerified: boolean;
  findings: Finding[];
  statement: Record<string, unknown> | null;
}

export async function checkAttestation(
  envelope: Uint8Array,
  trust: TrustStore | null,
  manifest?: () => Promise<Uint8Array>,
): Promise<AttestationVerdict> {
  // Read first: an unreadable --manifest is an error (exit 3) whatever the envelope holds.
  const manifestBytes = manifest ? await manifest() : null;
  const check = verifyAttestation(envelope, trust);
  if (!manifestBytes)
    check.findings.push(
      unavailable(
        'RPR-ATTEST-009',
        'no manifest given (--manifest): nothing ties the statement to the bytes it names, so what it attests is not decided',
        { pointer: '/subject/0/digest/sha256', expected: 'the SHA-256 of the manifest given', actual: null },
      ),
    );
  if (check.statement) check.findings.push(...attestedVerdict(check.statement));
  // The statement's own hashes and claim against the manifest's bytes (RPR-ATTEST-009, -011).
  if (manifestBytes && check.statement) check.findings.push(...checkManifestTies(check.statement, manifestBytes));
  return {
    verdict: verdictOf(check.findings),
    keyId: check.keyId,
    signatureVerified: check.signatureVerified,
    findings: check.findings,
    statement: check.statement,
  };
}

/**
 * The replay's verdict as the statement gives it: the check of an attestation is never PASS
 * over a replay that failed or was not decided (as an exported report's, RPR-RPT-006), or a
 * "PASS … signed by a trusted key" would read as a replay that passed.
 */
function attestedVerdict(st: Record<string, unknown>): Finding[] {
  const v = isPlainObject(st['predicate']) ? st['predicate']['verdict'] : undefined;
  if (v !== 'fail' && v !== 'unavailable') return [];
  return [
    (v === 'fail' ? fail : unavailable)(
      'RPR-ATTEST-010',
      `the attested replay's verdict is ${v.toUpperCase()}: this attestation states a replay that did not pass`,
      { pointer: '/predicate/verdict', expected: 'pass', actual: v },
    ),
  ];
}

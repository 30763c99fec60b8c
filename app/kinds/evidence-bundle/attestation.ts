/**
 * The attestation a bundle of a TG replay carries (docs/evidence-bundle.md): one check for
 * the verifier and for the export, which refuses what its verifier would not pass. It is
 * `reprise attest --verify`'s check of the envelope (app/attest/verify.ts), every finding
 * kept at its severity, plus that the statement is about the bundle's artifact: a finding
 * dropped here would let a bundle pass over an attestation `attest --verify` refuses.
 */
import type { Authenticity, Finding } from '../../../shared/report.js';
import { verifyAttestation, type AttestationCheck } from '../../attest/verify.js';
import { authenticity } from '../../core/authenticity.js';
import { findingsOn } from '../../core/findings.js';
import type { TrustStore } from '../../core/keys.js';
import { MEMBER } from './format.js';
import { EVIDENCE_BUNDLE_RULES } from './rule-ids.js';

const { fail } = findingsOn(EVIDENCE_BUNDLE_RULES);
const RULE = 'RPR-EVB-013';
const AT = `entry:${MEMBER.attestation}`;
const WHAT = "the bundle's attestation";

export interface BundleAttestation {
  /** RPR-EVB-013 findings, each naming the attestation rule it wraps. */
  findings: Finding[];
  /** The key whose signature verified under the trust store, else null. */
  signer: string | null;
  /** The origin when the attestation does not verify (never "Trusted signer" over it); null when it does. */
  refused: Authenticity | null;
}

/** The attestation in `bytes` checked under `trust`, and against the artifact (`sha256:…`) its bundle is of. */
export function checkBundleAttestation(
  bytes: Uint8Array,
  trust: TrustStore | null,
  artifact: string,
): BundleAttestation {
  const a = verifyAttestation(bytes, trust);
  const findings = a.findings.map((f): Finding => ({
    ...f,
    rule: RULE,
    message: `${MEMBER.attestation}: ${f.message} (${f.rule})`,
    pointer: AT,
  }));
  const subject = (a.statement?.['subject'] as { digest?: { sha256?: string } }[] | undefined)?.[0]?.digest?.sha256;
  if (a.statement && subject !== artifact.slice('sha256:'.length))
    findings.push(
      fail(RULE, 'the attestation is not about this artifact', {
        pointer: AT,
        expected: artifact.slice('sha256:'.length),
        actual: subject ?? null,
      }),
    );
  return {
    findings,
    signer: a.signatureVerified ? a.keyId : null,
    refused: refusedOrigin(a, findings, trust),
  };
}

/**
 * What an attestation that does not verify leaves of the origin: what its signer is to the
 * trust store (not in it, revoked, its signature not verifying, of another role than a
 * reviewer's), else consistency only (an envelope that is no attestation of this artifact,
 * whoever signed it). Without a trust store the checkpoint's "Unknown signer" stands.
 */
function refusedOrigin(
  a: AttestationCheck,
  findings: readonly Finding[],
  trust: TrustStore | null,
): Authenticity | null {
  const first = findings.find((f) => f.severity === 'fail' || f.severity === 'unavailable');
  if (!first || !trust) return null;
  return (
    (a.keyId === null ? null : signerOrigin(a.keyId, a.signatureVerified, trust)) ??
    authenticity.consistencyOnly(`${WHAT} does not verify: ${first.message}`)
  );
}

/** The origin the attestation's signer leaves, as `attest --verify` finds it; null for a reviewer whose signature verified. */
function signerOrigin(keyId: string, verified: boolean, trust: TrustStore): Authenticity | null {
  const key = trust.get(keyId);
  if (!key) return authenticity.unknown(WHAT, keyId);
  if (key.status === 'revoked') return authenticity.revoked(WHAT, keyId);
  if (!verified) return authenticity.badSignature(WHAT, keyId);
  if (key.role !== 'reviewer')
    return authenticity.untrusted(
      WHAT,
      keyId,
      `that key is a ${key.role} key in the trust store, and only a reviewer's key signs an attestation (RPR-ATTEST-005)`,
    );
  return null;
}

/** A replay dump's origin statement, from its own rules (RDS-F001, RDS-007, RDS-001). */
import type { Authenticity, ChainNode, Finding } from '../../../shared/report.js';
import { authenticity } from '../../core/authenticity.js';

/**
 * A replay dump's authenticity from its chain's `signature` and `trust` nodes (recorded:
 * the dump's keyId; recomputed: the key that verified it, or the decision) and its
 * RDS-F001 finding at /signature (a malformed or non-verifying signature).
 */
export function dumpAuthenticity(chain: readonly ChainNode[], findings: readonly Finding[]): Authenticity {
  const what = 'the dump';
  const sig = chain.find((n) => n.id === 'signature');
  if (!sig) return authenticity.consistencyOnly('the dump could not be read far enough to check its signature.');
  const keyId = sig.recorded;
  const badSig = findings.some((f) => f.rule === 'RDS-F001' && f.severity === 'fail' && f.pointer === '/signature');
  if (sig.status === 'mismatch' || badSig) return authenticity.badSignature(what, keyId);
  if (!keyId) {
    // Unsigned only when there is no signature: one whose key id is missing or malformed
    // is a signature that could not be checked, not an unsigned dump.
    const keyIdProblem = findings.some((f) => f.severity === 'fail' && f.pointer === '/keyId');
    const noSignature = findings.some((f) => f.rule === 'RDS-001' && f.pointer === '/signature');
    if (keyIdProblem && !noSignature)
      return authenticity.consistencyOnly(
        'the dump carries a signature, but its signing key id is missing or malformed (see /keyId), so the signature could not be checked.',
      );
    return authenticity.unsigned(what);
  }
  if (sig.status === 'match') {
    const trust = chain.find((n) => n.id === 'trust');
    if (trust?.recomputed === 'revoked') return authenticity.revoked(what, keyId);
    const retired = findings.some((f) => f.rule === 'RDS-007' && f.severity === 'warning' && f.pointer === '/keyId');
    return authenticity.trusted(what, keyId, retired);
  }
  const noStore = findings.some(
    (f) => f.rule === 'RDS-007' && f.severity === 'unavailable' && f.expected === undefined,
  );
  return noStore ? authenticity.noTrustStore(what, keyId) : authenticity.unknown(what, keyId);
}

/**
 * The report's authenticity statement (`report.authenticity`): who made the artifact, as
 * far as the engine established it. Kinds with a notion of origin set it in their
 * KindResult through the constructors below (one wording everywhere); `authenticityOf`
 * derives it for kinds that do not (yet) set it themselves, from their own findings,
 * chain and details, and states "consistency only" for every other known kind.
 */
import type { ArtifactKind, Authenticity, ChainNode, Finding, JsonValue } from '../../shared/report.js';
import type { TrustStore } from './keys.js';
import type { KindResult } from './report.js';

const withKey = (a: Authenticity, keyId: string | null | undefined): Authenticity => (keyId ? { status: a.status, keyId, statement: a.statement } : a);

export const authenticity = {
  trusted: (what: string, keyId: string, retired = false): Authenticity =>
    withKey({ status: 'trusted-signer', statement: `Trusted signer: ${what} verifies under ${keyId}, a key in the trust store${retired ? ' (retired, still trusted for what it signed)' : ''}.` }, keyId),
  noTrustStore: (what: string, keyId: string): Authenticity =>
    withKey({ status: 'unknown-signer', statement: `Unknown signer: ${what} is signed by ${keyId}, but no trust store was given, so the signer cannot be decided.` }, keyId),
  unknown: (what: string, keyId: string): Authenticity =>
    withKey({ status: 'unknown-signer', statement: `Unknown signer: ${what} is signed by ${keyId}, a key that is not in the trust store.` }, keyId),
  untrusted: (what: string, keyId: string, why: string): Authenticity =>
    withKey({ status: 'untrusted-signer', statement: `Untrusted signer: ${what} is signed by ${keyId}, but ${why}.` }, keyId),
  revoked: (what: string, keyId: string): Authenticity =>
    withKey({ status: 'revoked-signer', statement: `Revoked signer: ${what} is signed by ${keyId}, a key the trust store revokes.` }, keyId),
  badSignature: (what: string, keyId: string | null): Authenticity =>
    withKey({ status: 'bad-signature', statement: `Signature not accepted: ${what}'s signature${keyId ? ` by ${keyId}` : ''} does not verify, so its origin is not established.` }, keyId),
  unsigned: (what: string): Authenticity => ({ status: 'unsigned', statement: `Unsigned: ${what} carries no signature; consistency only, origin not established.` }),
  consistencyOnly: (why: string): Authenticity => ({ status: 'consistency-only', statement: `Consistency only, origin not established: ${why}` }),
};

const obj = (v: JsonValue | undefined): { [k: string]: JsonValue } | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : null);

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
    if (keyIdProblem && !noSignature) return authenticity.consistencyOnly('the dump carries a signature, but its signing key id is missing or malformed (see /keyId), so the signature could not be checked.');
    return authenticity.unsigned(what);
  }
  if (sig.status === 'match') {
    const trust = chain.find((n) => n.id === 'trust');
    if (trust?.recomputed === 'revoked') return authenticity.revoked(what, keyId);
    const retired = findings.some((f) => f.rule === 'RDS-007' && f.severity === 'info' && f.pointer === '/keyId');
    return authenticity.trusted(what, keyId, retired);
  }
  const noStore = findings.some((f) => f.rule === 'RDS-007' && f.severity === 'unavailable' && f.expected === undefined);
  return noStore ? authenticity.noTrustStore(what, keyId) : authenticity.unknown(what, keyId);
}

/**
 * A journal's authenticity: its entries and checkpoints are signed; the statement names
 * the latest checkpoint's signer. `trustGiven` false: nothing could be decided.
 */
export function journalAuthenticity(findings: readonly Finding[], signer: string | null, trustGiven: boolean): Authenticity {
  const what = 'the journal';
  const has = (rule: string) => findings.some((f) => f.rule === rule && f.severity !== 'info');
  if (!signer) return has('RPR-JOURNAL-007') ? authenticity.badSignature(what, null) : authenticity.unsigned(`the journal (no checkpoint)`);
  if (!trustGiven) return authenticity.noTrustStore(what, signer);
  if (has('RPR-JOURNAL-007')) return authenticity.badSignature(what, signer);
  if (has('RPR-JOURNAL-009')) return authenticity.revoked(what, signer);
  if (has('RPR-JOURNAL-008')) return authenticity.unknown(what, signer);
  return authenticity.trusted(`every entry and checkpoint of ${what}`, signer, has('RPR-JOURNAL-010'));
}

const CONSISTENCY: Partial<Record<ArtifactKind, string>> = {
  'nemosyne-package': 'a package\'s self-contained hashes establish consistency, not origin; authenticity needs separately signed evidence.',
  'tg-replay-manifest': 'a TG replay manifest carries no signature; its hashes and policy binding are internally consistent at best.',
  'tg-policy-bundle': 'a TG policy bundle carries no signature; H(bundle) is what manifests bind to, not who wrote it.',
  'acgp-eval': 'ACGP evaluations carry no signature; the engine checks their internal consistency and recomputation only.',
  'acgp-trace': 'ACGP traces carry no signature; the engine checks their internal consistency and recomputation only.',
};

/**
 * The report's authenticity: the kind's own statement, else one derived from what the
 * kind returned (replay dumps, journals), else "consistency only" for known kinds.
 * Unknown content has none.
 */
export function authenticityOf(kind: ArtifactKind, r: KindResult): Authenticity | undefined {
  if (r.authenticity) return r.authenticity;
  if (kind === 'unknown') return undefined;
  if (kind === 'replay-dump') return dumpAuthenticity(r.chain, r.findings);
  if (kind === 'journal') {
    const cp = obj(r.details?.['latestCheckpoint']);
    const s = cp && typeof cp['signer'] === 'string' ? cp['signer'] : null;
    return journalAuthenticity(r.findings, s, !r.findings.some((f) => f.rule === 'RPR-JOURNAL-011' && f.severity === 'unavailable'));
  }
  return authenticity.consistencyOnly(CONSISTENCY[kind] ?? 'this kind carries no signature.');
}

/**
 * Names the signer: the role and label the trust store gives `a.keyId`, so a reader sees
 * who signed (a reviewer, "Alice Example") and not only a key id. A key the store does
 * not know (or no store) gets nothing: no role is ever guessed. Member order is fixed
 * (status, keyId, role, label, statement) so reports stay byte-identical run to run.
 */
export function withSigner(a: Authenticity, store: TrustStore | null): Authenticity {
  const k = a.keyId ? store?.get(a.keyId) : undefined;
  if (!k) return a;
  return { status: a.status, keyId: a.keyId!, role: k.role, ...(k.label ? { label: k.label } : {}), statement: a.statement };
}

/**
 * The report's authenticity statement (`report.authenticity`): who made the artifact, as
 * far as the engine established it. Kinds with a notion of origin derive it from their own
 * rules (replay-dump/authenticity.ts, journal/authenticity.ts) through the constructors
 * below (one wording everywhere); every other known kind states "consistency only" in the
 * words it declares.
 */
import type { ArtifactKind, Authenticity } from '../../shared/report.js';
import type { TrustStore } from './keys.js';
import type { KindResult } from './report.js';

const withKey = (a: Authenticity, keyId: string | null | undefined): Authenticity =>
  keyId ? { status: a.status, keyId, statement: a.statement } : a;

export const authenticity = {
  trusted: (what: string, keyId: string, retired = false): Authenticity =>
    withKey(
      {
        status: 'trusted-signer',
        statement: `Trusted signer: ${what} verifies under ${keyId}, a key in the trust store${retired ? ' (retired, still trusted for what it signed)' : ''}.`,
      },
      keyId,
    ),
  /** Several keys signed `what`, each in the store; `keyId` is the one that signed `latest` (the key reports name). */
  trustedSeveral: (what: string, keyId: string, latest: string, retired = false): Authenticity =>
    withKey(
      {
        status: 'trusted-signer',
        statement: `Trusted signers: ${what} verifies under a key in the trust store${retired ? ' (a retired one among them, still trusted for what it signed)' : ''}; ${latest} is signed by ${keyId}.`,
      },
      keyId,
    ),
  /** Several keys signed `what` (`keys`, in words), `keyId` the newest part; no trust store to decide any. */
  noTrustStoreSeveral: (what: string, keys: string, keyId: string, latest: string): Authenticity =>
    withKey(
      {
        status: 'unknown-signer',
        statement: `Unknown signers: ${what} is signed by ${keys}, ${latest} by ${keyId}, but no trust store was given, so the signers cannot be decided.`,
      },
      keyId,
    ),
  noTrustStore: (what: string, keyId: string): Authenticity =>
    withKey(
      {
        status: 'unknown-signer',
        statement: `Unknown signer: ${what} is signed by ${keyId}, but no trust store was given, so the signer cannot be decided.`,
      },
      keyId,
    ),
  unknown: (what: string, keyId: string): Authenticity =>
    withKey(
      {
        status: 'unknown-signer',
        statement: `Unknown signer: ${what} is signed by ${keyId}, a key that is not in the trust store.`,
      },
      keyId,
    ),
  untrusted: (what: string, keyId: string, why: string): Authenticity =>
    withKey(
      { status: 'untrusted-signer', statement: `Untrusted signer: ${what} is signed by ${keyId}, but ${why}.` },
      keyId,
    ),
  revoked: (what: string, keyId: string): Authenticity =>
    withKey(
      {
        status: 'revoked-signer',
        statement: `Revoked signer: ${what} is signed by ${keyId}, a key the trust store revokes.`,
      },
      keyId,
    ),
  badSignature: (what: string, keyId: string | null): Authenticity =>
    withKey(
      {
        status: 'bad-signature',
        statement: `Signature not accepted: ${what}'s signature${keyId ? ` by ${keyId}` : ''} does not verify, so its origin is not established.`,
      },
      keyId,
    ),
  unsigned: (what: string): Authenticity => ({
    status: 'unsigned',
    statement: `Unsigned: ${what} carries no signature; consistency only, origin not established.`,
  }),
  consistencyOnly: (why: string): Authenticity => ({
    status: 'consistency-only',
    statement: `Consistency only, origin not established: ${why}`,
  }),
};

/**
 * The report's authenticity: the kind's own statement, else "consistency only" in the
 * kind's words (KindDeclarations.consistencyOnly, which the engine passes on). Unknown
 * content has none.
 */
export function authenticityOf(kind: ArtifactKind, r: KindResult, consistencyOnly?: string): Authenticity | undefined {
  if (r.authenticity) return r.authenticity;
  if (kind === 'unknown') return undefined;
  return authenticity.consistencyOnly(consistencyOnly ?? 'this kind carries no signature.');
}

/**
 * Names the signer: the role and label the trust store gives `a.keyId`, so a reader sees
 * who signed (a reviewer, "Alice Example") and not only a key id. A key the store does
 * not know (or no store) gets nothing: no role is ever guessed. Member order is fixed
 * (status, keyId, role, label, statement) so reports stay byte-identical run to run.
 */
export function withSigner(a: Authenticity, store: TrustStore | null): Authenticity {
  const k = a.keyId ? store?.holder(a.keyId) : null;
  if (!k) return a;
  return {
    status: a.status,
    keyId: a.keyId!,
    role: k.role,
    ...(k.label ? { label: k.label } : {}),
    statement: a.statement,
  };
}

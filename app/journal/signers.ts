/**
 * Who may sign onto a journal: the journal's own rule (the trust store lists the key and has
 * not revoked it) and a kind's (a judgement: an active key of its roles). A module of its own,
 * below the writer and the verifier, so that both, and the judgement rules, import it
 * without a cycle of modules.
 */
import type { Role, TrustStore } from '../core/keys.js';

/** What a kind of entry asks of its signer beyond the journal's own rule (a judgement: an active key of one of `roles`). */
export interface SignerRule {
  /** The entry, as a refusal names it ("a judgement"). */
  what: string;
  roles: readonly Role[];
  /**
   * Judging an entry already in the journal, not one about to be signed: a key retired since
   * still vouches for it (retiring takes a key out of service; what it signed stands), a
   * revoked key's never does. A new entry needs an active key.
   */
  recorded?: boolean;
}

/**
 * Why `keyId` may not sign onto a journal verified with `trust`, or null. The journal's rule
 * (the verifier's RPR-JOURNAL-008 and 009): the store lists the key and has not revoked it
 * (a retired key's signatures still verify, with a warning; the writer adds that it signs
 * nothing new, refuseSigner). With `rule`, also the kind's:
 * an active key with one of its roles. The one check of a signer before an append: the
 * writer applies the journal's rule to every append made with a trust store, and the
 * judgement and note paths add theirs (judgement.ts), so a write never leaves its journal
 * failing verification under the store it was made with.
 */
export function signerProblem(keyId: string, trust: TrustStore, rule?: SignerRule): string | null {
  const k = trust.get(keyId);
  if (!k) return `${keyId} is not in the trust store`;
  const who = `${keyId} (${k.label || k.role})`;
  if (k.status === 'revoked' || (rule && !rule.recorded && k.status !== 'active'))
    return `${who} is ${k.status}${rule ? `; ${rule.what} needs an active key` : ''}`;
  if (rule && !rule.roles.includes(k.role))
    return `${rule.what} must be signed by a ${rule.roles.join(' or ')} key; ${who} is a ${k.role} key`;
  return null;
}

/**
 * The seal on state.json (trusted-state.ts says why it is sealed and when a writer trusts it),
 * and what a sealed state proves to a verifier: a key the verification trusts signed that the
 * journal held tree N with root R (docs/journal.md, "The trusted state"). A journal that now
 * holds fewer entries, or another root at N, lost or rewrote entries after that writer left it
 * (RPR-JOURNAL-047): removing the newest entries together with their checkpoints and notes
 * leaves nothing else behind that says so.
 */
import type { KeyObject } from 'node:crypto';
import type { Finding } from '../../shared/report.js';
import { fail } from '../core/findings.js';
import { formatHash } from '../core/hash.js';
import { canonicalizeValue } from '../core/jcs.js';
import { isSignatureString, verifyBytes } from '../core/keys.js';
import { journalOrigin } from './format.js';
import { frontierRoot, STATE_FILE, type TrustedState } from './frontier.js';

const SEAL_DOMAIN = 'reprise.journal-state-seal/v1\n';

/** What state.json carries beyond the recorded state (frontier.ts, TrustedState). */
export interface SealFields {
  verifiedUnder: string;
  seal: { signer: string; sig: string } | null;
}

/** The bytes a seal signs: a domain tag and the state's canonical JSON (every member but `seal`). */
export const sealedBytes = (state: object): Buffer => Buffer.from(SEAL_DOMAIN + canonicalizeValue(state), 'utf8');

/** A key as a verification knows it; undefined: not one it trusts. */
export type SealKey = { publicKey: KeyObject; status: string } | undefined;

/** The key id whose good signature seals `rec`: a key `keyOf` knows and that is not revoked. Null when none does. */
export function sealSigner(rec: TrustedState, keyOf: (keyId: string) => SealKey): string | null {
  const { seal, ...rest } = rec as TrustedState & Partial<SealFields>;
  if (typeof seal !== 'object' || seal === null || typeof seal.signer !== 'string' || !isSignatureString(seal.sig))
    return null;
  const key = keyOf(seal.signer);
  if (key === undefined || key.status === 'revoked') return null;
  return verifyBytes(key.publicKey, sealedBytes(rest), seal.sig) ? seal.signer : null;
}

/** The journal as a verification found it: its size, entry 0's hash, and its root at a size (null: not known here). */
export interface JournalAsRead {
  size: number;
  firstHash: string | null;
  rootAt(treeSize: number): Buffer | null;
}

const RULE = 'RPR-JOURNAL-047';
const rootText = (r: Buffer | null) => (r ? formatHash(r.toString('hex')) : 'unknown');

/**
 * RPR-JOURNAL-047: a state sealed by a key `keyOf` trusts records a larger tree than the
 * journal holds, or another root at its size. A state that is unsealed, sealed by a key not
 * trusted here, or another journal's (another origin) is a stale or foreign cache: no finding.
 */
export function sealedStateFinding(
  rec: TrustedState | null,
  journal: JournalAsRead,
  keyOf: (keyId: string) => SealKey,
): Finding | null {
  if (!rec || rec.treeSize === 0) return null;
  const signer = sealSigner(rec, keyOf);
  if (signer === null) return null;
  if (rec.origin !== null && journal.firstHash !== null && rec.origin !== journalOrigin(journal.firstHash)) return null;
  const n = rec.treeSize;
  const sealed = frontierRoot(rec.frontier.map((h) => Buffer.from(h, 'hex')));
  const now = n > journal.size ? null : journal.rootAt(n);
  if (n <= journal.size && (now === null || (sealed !== null && now.equals(sealed)))) return null;
  const said = `${STATE_FILE}, sealed by ${signer}, records tree ${n} with root ${rootText(sealed)}`;
  const found =
    n > journal.size
      ? `the journal holds ${journal.size} entries (root ${rootText(journal.rootAt(journal.size))}): entries were removed`
      : `the journal's root at tree ${n} is ${rootText(now)}: entries up to it were rewritten`;
  return fail(
    RULE,
    `${said}, but ${found} after the writer that sealed it left the journal (their checkpoints and notes with them: a rollback). Nothing is rebuilt over this record; put the lines back from a copy of the journal`,
    { pointer: `entry:${STATE_FILE}` },
  );
}

/** A journal's origin statement, from its own rules (RPR-JOURNAL-007 to -011). */
import { isPlainObject } from '../core/closed.js';
import type { Authenticity, Finding, JsonValue } from '../../shared/report.js';
import { authenticity } from '../core/authenticity.js';
import type { KindResult } from '../core/report.js';

/** The keys a journal's entries and checkpoints are signed by (verify.ts SignerKeyList). */
export interface JournalSigners {
  keys: readonly string[];
  more: boolean;
}

/**
 * A journal's authenticity: its entries and checkpoints are signed; the statement names
 * the latest checkpoint's signer (its `keyId`), and every other key that signed an entry
 * or a checkpoint, since a reviewer's and an officer's entries share one journal: naming
 * one key as the signer of all would say what was not checked. `trustGiven` false:
 * nothing could be decided.
 */
export function journalAuthenticity(
  findings: readonly Finding[],
  signer: string | null,
  trustGiven: boolean,
  signers: JournalSigners = { keys: [], more: false },
): Authenticity {
  const others = signer ? signers.keys.filter((k) => k !== signer) : [];
  const what = 'the journal';
  if (signer && (others.length > 0 || signers.more)) return severalSigners(findings, signer, trustGiven, signers);
  const has = (rule: string) => findings.some((f) => f.rule === rule && f.severity !== 'info');
  if (!signer)
    return has('RPR-JOURNAL-007')
      ? authenticity.badSignature(what, null)
      : authenticity.unsigned(`the journal (no checkpoint)`);
  if (!trustGiven) return authenticity.noTrustStore(what, signer);
  if (has('RPR-JOURNAL-007')) return authenticity.badSignature(what, signer);
  // The key the finding names (its `actual`), which need not be the newest checkpoint's signer.
  const keyOf = (rule: string): string => {
    const a = findings.find((f) => f.rule === rule && f.severity !== 'info')?.actual;
    return typeof a === 'string' && a.startsWith('ed25519:') ? a : signer;
  };
  if (has('RPR-JOURNAL-009')) return authenticity.revoked(what, keyOf('RPR-JOURNAL-009'));
  if (has('RPR-JOURNAL-008')) return authenticity.unknown(what, keyOf('RPR-JOURNAL-008'));
  return authenticity.trusted(`every entry and checkpoint of ${what}`, signer, has('RPR-JOURNAL-010'));
}

/** The keys named, in the statement's words: "3 keys (a, b, c)", "and more" when the list was cut. */
function keysSaid(s: JournalSigners): string {
  const n = s.more ? `more than ${s.keys.length}` : String(s.keys.length);
  return `${n} keys (${s.keys.join(', ')}${s.more ? ', and more' : ''})`;
}

/**
 * The statement of a journal signed by several keys. The findings name the key at fault
 * (unknown, revoked); a trusted journal's statement says every key is in the store, and
 * which signed the latest checkpoint.
 */
function severalSigners(
  findings: readonly Finding[],
  signer: string,
  trustGiven: boolean,
  signers: JournalSigners,
): Authenticity {
  if (!trustGiven)
    return authenticity.noTrustStoreSeveral('the journal', keysSaid(signers), signer, 'its latest checkpoint');
  const one = journalAuthenticity(findings, signer, trustGiven);
  if (one.status !== 'trusted-signer') return one;
  const retired = findings.some((f) => f.rule === 'RPR-JOURNAL-010' && f.severity !== 'info');
  return authenticity.trustedSeveral(
    `every entry and checkpoint of the journal (${keysSaid(signers)})`,
    signer,
    'the latest checkpoint',
    retired,
  );
}

const obj = (v: JsonValue | undefined): { [k: string]: JsonValue } | null =>
  isPlainObject(v) ? (v as { [k: string]: JsonValue }) : null;

/**
 * The authenticity of a journal report built from its KindResult alone (`reprise journal
 * verify`, `check-proof`): the signer of details.latestCheckpoint; no trust store when the
 * result says so (RPR-JOURNAL-011 unavailable).
 */
export function journalResultAuthenticity(r: KindResult): Authenticity {
  const cp = obj(r.details?.['latestCheckpoint']);
  const s = cp && typeof cp['signer'] === 'string' ? cp['signer'] : null;
  const keys = r.details?.['signers'];
  return journalAuthenticity(
    r.findings,
    s,
    !r.findings.some((f) => f.rule === 'RPR-JOURNAL-011' && f.severity === 'unavailable'),
    {
      keys: Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [],
      more: r.details?.['signersMore'] === true,
    },
  );
}

/** A journal's origin statement, from its own rules (RPR-JOURNAL-007 to -011). */
import { isPlainObject } from '../core/closed.js';
import type { Authenticity, Finding, JsonValue } from '../../shared/report.js';
import { authenticity } from '../core/authenticity.js';
import type { KindResult } from '../core/report.js';

/**
 * A journal's authenticity: its entries and checkpoints are signed; the statement names
 * the latest checkpoint's signer. `trustGiven` false: nothing could be decided.
 */
export function journalAuthenticity(
  findings: readonly Finding[],
  signer: string | null,
  trustGiven: boolean,
): Authenticity {
  const what = 'the journal';
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
  return journalAuthenticity(
    r.findings,
    s,
    !r.findings.some((f) => f.rule === 'RPR-JOURNAL-011' && f.severity === 'unavailable'),
  );
}

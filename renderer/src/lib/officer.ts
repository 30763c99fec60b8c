/**
 * The officer's queue (Journal view): cases filtered and sorted by state, claim and age,
 * and the check, before anything is signed, that the chosen key's role may sign a decision.
 */
import type { CaseDecision, CaseView, SigningKey } from '../../../shared/api.js';
import { CLAIM_ID_RULE, claimIdProblem, shownClaimId } from '../../../shared/claim-id.js';
import { escapeControls } from '../../../shared/controls.js';
import { compareTimestamps } from '../../../shared/timestamps.js';

export type SortKey = 'state' | 'claim' | 'age';
export type Sort = { key: SortKey; dir: 'asc' | 'desc' };
export const STATES: CaseView['state'][] = ['open', 'escalated', 'released', 'upheld'];
/** The officer's work first: open and escalated cases come before closed ones. */
const STATE_ORDER: Record<CaseView['state'], number> = { open: 0, escalated: 1, released: 2, upheld: 3 };
/** A claim id is shown as an identifier: its invisible characters escaped too (shared/controls.ts). */
const IDENTIFIER = { identifier: true } as const;

/**
 * How long ago the case was opened, in the largest whole unit (the window's clock; shown, never
 * signed). A case dated a minute or more after the window's clock (a machine whose clock was
 * ahead wrote it) says so with how far ahead, never a small age (docs/journal.md, "Time").
 */
export function ageWords(openedAtUtc: string, now: number): string {
  const ms = now - Date.parse(openedAtUtc);
  if (!Number.isFinite(ms)) return 'unknown';
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
  ];
  for (const [size, unit] of units) {
    if (ms >= size) return `${Math.floor(ms / size)} ${unit}`;
    if (-ms >= size) return `dated ${Math.floor(-ms / size)} ${unit} after this clock (in the future)`;
  }
  return 'under a minute';
}

/**
 * Whether a claim holds the text typed: as written, or as the queue shows it, with its
 * controls escaped (a claim "claim:\u202egnp.exe" is found by typing what is on screen,
 * `\u202e`, and never by "exe.png", which it only looked like before it was escaped), and a
 * claim id that breaks the form a new case's must have (RPR-QUAR-008) by its edge whitespace
 * or its decomposed letters as escaped (`claim:A\x20`, `cafe\u0301`: shared/claim-id.ts).
 */
const claimHas = (claim: string, needle: string): boolean =>
  claim.toLowerCase().includes(needle) ||
  escapeControls(claim, IDENTIFIER).toLowerCase().includes(needle) ||
  shownClaimId(claim).toLowerCase().includes(needle);

/**
 * What the window says of a claim id it shows otherwise than its characters draw, in one
 * sentence, or null for a plain claim. When it breaks the form a new case's claim id must have
 * (RPR-QUAR-008: a control or bidirectional character, whitespace at an end, not NFC): what is
 * wrong, that it may draw as another claim's (as `quarantine list` warns) and that the escapes
 * are the code points signed; a bidi claim breaks the rule by the very character that is
 * shown escaped, so one sentence says both. Else, when it holds invisible characters: that
 * they are shown escaped.
 */
export function claimIdWarning(claim: string): string | null {
  const problem = claimIdProblem(claim);
  const invisible = escapeControls(claim, IDENTIFIER) !== escapeControls(claim);
  if (problem)
    return (
      `this claim id ${problem}${invisible ? ' and holds invisible characters' : ''}, so it may draw as another ` +
      `claim's: read it as shown, escaped; the signed claim is these code points (${CLAIM_ID_RULE}: no new case is opened for such an id)`
    );
  return invisible
    ? 'this claim id holds invisible characters, shown escaped: the signed claim is these code points'
    : null;
}

/** Cases filtered by state and claim, sorted by state, claim or age (oldest first when ascending). */
export function queueOf(cases: readonly CaseView[], state: string, claim: string, sort: Sort): CaseView[] {
  const needle = claim.trim().toLowerCase();
  const by: Record<SortKey, (a: CaseView, b: CaseView) => number> = {
    state: (a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state],
    claim: (a, b) => (a.claimRef < b.claimRef ? -1 : a.claimRef > b.claimRef ? 1 : 0),
    // Older first: opened earlier.
    // By instant: text order puts "…:00Z" after "…:00.5Z" of the same second.
    age: (a, b) => compareTimestamps(a.openedAtUtc, b.openedAtUtc),
  };
  const sign = sort.dir === 'asc' ? 1 : -1;
  return cases
    .filter((c) => (state === '' || c.state === state) && (!needle || claimHas(c.claimRef, needle)))
    .sort((a, b) => sign * by[sort.key](a, b) || (a.caseId < b.caseId ? -1 : 1));
}

/**
 * Why the chosen key may not sign this decision, before anything is sent: the trust store
 * names its role, and the journal allows the decision only to the roles it lists (a release
 * to a quarantine officer, never a reviewer). A key the trust store does not name is left to
 * the engine, which refuses it with its own words.
 */
export function keyRefusal(c: CaseView, decision: CaseDecision, key: SigningKey | undefined): string | null {
  const rule = c.decisions?.find((d) => d.decision === decision);
  if (!rule || !key?.role) return null;
  if (!rule.roles.includes(key.role))
    return `The chosen key (${keyName(key)}) is a ${key.role} key in the journal's trust store; a ${decision} is signed only with a ${rule.roles.join(' or ')} key. Choose one in the journal header (Signing key).`;
  return statusRefusal(key);
}

/** A key as the window names it: its label in the trust store, else its file's name. */
const keyName = (key: SigningKey): string => key.label ?? key.path.split(/[\\/]/).pop() ?? key.path;

/**
 * Why a key the trust store names but no longer holds active (revoked or retired) may not
 * sign, before anything is sent: the journal accepts only active keys (RPR-QUAR-006 for a
 * decision, the judgement rule for a judgement).
 */
export function statusRefusal(key: SigningKey | undefined): string | null {
  if (!key?.role || !key.status || key.status === 'active') return null;
  return `The chosen key (${keyName(key)}) is ${key.status} in the journal's trust store: only an active key signs. Choose another in the journal header (Signing key).`;
}

/** A key's standing in the journal's trust store, in words: its role, with its status when it is not active. */
export function keyStanding(key: Pick<SigningKey, 'role' | 'status'>): string {
  if (!key.role) return 'not in the trust store';
  return key.status && key.status !== 'active' ? `${key.role}, ${key.status.toUpperCase()}` : key.role;
}

/**
 * The officer's queue (Journal view): cases filtered and sorted by state, claim and age,
 * and the check, before anything is signed, that the chosen key's role may sign a decision.
 */
import type { CaseDecision, CaseView, SigningKey } from '../../../shared/api.js';

export type SortKey = 'state' | 'claim' | 'age';
export type Sort = { key: SortKey; dir: 'asc' | 'desc' };
export const STATES: CaseView['state'][] = ['open', 'escalated', 'released', 'upheld'];
/** The officer's work first: open and escalated cases come before closed ones. */
const STATE_ORDER: Record<CaseView['state'], number> = { open: 0, escalated: 1, released: 2, upheld: 3 };

/** How long ago the case was opened, in the largest whole unit (the window's clock; shown, never signed). */
export function ageWords(openedAtUtc: string, now: number): string {
  const ms = now - Date.parse(openedAtUtc);
  if (!Number.isFinite(ms)) return 'unknown';
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
  ];
  for (const [size, unit] of units) if (ms >= size) return `${Math.floor(ms / size)} ${unit}`;
  return 'under a minute';
}

/** Cases filtered by state and claim, sorted by state, claim or age (oldest first when ascending). */
export function queueOf(cases: readonly CaseView[], state: string, claim: string, sort: Sort): CaseView[] {
  const needle = claim.trim().toLowerCase();
  const by: Record<SortKey, (a: CaseView, b: CaseView) => number> = {
    state: (a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state],
    claim: (a, b) => (a.claimRef < b.claimRef ? -1 : a.claimRef > b.claimRef ? 1 : 0),
    // Older first: opened earlier.
    age: (a, b) => (a.openedAtUtc < b.openedAtUtc ? -1 : a.openedAtUtc > b.openedAtUtc ? 1 : 0),
  };
  const sign = sort.dir === 'asc' ? 1 : -1;
  return cases
    .filter((c) => (state === '' || c.state === state) && (!needle || c.claimRef.toLowerCase().includes(needle)))
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
  if (!rule || !key?.role || rule.roles.includes(key.role)) return null;
  const name = key.label ?? key.path.split(/[\\/]/).pop();
  return `The chosen key (${name}) is a ${key.role} key in the journal's trust store; a ${decision} is signed only with a ${rule.roles.join(' or ')} key. Choose one in the journal header (Signing key).`;
}

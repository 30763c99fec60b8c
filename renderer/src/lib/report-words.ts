/** Plain-language readings of a report: the decisive finding and the authenticity statement. */
import { shownValue, type AuthenticityStatus, type Finding, type JsonValue, type Report } from '../../../shared/report';

export const VERDICT_LABEL = { pass: 'PASS', fail: 'FAIL', unavailable: 'UNAVAILABLE' } as const;

/** The decisive finding: the first fail, else the first unavailable, else none. */
export function decisiveFinding(r: Report): Finding | null {
  return r.findings.find((f) => f.severity === 'fail') ?? r.findings.find((f) => f.severity === 'unavailable') ?? null;
}

export function plainVerdict(r: Report): string {
  const d = decisiveFinding(r);
  if (r.verdict === 'pass') return 'Every check passed: the recomputed values agree with the recorded ones.';
  if (!d) return 'The verdict has no decisive finding.';
  const why = r.verdict === 'fail' ? 'The artifact fails' : 'The check could not be completed';
  return `${why}: ${d.message}${d.pointer ? ` (at ${d.pointer})` : ''}.`;
}

export type AuthenticityReading = { level: 'trusted' | 'unknown' | 'bad' | 'consistency'; status: AuthenticityStatus | 'none'; text: string };

const LEVEL: Record<AuthenticityStatus, AuthenticityReading['level']> = {
  'trusted-signer': 'trusted',
  'untrusted-signer': 'unknown',
  'unknown-signer': 'unknown',
  'revoked-signer': 'bad',
  'bad-signature': 'bad',
  unsigned: 'consistency',
  'consistency-only': 'consistency',
};

/**
 * Who made the artifact: the engine's own statement (`report.authenticity`), shown as
 * stated. Nothing is inferred here from rule ids or kinds.
 */
export function authenticity(r: Report): AuthenticityReading {
  const a = r.authenticity;
  if (!a) return { level: 'consistency', status: 'none', text: 'The report makes no authenticity statement: origin not established.' };
  return { level: LEVEL[a.status] ?? 'consistency', status: a.status, text: a.statement };
}

/** A value as the report's other views show it (shared/report.ts shownValue). */
export const show = (v: JsonValue | undefined): string => shownValue(v);

/** Plain-language readings of a report: the decisive finding and the authenticity statement. */
import type { Finding, JsonValue, Report } from '../../../shared/report';

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

export type Authenticity = { level: 'trusted' | 'unknown' | 'consistency'; text: string };

const SIGNATURE_RULES = new Set(['RDS-F001', 'RDS-007', 'RPR-JOURNAL-011', 'RPR-TG-ATTEST']);

/**
 * Who made the artifact, as far as the engine established it: a signer in the trust
 * store, an unknown signer, or nothing beyond internal consistency.
 */
export function authenticity(r: Report): Authenticity {
  const stated = r.details?.['authenticity'];
  if (typeof stated === 'string' && /not established/i.test(stated)) return { level: 'consistency', text: 'Consistency only, origin not established.' };
  const sig = r.findings.filter((f) => SIGNATURE_RULES.has(f.rule) && (f.severity === 'fail' || f.severity === 'unavailable'));
  if (sig.some((f) => f.severity === 'unavailable')) return { level: 'unknown', text: 'Unknown signer: the signing key is not in the trust store.' };
  if (sig.length > 0) return { level: 'unknown', text: 'Signature not accepted: origin not established.' };
  const signedKinds = ['replay-dump', 'journal'];
  if (signedKinds.includes(r.artifact.kind) && r.artifact.kind !== 'unknown' && !r.findings.some((f) => f.rule === 'RPR-KIND-001')) {
    return { level: 'trusted', text: 'Trusted signer: the signature verifies under a key in the trust store.' };
  }
  return { level: 'consistency', text: 'Consistency only, origin not established.' };
}

export function show(v: JsonValue | undefined): string {
  if (v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * What an ACGP trace or EVAL offers a reviewer's case (KindOperations.caseFacts,
 * docs/case.md): the time of each EVAL, from its verified report's trust-debt trajectory
 * (details.trajectory, as many points as the acgp-trajectory limit keeps). An EVAL names no
 * other artifact.
 */
import type { Report } from '../../../shared/report.js';
import { isPlainObject as isObj } from '../../core/closed.js';
import type { CaseFacts, CaseSubject } from '../operations.js';

export function acgpCaseFacts(subject: CaseSubject, report: Report): CaseFacts {
  const facts: CaseFacts = { identities: [], references: [], events: [] };
  const points = report.details?.['trajectory'];
  if (!Array.isArray(points)) return facts;
  // A trace that is one JSON document is an array; one that is not is JSON Lines (its detection's words).
  const j = subject.sniffed?.json();
  const lines = report.artifact.kind === 'acgp-trace' && !j?.ok;
  const single = report.artifact.kind === 'acgp-eval';
  for (const p of points) {
    if (!isObj(p) || typeof p['timestamp'] !== 'string' || typeof p['index'] !== 'number') continue;
    const i = p['index'];
    const pointer = single ? '/timestamp' : lines ? `line:${i + 1}` : `/${i}/timestamp`;
    const what = typeof p['intervention'] === 'string' ? `: ${p['intervention']}` : '';
    // The event is the whole EVAL, where its findings point (by index in a trace): an
    // EVAL's findings are at its members (`/8/trust_debt/post`), never at its timestamp.
    const within = single ? '' : `/${i}`;
    facts.events.push({ atUtc: p['timestamp'], pointer, label: `EVAL ${i}${what}`, node: null, within });
  }
  return facts;
}

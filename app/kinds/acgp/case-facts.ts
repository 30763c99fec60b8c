/**
 * What an ACGP trace or EVAL offers a reviewer's case (KindOperations.caseFacts,
 * docs/case.md): the time of each EVAL, from its verified report's trust-debt trajectory
 * (details.trajectory, as many points as the acgp-trajectory limit keeps). An EVAL names no
 * other artifact.
 */
import type { Report } from '../../../shared/report.js';
import { isPlainObject as isObj } from '../../core/closed.js';
import type { CaseFacts, CaseSubject } from '../operations.js';
import { ACGP_LIMITS } from './limits.js';
import { isJsonLinesTrace } from './declare.js';

export function acgpCaseFacts(subject: CaseSubject, report: Report, limits?: Record<string, number>): CaseFacts {
  const facts: CaseFacts = { identities: [], references: [], events: [] };
  const points = report.details?.['trajectory'];
  if (!Array.isArray(points)) return facts;
  // JSON Lines as its verification decided (declare.ts), not as whether the strict parse
  // passed: an array with a duplicate member fails that parse and is still one document.
  const lines =
    report.artifact.kind === 'acgp-trace' && subject.sniffed !== undefined && isJsonLinesTrace(subject.sniffed);
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
  leftOut(facts, report, points.length, limits?.['acgp-trajectory'] ?? ACGP_LIMITS['acgp-trajectory']);
  return facts;
}

/**
 * The EVALs past the points the report kept when it kept as many as acgp-trajectory allows:
 * the case says its timeline lacks them. (An EVAL the trace check could not read leaves no
 * point either; its own findings say so, and the limit was not what left it out.)
 */
function leftOut(facts: CaseFacts, report: Report, kept: number, limit: number): void {
  const evals = report.details?.['evals'];
  if (typeof evals !== 'number' || kept < limit || evals <= kept) return;
  facts.eventsLeftOut = {
    count: evals - kept,
    why: `its report keeps the trust-debt points of the first ${kept} EVAL(s) only (limit acgp-trajectory; --limit acgp-trajectory=${evals} keeps every one)`,
  };
}

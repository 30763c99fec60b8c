/**
 * One artifact's share of a case, computed where it was verified (a worker thread): its
 * entry in the artifact list, what it offers the links, and its timeline events with their
 * severity. The case's main thread then only joins and sorts (assemble.ts).
 */
import type { CaseArtifact, CaseNeed, TimelineEvent } from '../../../shared/case.js';
import type { Finding, Report, Severity } from '../../../shared/report.js';
import type { CaseFacts, CaseIdentity, CaseJudgementFact, CaseReference } from '../../kinds/operations.js';
import { reportDigest } from '../../journal/report-digest.js';
import { isRfc3339Utc, whyNotRfc3339Utc } from '../../core/time.js';
import { cutIndex } from '../../../shared/text-cut.js';
import { decidersOf } from '../../kinds/registry.js';
import { neededOptions, type EngineOptions } from '../../kinds/types.js';

export interface CasePart {
  artifact: CaseArtifact;
  identities: CaseIdentity[];
  references: CaseReference[];
  /** Its timeline events without their artifact and kind (the assembly adds them: fewer strings to copy between threads). */
  events: PartEvent[];
  judgements: CaseJudgementFact[];
  /** Why its facts could not be read (a case finding), when they could not. */
  factsProblem?: string;
  /** Timestamps it carries that are not on the timeline (a case finding, RPR-CASE-004), when there are any. */
  unplaced?: Unplaced;
}

/** The first few timestamps an artifact carries that the timeline cannot place, how many in all, and what its kind left out. */
export interface Unplaced {
  count: number;
  shown: { pointer: string; value: string; why: string }[];
  leftOut?: { count: number; why: string };
}

/** How many unplaceable timestamps a finding names one by one (the rest are counted). */
const UNPLACED_SHOWN = 3;
/** The longest value shown of one: a timestamp is short, and anything longer is not one. */
const UNPLACED_VALUE_CHARS = 40;

export type PartEvent = Omit<TimelineEvent, 'artifact' | 'kind'>;

/** What an artifact that could not be read at all (a usage or internal error) leaves in the case. */
export interface CaseUnreadable {
  path: string;
  message: string;
  /** A usage error (a file that cannot be read, a FIFO), not an internal one. */
  usage: boolean;
}

/** The outcome of one artifact of a case: its part (with its report), or why it could not be read. */
export type CaseOutcome =
  | { ok: true; part: CasePart; report?: Report }
  | {
      ok: false;
      /** Its message names the artifact by its path in the case, whatever the folder's spelling. */
      unreadable: CaseUnreadable;
      /** The same failure naming the artifact as its run was asked to (the CLI's path as typed), for its own error line. */
      said?: string;
    };

const RANK: Record<Severity, number> = { info: 0, warning: 1, unavailable: 2, fail: 3 };

/** The facts of content no kind offers any for (unknown content, a kind without caseFacts). */
export const NO_FACTS: CaseFacts = { identities: [], references: [], events: [] };

/** `options`: those the artifact ran with, of which only those not given are named as what it needs. */
export function casePart(path: string, report: Report, facts: CaseFacts, options: EngineOptions = {}): CasePart {
  const counts = { fail: 0, unavailable: 0, warning: 0, info: 0 };
  for (const f of report.findings) counts[f.severity]++;
  const artifact: CaseArtifact = {
    path,
    kind: report.artifact.kind,
    sha256: report.artifact.sha256 ?? facts.sha256 ?? null,
    verdict: report.verdict,
    id: report.artifact.id,
    reportDigest: reportDigest(report),
    counts,
  };
  const needs = counts.unavailable > 0 ? needsOf(report, options) : undefined;
  if (needs) artifact.needs = needs;
  const events: PartEvent[] = [];
  const pointed = pointedFindings(report);
  let unplaced: Unplaced | undefined;
  for (const e of facts.events) {
    const atUtc = normalisedUtc(e.atUtc);
    if (atUtc === null) {
      // The kind's own checks fail the artifact for it; the case says its timeline lacks it.
      unplaced ??= { count: 0, shown: [] };
      if (unplaced.count++ < UNPLACED_SHOWN) unplaced.shown.push(unplacedOne(e.pointer, e.atUtc));
      continue;
    }
    const severity = severityAt(report, pointed, e.within ?? e.pointer, e.node);
    events.push({ atUtc, node: e.node, pointer: e.pointer, label: e.label, severity });
  }
  if (facts.eventsLeftOut && facts.eventsLeftOut.count > 0)
    (unplaced ??= { count: 0, shown: [] }).leftOut = facts.eventsLeftOut;
  const part: CasePart = {
    artifact,
    identities: facts.identities,
    references: facts.references,
    events,
    judgements: facts.judgements ?? [],
  };
  if (unplaced) part.unplaced = unplaced;
  return part;
}

/**
 * The options not given that would decide the report's unavailable findings, as its kind
 * declares them (KindOption.decides), by flag; undefined when none would. The registry's
 * table is built once per process, so an artifact costs a pass over its findings.
 */
function needsOf(report: Report, options: EngineOptions): CaseNeed[] | undefined {
  const byRule = decidersOf(report.artifact.kind);
  const given = options as Record<string, unknown>;
  return byRule && neededOptions(report.findings, byRule, (name) => given[name] !== undefined);
}

function unplacedOne(pointer: string, value: unknown): Unplaced['shown'][number] {
  const s = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const shown = s.length > UNPLACED_VALUE_CHARS ? s.slice(0, cutIndex(s, UNPLACED_VALUE_CHARS)) + '…' : s;
  return { pointer, value: shown, why: whyNotRfc3339Utc(value) };
}

/**
 * `YYYY-MM-DDTHH:MM:SS(.f…)Z`: RFC 3339 UTC with its fraction as written but for trailing
 * zeros (none when zero), so two times that differ below the millisecond (.NET writes seven
 * digits) keep their order, and one instant has one spelling; null when not RFC 3339 UTC.
 */
export function normalisedUtc(s: unknown): string | null {
  if (!isRfc3339Utc(s)) return null;
  if (s.length === 20) return s; // whole seconds, the most written
  let end = s.length - 1; // at the Z
  while (s.charCodeAt(end - 1) === 0x30) end--;
  if (end === s.length - 1) return s;
  return (end === 20 ? s.slice(0, 19) : s.slice(0, end)) + 'Z';
}

/** Whether `a` lies inside `b` (`b` followed by `/`), without building `b + '/'`. */
const under = (a: string, b: string): boolean =>
  a.length > b.length && a.charCodeAt(b.length) === 0x2f && a.startsWith(b);

/** Whether a finding's pointer and an event's lie on one path of the document (one contains the other). */
function related(a: string, b: string): boolean {
  return a === b || under(a, b) || under(b, a);
}

/** The findings that can raise an event's severity: above info, at a pointer. */
function pointedFindings(report: Report): Finding[] {
  return report.findings.filter((f) => f.severity !== 'info' && f.pointer !== undefined && f.pointer !== '');
}

/** The worst severity of the findings at the event's pointer or its node's, `info` when none. */
function severityAt(report: Report, pointed: readonly Finding[], pointer: string, node: string | null): Severity {
  if (pointed.length === 0) return 'info';
  const nodePointer = node === null ? undefined : report.chain.find((n) => n.id === node)?.pointer;
  let worst: Severity = 'info';
  for (const f of pointed) {
    const at =
      related(f.pointer!, pointer) ||
      (nodePointer !== undefined && nodePointer !== '' && related(f.pointer!, nodePointer));
    if (at && RANK[f.severity] > RANK[worst]) worst = f.severity;
  }
  return worst;
}

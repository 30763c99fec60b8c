/**
 * Builds `reprise.report/v1` objects: the one place a report is assembled, so every
 * kind's report has the same member order and everything but `run` is deterministic.
 */
import { REPORT_SCHEMA, verdictOf, type ArtifactKind, type Report } from '../../shared/report.js';
import { boundFindings, FINDINGS_LIMIT } from './findings.js';
import { VERSION } from '../version.js';
import { sha256Hex } from './hash.js';
import { cutIndex } from '../../shared/text-cut.js';
import { authenticityOf } from './authenticity.js';

/**
 * What a kind's verify or replay yields: the report's own members that the kind decides
 * (the artifact's id, findings, chain, comparisons, events, details, origin statement,
 * which app/core/authenticity.ts derives when absent), taken from Report so the two
 * cannot disagree. The engine adds the rest.
 */
export type KindResult = Pick<Report, 'findings' | 'chain' | 'comparisons' | 'events' | 'details' | 'authenticity'> & {
  id: Report['artifact']['id'];
};

export interface ReportInput extends KindResult {
  path: string;
  kind: ArtifactKind;
  sha256: string | null;
  /** `replay` reports always carry comparisons and events, even when empty. */
  replay?: boolean;
  /** The engine's `limits` (`--limit`): `findings-per-rule` bounds the findings listed. */
  limits?: Readonly<Record<string, number>>;
}

/** The longest artifact id a report carries whole. An id is a name (a trace, a dump, a claim), never a payload. */
export const MAX_ARTIFACT_ID_CHARS = 1024;

/**
 * An id beyond MAX_ARTIFACT_ID_CHARS is kept as its start, its length and its SHA-256, so
 * it still names the artifact uniquely: a 96 MiB trace_id copied whole into the report (and
 * into every judgement's claimRef and every export) took the verdict past 850 MiB.
 */
export function boundedId(id: string | null): string | null {
  if (id === null) return null;
  const cut = boundedIdParts(id);
  return cut ? cut.start + cut.rest : id;
}

/**
 * An id beyond MAX_ARTIFACT_ID_CHARS in boundedId's two parts, so that a reader that shows the
 * start otherwise (escaped) keeps the same form; null for an id kept whole. The start is cut
 * where no surrogate pair is split (a lone surrogate is no JSON text a digest can hold).
 */
export function boundedIdParts(id: string): { start: string; rest: string } | null {
  if (id.length <= MAX_ARTIFACT_ID_CHARS) return null;
  return { start: id.slice(0, cutIndex(id, 64)), rest: `… (${id.length} characters; sha256:${sha256Hex(id)})` };
}

export function buildReport(input: ReportInput, startedAt: number, now: () => number = Date.now): Report {
  // Keep member order fixed: comparisons, events, details come before run.
  const ordered = {
    schema: REPORT_SCHEMA,
    artifact: { path: input.path, kind: input.kind, id: boundedId(input.id), sha256: input.sha256 },
    verdict: verdictOf(input.findings),
    findings: boundFindings(input.findings, input.limits?.[FINDINGS_LIMIT]),
    chain: input.chain,
  } as Report;
  if (input.comparisons || input.replay) ordered.comparisons = input.comparisons ?? [];
  if (input.events || input.replay) ordered.events = input.events ?? [];
  if (input.details) ordered.details = input.details;
  const auth = authenticityOf(input.kind, input);
  if (auth) ordered.authenticity = auth;
  ordered.run = {
    tool: 'reprise',
    version: VERSION,
    startedAtUtc: new Date(startedAt).toISOString(),
    durationMs: Math.max(0, Math.round(now() - startedAt)),
  };
  return ordered;
}

/** A report with `run` removed: what must be byte-identical from run to run. */
export function deterministicPart(r: Report): Omit<Report, 'run'> {
  const { run: _run, ...rest } = r;
  return rest;
}

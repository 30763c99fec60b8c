/**
 * What a bundle leaves out, said in its manifest (docs/evidence-bundle.md, "What a bundle
 * leaves out"). Nothing of the case may be missing from its bundle unsaid: an artifact of the
 * case that could not be verified has no report to bundle, and a journal entry on what the
 * bundle carries may be no judgement or have no inclusion proof. Each is listed in the
 * manifest's `leftOut` with why, the export says it and exits non-zero when the bundle is
 * incomplete, and `verify` says it (RPR-EVB-020). The writer and the verifier read the case's
 * left-out artifacts from one function, so the two never disagree on what the case lacks.
 */
import { CASE_UNVERIFIED_RULE, type CaseReport } from '../../../shared/case.js';
import { HASH, type Problems } from '../../../shared/report-shape.js';
import type { Finding } from '../../../shared/report.js';
import { JUDGEMENT_DECISIONS } from '../../../shared/rationale.js';
import { findingsOn } from '../../core/findings.js';
import type { LeftOutArtifact, OmittedEntry, OmittedStatus } from '../operations.js';
import { CASE_MEMBER, MEMBER, ptr } from './format.js';
import { EVIDENCE_BUNDLE_RULES } from './rule-ids.js';

const { unavailable, warning } = findingsOn(EVIDENCE_BUNDLE_RULES);

const STATUSES: readonly OmittedStatus[] = ['no-judgement', 'unproven'];

/** A journal entry as the manifest lists it when the bundle leaves it out. */
export interface LeftOutEntry {
  seq: number;
  entryHash: string;
  author: string;
  decision: string;
  status: OmittedStatus;
  reason: string;
}

/** The manifest's `leftOut`: `artifacts` in a case bundle only. */
export interface LeftOut {
  artifacts?: LeftOutArtifact[];
  entries: LeftOutEntry[];
}

/** Each artifact the case could not verify (its CASE_UNVERIFIED_RULE finding), with that finding's index in the case's findings. */
function unverified(c: CaseReport): { at: number; artifact: LeftOutArtifact }[] {
  return c.findings.flatMap((f, at) => {
    if (f.rule !== CASE_UNVERIFIED_RULE || !f.pointer?.startsWith(ptr(''))) return [];
    const path = f.pointer.slice(ptr('').length);
    const said = `${path} could not be verified: `;
    const reason = f.message.startsWith(said) ? f.message.slice(said.length) : f.message;
    return [{ at, artifact: { path, reason } }];
  });
}

/** The artifacts of the case left out of its bundle: those it could not verify, in its order (path order). */
export function caseArtifactsLeftOut(c: CaseReport): LeftOutArtifact[] {
  return unverified(c).map((u) => u.artifact);
}

/** The manifest's `leftOut`, or undefined when nothing is left out (a complete bundle's manifest is as it always was). */
export function manifestLeftOut(
  omitted: readonly OmittedEntry[],
  artifacts: readonly LeftOutArtifact[] | null,
): LeftOut | undefined {
  if (omitted.length === 0 && (artifacts === null || artifacts.length === 0)) return undefined;
  const entries = omitted.map((o) => ({
    seq: o.seq,
    entryHash: o.entryHash,
    author: o.author,
    decision: o.decision,
    status: o.status,
    reason: o.problem,
  }));
  return artifacts === null ? { entries } : { artifacts: [...artifacts], entries };
}

const ARTIFACT = ['path', 'reason'];
const ENTRY = ['seq', 'entryHash', 'author', 'decision', 'status', 'reason'];

/** The shape of a manifest's `leftOut` (closed, as the whole manifest is): `artifacts` required in a case bundle's. */
export function shapeLeftOut(p: Problems, v: unknown, inCase: boolean): void {
  const keys = inCase ? ['artifacts', 'entries'] : ['entries'];
  if (!p.members(v, '/leftOut', keys, keys)) return;
  if (inCase)
    p.array(v['artifacts'], '/leftOut/artifacts', (x, at) => {
      if (!p.members(x, at, ARTIFACT, ARTIFACT)) return;
      p.string(x['path'], `${at}/path`, { nonEmpty: true });
      p.string(x['reason'], `${at}/reason`, { nonEmpty: true });
    });
  p.array(v['entries'], '/leftOut/entries', (x, at) => {
    if (!p.members(x, at, ENTRY, ENTRY)) return;
    p.count(x['seq'], `${at}/seq`);
    p.string(x['entryHash'], `${at}/entryHash`, { pattern: HASH });
    p.string(x['author'], `${at}/author`, { nonEmpty: true });
    p.string(x['decision'], `${at}/decision`);
    p.oneOf(x['status'], `${at}/status`, STATUSES);
    p.string(x['reason'], `${at}/reason`, { nonEmpty: true });
  });
}

/** What an entry says it is, in words: its decision when it is one a judgement may make. */
const entryWords = (e: LeftOutEntry): string =>
  (JUDGEMENT_DECISIONS as readonly string[]).includes(e.decision)
    ? `${/^[aeiou]/.test(e.decision) ? 'an' : 'a'} ${e.decision}`
    : 'an entry';

/**
 * RPR-EVB-020 for each entry the manifest lists as left out: unavailable for a judgement the
 * bundle cannot prove (the bundle is incomplete), a warning for an entry that is no judgement
 * (no bundle could carry it, and the reader is told it exists).
 */
export function leftOutEntryFindings(left: LeftOut | undefined): Finding[] {
  return (left?.entries ?? []).map((e, i) => {
    const what = `journal entry seq ${e.seq} (${e.entryHash}), ${entryWords(e)} signed by ${e.author} on what the bundle carries`;
    const pointer = `${ptr(MEMBER.manifest)}#/leftOut/entries/${i}`;
    return e.status === 'unproven'
      ? unavailable(
          'RPR-EVB-020',
          `the bundle is incomplete: ${what}, is left out: no inclusion proof could be built for it (${e.reason}); export again once a checkpoint covers it`,
          { pointer },
        )
      : warning('RPR-EVB-020', `${what}, is left out: it is no judgement (${e.reason})`, { pointer });
  });
}

/**
 * RPR-EVB-020 (unavailable) for each artifact case.json says the case could not verify: the
 * bundle holds no report of it, and whatever the journal holds on its bytes could not be
 * placed, since nothing read them. Read from case.json itself, so a manifest that leaves the
 * list out (or a bundle written before there was one) still says it; the manifest's list must
 * be that one (`mismatch`, for RPR-EVB-017).
 */
export function leftOutArtifactFindings(
  c: CaseReport,
  left: LeftOut | undefined,
): { findings: Finding[]; mismatch: boolean } {
  const from = unverified(c);
  const listed = left?.artifacts ?? [];
  const mismatch =
    listed.length !== from.length ||
    from.some(({ artifact: a }, i) => listed[i]!.path !== a.path || listed[i]!.reason !== a.reason);
  const findings = from.map(({ at, artifact: a }) =>
    unavailable(
      'RPR-EVB-020',
      `the bundle is incomplete: ${a.path}, an artifact of the case, is left out: it could not be verified (${a.reason}), so the bundle holds no report of it, and no judgement on its bytes could be placed`,
      { pointer: `${ptr(CASE_MEMBER)}#/findings/${at}` },
    ),
  );
  return { findings, mismatch };
}

/**
 * `reprise export DIR --journal J --out case.zip`: one evidence bundle for a whole case
 * (docs/evidence-bundle.md, "The case bundle"): the case report (app/jobs/case.ts,
 * docs/case.md), every artifact's report, every judgement the journal holds on any of them
 * with its inclusion proof, and the journal's latest signed checkpoint. The artifacts are
 * verified once (in `--workers N` threads, or on this one), so each report is the one the
 * case names. Nothing is written to the journal.
 */
import { EXIT, type ExitCode, type Report } from '../../../shared/report.js';
import { UsageError } from '../../core/errors.js';
import { writeOutputFile } from '../../core/files.js';
import { hashBytes } from '../../core/hash.js';
import type { TrustStore } from '../../core/keys.js';
import { safeText } from '../../core/text.js';
import { openCaseBundle } from '../../engine/evidence.js';
import { caseWalk } from '../../engine/case/walk.js';
import { runCase } from '../../jobs/case.js';
import { intFlag } from '../args.js';
import type { CliIO } from '../io.js';
import { formatError } from '../output.js';
import type { LeftOutArtifact, OmittedEntry } from '../../engine/evidence.js';
import { inside, whereInCase } from './check-case.js';
import { engineOptions } from './check.js';
import type { EngineOptions } from '../../kinds/types.js';

export interface CaseExport {
  dir: string;
  journal: string;
  out: string;
  trust: TrustStore | null;
  values: Record<string, unknown>;
}

/**
 * The engine options of an export, read-only. Its `--journal` is the one the bundle is made
 * from: that reading says what is wrong with it (a folder holding no entries), so it is not
 * checked here as a folder flag first.
 */
export function exportEngineOptions(values: Record<string, unknown>): EngineOptions {
  const { journal, ...rest } = values;
  return { ...engineOptions(rest, false), ...(typeof journal === 'string' ? { journal } : {}) };
}

export async function exportCase(x: CaseExport, io: CliIO): Promise<ExitCode> {
  for (const flag of ['replay', 'report', 'attestation'])
    if (x.values[flag] !== undefined)
      throw new UsageError(`--${flag} is for one artifact; a case folder is exported with its own reports`);
  const inCase = (where: string): UsageError =>
    new UsageError(`--out ${x.out} ${where}, where the next run would take it for an artifact`);
  if (inside(x.out, x.dir)) throw inCase('is inside the case folder');
  // --journal names the journal whose judgements the bundle carries, not a journal for every
  // artifact's checks: the case is verified as `verify DIR --case` verifies it with the other
  // flags, so a manifest's anchor is decided against the journal of the case holding it.
  const { key: _key, out: _out, journal: _journal, ...options } = exportEngineOptions(x.values);
  // The journal is verified first: one that cannot prove judgements is refused before the case runs.
  const bundle = await openCaseBundle(x.journal, x.trust, options.limits);
  // A folder linked from inside the case is in it too: only its walk knows them all.
  const where = await whereInCase(x.out, x.dir, (await caseWalk(x.dir)).dirs);
  if (where !== null) throw inCase(where);
  const reports = new Map<string, Report>();
  const caseReport = await runCase(x.dir, {
    workers: intFlag(x.values['workers'], 'workers', 0, 64) ?? 0,
    reports: true,
    options,
    onArtifact: (o) => {
      if (o.ok && o.report) reports.set(o.part.artifact.path, o.report);
    },
  });
  const b = bundle(caseReport, reports);
  await writeOutputFile(x.out, b.bytes);
  sayOmitted(io, b.omitted, b.artifactsLeftOut);
  const summary = {
    out: x.out,
    sha256: hashBytes(b.bytes),
    case: { digest: b.reportDigest, verdict: caseReport.verdict, artifacts: caseReport.artifacts.length },
    judgements: b.judgements.map((j) => ({ seq: j.seq, decision: j.decision, artifact: j.entry.subject.artifact })),
    omitted: b.omitted.map(({ line: _line, ...o }) => o),
    artifactsLeftOut: b.artifactsLeftOut,
    checkpoint: { treeSize: b.checkpoint.treeSize, rootHash: b.checkpoint.rootHash },
  };
  if (x.values['json']) io.out(JSON.stringify(summary, null, 2) + '\n');
  else
    io.out(
      `case bundle ${safeText(x.out)} (${summary.sha256})\n  case ${b.reportDigest}: ${caseReport.verdict.toUpperCase()}, ${caseReport.artifacts.length} artifact(s)${incompleteWords(b.artifactsLeftOut.length)}\n  ${b.judgements.length} judgement(s), proven under checkpoint tree ${b.checkpoint.treeSize} root ${b.checkpoint.rootHash}\n  check it: reprise verify ${safeText(x.out)} --trust-store FILE\n`,
    );
  return exportExit(b.omitted, b.artifactsLeftOut);
}

const incompleteWords = (n: number): string =>
  n === 0 ? '' : `; INCOMPLETE: ${n} artifact(s) of the case could not be verified and are left out`;

/**
 * The exit code of an export that wrote its bundle (docs/evidence-bundle.md, "What a bundle
 * leaves out"): 3 when an artifact of the case could not be read or verified (an unreadable
 * path, as `reprise verify DIR` exits for one), 2 when a judgement is left out for want of an
 * inclusion proof (the bundle cannot decide it), else 0. An entry that is no judgement is
 * listed, and leaves the bundle complete: no bundle could carry it.
 */
export function exportExit(omitted: readonly OmittedEntry[], artifacts: readonly LeftOutArtifact[]): ExitCode {
  if (artifacts.length > 0) return EXIT.error;
  return omitted.some((o) => o.status === 'unproven') ? EXIT.unavailable : EXIT.pass;
}

/**
 * Each artifact of the case and each journal entry on what is exported that the bundle leaves
 * out, one stderr line each: the artifact could not be verified, the entry is no judgement or
 * has no inclusion proof. The person exporting is told which and why, as the manifest tells
 * the bundle's reader.
 */
export function sayOmitted(
  io: CliIO,
  omitted: readonly OmittedEntry[],
  artifacts: readonly LeftOutArtifact[] = [],
): void {
  for (const a of artifacts)
    io.err(
      formatError(
        `left out artifact ${a.path}: it could not be verified (${a.reason}), so the bundle holds no report of it and is incomplete (listed in its manifest)`,
      ),
    );
  for (const o of omitted) io.err(formatError(o.line));
}

/**
 * Verifying an exported report (docs/report-kind.md; rules in docs/rules/report.md): its
 * form (shared/report-shape.ts, held to docs/report.schema.json), that its verdict is the
 * one its findings make, and, when the artifact is given (`--artifact FILE`, never a file
 * found beside it: content decides, not names), that the artifact's SHA-256 is the
 * report's and that verifying it again (or replaying it, for a report with comparisons or
 * events that verify does not give) gives the same report without `run` and the path.
 * The report's own verdict is carried: a FAIL report never verifies as PASS (RPR-RPT-006).
 */
import type { ChainNode, Finding, JsonValue, Report } from '../../../shared/report.js';
import { carriedVerdictOf, integrityOf, verdictContradictions } from '../../../shared/details/carried.js';
import { diffJson, shownPlace } from '../../../shared/diff.js';
import { reportShapeProblems } from '../../../shared/report-shape.js';
import type { Verdict } from '../../../shared/report.js';
import { findingsOn } from '../../core/findings.js';
import type { JcsWarning } from '../../core/jcs.js';
import { stat } from 'node:fs/promises';
import { UsageError } from '../../core/errors.js';
import { hashFile } from '../../core/hash.js';
import type { KindResult } from '../../core/report.js';
import { reportDigest } from '../../journal/judgement.js';
import type { KindContext } from '../types.js';
import { REPORT_RULES } from './rule-ids.js';

const { fail, info, unavailable, changedNumbers } = findingsOn(REPORT_RULES);

/** Differences listed in a finding and the details: a few say where; all are counted. */
const SHOWN_DIFFERENCES = 20;

type RerunMode = 'verify' | 'replay';

/**
 * What the re-verification found: the mode that gave the same report (null when none did),
 * and the report made again that `digest` and the differences are of (`against`).
 */
interface Rerun {
  mode: RerunMode | null;
  against: RerunMode;
  digest: string | null;
  /** The verdict of the report made again (null when none was made): a saved report must never claim a better one. */
  verdict: Verdict | null;
  differences: { op: string; pointer: string; rightPointer?: string }[];
  total: number;
  /**
   * A report of an exported report that was checked against its own artifact: made again
   * without that artifact, which no option gives, it differs only where it depends on it.
   */
  innerArtifact?: true;
}

/** The report as its digest sees it: without `run` and the artifact's path (what two openings of the same bytes share). */
function comparable(r: Report): JsonValue {
  const { run: _run, artifact, ...rest } = r;
  const { path: _path, ...art } = artifact;
  return JSON.parse(JSON.stringify({ ...rest, artifact: art })) as JsonValue;
}

/** `again` (made in mode `against`) against the report: the same, or the differences. */
function compared(report: Report, again: Report, against: RerunMode): Rerun {
  const digest = reportDigest(again);
  const { verdict } = again;
  if (digest === reportDigest(report)) return { mode: against, against, digest, verdict, differences: [], total: 0 };
  const d = diffJson(comparable(report), comparable(again), { limit: SHOWN_DIFFERENCES });
  return {
    mode: null,
    against,
    digest,
    verdict,
    differences: d.differences.map(({ op, pointer, rightPointer }) =>
      rightPointer === undefined ? { op, pointer } : { op, pointer, rightPointer },
    ),
    total: d.total,
  };
}

/** The findings of an exported report's check that depend on its artifact (given, hashed, made again), or on its absence. */
const ON_THE_ARTIFACT: ReadonlySet<string> = new Set(['RPR-RPT-000', 'RPR-RPT-003', 'RPR-RPT-004', 'RPR-RPT-005']);

/**
 * A report of an exported report without what depends on the inner report's own artifact:
 * its verdict, the findings and chain nodes on that artifact, its integrity and rerun
 * details. What is left (the inner report's kind, id and hash, its form, its verdict word,
 * its carried verdict, its digest) is decided by the inner report's bytes alone.
 */
function apartFromInnerArtifact(r: Report): JsonValue {
  const { verdict: _v, findings: _f, chain: _c, details: _d, ...rest } = comparable(r) as { [k: string]: JsonValue };
  const d = r.details ?? {};
  // Findings and chain nodes are JSON data already: the cast types them, nothing is copied.
  const kept = {
    findings: r.findings.filter((f) => !ON_THE_ARTIFACT.has(f.rule)),
    chain: r.chain.filter((n) => n.id === 'report'),
  } as unknown as { [k: string]: JsonValue };
  return { ...rest, ...kept, details: { carried: d['carried'] ?? null, reportDigest: d['reportDigest'] ?? null } };
}

/**
 * Whether `report`, about an exported report checked against its own artifact (its chain
 * has an `artifact` node), differs from `again` (made without that artifact, which no
 * option can give: `--artifact` names the inner report) only where that artifact decides.
 */
function needsInnerArtifact(report: Report, again: Report): boolean {
  if (report.artifact.kind !== 'reprise-report' || !report.chain.some((n) => n.id === 'artifact')) return false;
  return diffJson(apartFromInnerArtifact(report), apartFromInnerArtifact(again), { limit: 1 }).total === 0;
}

/**
 * Verify, then (for a report verify does not give and that holds comparisons or events)
 * replay. When neither gives the report, the differences named are those of the closer
 * one: an edited replay report differs from its replay by the edit, and from a
 * verification by every comparison and event besides, which would hide the edit; an
 * edited verification (ACGP's has comparisons) is the reverse. A tie names the replay,
 * tried because the report holds what verify did not give.
 */
async function rerun(report: Report, path: string, ctx: KindContext): Promise<Rerun> {
  // Made again read-only: never signing or anchoring into a journal (key), never writing a file (out).
  // Nor as a file named alone: the artifact is an input of this check, not a file the user named.
  const { artifact: _a, key: _k, out: _o, alone: _alone, flagsTyped: _t, ...options } = ctx.options;
  const again = await ctx.rerun(path, 'verify', options);
  const verified = compared(report, again, 'verify');
  if (!verified.mode && needsInnerArtifact(report, again)) return { ...verified, innerArtifact: true };
  if (verified.mode || (report.comparisons === undefined && report.events === undefined)) return verified;
  const replayed = compared(report, await ctx.rerun(path, 'replay', options), 'replay');
  return replayed.mode || replayed.total <= verified.total ? replayed : verified;
}

/**
 * Whether the artifact given is the sort of thing the report is about: a directory for a
 * directory kind's report (a journal's, whose `artifact.sha256` is null), a file for any
 * other. The wrong sort, for one report named alone, is bad usage (exit 3) as an unreadable
 * `--artifact` is; among a folder's files, where `--artifact` is for every report, it is
 * RPR-RPT-004 for this one. Null when nothing more is checked (a finding says why).
 */
async function artifactSort(
  report: Report,
  path: string,
  ctx: KindContext,
  findings: Finding[],
): Promise<'file' | 'directory' | null> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (e) {
    findings.push(unreadable(path, e));
    return null;
  }
  const aboutDirectory = report.artifact.sha256 === null;
  if (isDirectory === aboutDirectory) return isDirectory ? 'directory' : 'file';
  const what = isDirectory
    ? `is a directory, and the report is about a file (kind ${report.artifact.kind}): give that file`
    : `is a file, and the report is about a directory (kind ${report.artifact.kind}): give that directory`;
  const flag = ctx.options.optionWords?.artifact ?? '--artifact';
  if (ctx.options.alone) throw new UsageError(`${flag} ${path} ${what}`, 'refused');
  findings.push(
    fail('RPR-RPT-004', `the artifact given is not the report's: it ${what}`, {
      pointer: '/artifact/sha256',
      expected: report.artifact.sha256,
    }),
  );
  return null;
}

/** RPR-RPT-004 unavailable: the artifact given, found readable before the run, cannot be read now. */
function unreadable(path: string, e: unknown): Finding {
  return unavailable(
    'RPR-RPT-004',
    `the artifact ${path} cannot be read: ${(e as NodeJS.ErrnoException).code ?? 'error'}`,
  );
}

/** The artifact given: its hash against the report's, then the report made again from it. */
async function checkArtifact(report: Report, ctx: KindContext, findings: Finding[], chain: ChainNode[]) {
  const path = ctx.options.artifact;
  if (path === undefined) {
    // Fail-closed: a report checked against nothing says what it says; a consistent edit
    // (its failing findings removed with its verdict) would pass the form, so no PASS here.
    findings.push(
      unavailable(
        'RPR-RPT-003',
        'no artifact given (--artifact FILE): the report was checked for its form only, so what it says cannot be decided here',
      ),
    );
    return null;
  }
  const named = report.artifact.sha256;
  const given = await artifactSort(report, path, ctx, findings);
  if (given === null) return null;
  if (given === 'directory') {
    // A directory kind's report (a journal's) names no SHA-256: the directory is checked by
    // verifying it again as the report says, its kind and id among what must be the same.
    chain.push({
      id: 'artifact',
      label: `the artifact given (${path}), a directory: no SHA-256 to compare, verified again below`,
      recorded: null,
      recomputed: null,
      status: 'unresolved',
      parents: ['report'],
    });
    return rerun(report, path, ctx);
  }
  let got: string;
  try {
    got = await hashFile(path);
  } catch (e) {
    findings.push(unreadable(path, e));
    return null;
  }
  chain.push({
    id: 'artifact',
    label: `the artifact given (${path})`,
    recorded: named,
    recomputed: got,
    status: named === got ? 'match' : 'mismatch',
    parents: ['report'],
    pointer: '/artifact/sha256',
  });
  if (named !== got) {
    findings.push(
      fail('RPR-RPT-004', "the artifact given is not the report's: its SHA-256 differs", {
        pointer: '/artifact/sha256',
        expected: named,
        actual: got,
      }),
    );
    return null;
  }
  return rerun(report, path, ctx);
}

function rerunFindings(r: Rerun, want: string, findings: Finding[], chain: ChainNode[]): void {
  chain.push({
    id: 'reverified',
    label: `the report made again (${r.against})`,
    recorded: want,
    recomputed: r.digest,
    status: r.mode ? 'match' : r.innerArtifact ? 'unresolved' : 'mismatch',
    parents: ['report', 'artifact'],
  });
  if (r.mode) return;
  if (r.innerArtifact) {
    // Fail-closed, never FAIL for an intact report: what the inner artifact decides is undecided here.
    findings.push(
      unavailable(
        'RPR-RPT-005',
        `the artifact is an exported report that this report checked against its own artifact, which cannot be given here (--artifact names the inner report): made again without it, the report agrees in everything but what that artifact decides (${r.total} difference(s)); check the inner report against its own artifact (reprise verify INNER --artifact FILE)`,
        { pointer: r.differences[0]?.pointer ?? '', expected: want, actual: r.digest },
      ),
    );
    return;
  }
  const where = r.differences
    .slice(0, 5)
    .map((d) => `${d.op} ${d.pointer === '' ? '(the whole report)' : shownPlace(d)}`)
    .join(', ');
  findings.push(
    fail(
      'RPR-RPT-005',
      `${r.against === 'replay' ? 'replaying' : 'verifying'} the artifact again gives another report: ${r.total} difference(s)${where ? `, first ${where}` : ''} (give the options it was made with: --trust-store, --providers…)`,
      { pointer: r.differences[0]?.pointer ?? '', expected: want, actual: r.digest },
    ),
  );
}

/** The report's own verdict, carried (the severity of RPR-RPT-006 is the carried verdict). */
function carried(report: Report, findings: Finding[]): void {
  if (report.verdict === 'pass') return;
  const c = carriedVerdictOf(report);
  const make = report.verdict === 'fail' ? fail : unavailable;
  findings.push(
    make(
      'RPR-RPT-006',
      `the report's own verdict is ${report.verdict.toUpperCase()}${c.decisive ? `: ${c.decisive.rule} ${c.decisive.message}` : ''}`,
      { pointer: c.decisive ? `/findings/${c.decisive.index}` : '/verdict' },
    ),
  );
}

/**
 * A report whose stated verdict its findings do not make, or that says better than the
 * integrity verdict it carries (shared/details/carried.ts, verdictContradictions).
 */
function contradicted(report: Report, findings: Finding[]): void {
  for (const c of verdictContradictions(report))
    findings.push(
      c.by === 'findings'
        ? fail('RPR-RPT-002', "the report's verdict is not the one its findings make", {
            pointer: '/verdict',
            expected: c.made,
            actual: report.verdict,
          })
        : fail('RPR-RPT-002', `the report's verdict is better than the integrity verdict it carries (${c.integrity})`, {
            pointer: '/details/integrity/verdict',
            expected: c.integrity,
            actual: report.verdict,
          }),
    );
}

/** Verifies the exported report `doc` (`refused`: why the strict parse refused it, null when it accepted it). */
export async function verifyReport(
  doc: Record<string, unknown> | null,
  refused: string | null,
  ctx: KindContext,
  changed: readonly JcsWarning[] = [],
): Promise<KindResult> {
  const findings: Finding[] = [];
  if (refused !== null)
    findings.push(fail('RPR-RPT-001', `the report is not strict JSON (RFC 8259 and I-JSON): ${refused}`));
  // A report Reprise writes holds doubles written as JSON.stringify writes them: a number whose
  // text its double does not keep was written by something else, and its digest is the double's.
  findings.push(
    ...changedNumbers(changed, {
      rule: 'RPR-RPT-001',
      subject: 'the report',
      severity: 'fail',
      note: 'no report Reprise writes holds one, and its digest would be of the double',
    }),
  );
  for (const p of reportShapeProblems(doc, { runOptional: true }))
    findings.push(
      fail('RPR-RPT-001', `${p.pointer === '' ? 'the report' : p.pointer} ${p.message}`, { pointer: p.pointer }),
    );
  if (findings.length > 0) return { id: null, findings, chain: [] } satisfies KindResult;
  const report = doc as unknown as Report;
  const want = reportDigest(report);
  const chain: ChainNode[] = [
    {
      id: 'report',
      label: 'the report (digest without run and path)',
      recorded: want,
      recomputed: want,
      status: 'match',
      parents: [],
    },
  ];
  contradicted(report, findings);
  const r = await checkArtifact(report, ctx, findings, chain);
  if (r) rerunFindings(r, want, findings, chain);
  const own = [...findings];
  if (!own.some((f) => f.severity === 'fail' || f.severity === 'unavailable'))
    findings.push(
      info('RPR-RPT-000', r ? `the artifact gives this report again (${r.mode})` : 'the report is well-formed'),
    );
  carried(report, findings);
  const details = {
    integrity: integrityOf(
      own,
      ctx.options.trustStore !== undefined,
      r ? `the artifact given gives this report again (${r.mode})` : 'well-formed; checked against no artifact',
    ),
    carried: carriedVerdictOf(report),
    reportDigest: want,
    rerun: r
      ? {
          mode: r.mode,
          against: r.against,
          digest: r.digest,
          verdict: r.verdict,
          total: r.total,
          differences: r.differences,
        }
      : null,
  };
  return {
    id: report.artifact.sha256,
    findings,
    chain,
    details: details as unknown as KindResult['details'],
  } satisfies KindResult;
}

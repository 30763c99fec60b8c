/**
 * Writing a case bundle (docs/evidence-bundle.md, "The case bundle"): one evidence bundle
 * for a whole case: the case report, every artifact's report (without `run`), every
 * judgement the journal holds on any artifact of the case (or a part of one) with its inclusion proof, the
 * journal's latest signed checkpoint, and a page of it all for a reader without Reprise
 * (case-html.ts). Deterministic like a bundle of one artifact: the same case report,
 * reports and journal give the same bytes.
 */
import type { CaseReport } from '../../../shared/case.js';
import type { Report } from '../../../shared/report.js';
import { hashBytes, hashValue } from '../../core/hash.js';
import { canonicalizeValue } from '../../core/jcs.js';
import type { TrustStore } from '../../core/keys.js';
import { JournalError } from '../../journal/errors.js';
import type { Checkpoint } from '../../journal/format.js';
import { judgementsIn, reportDigest, type JudgementRecord } from '../../journal/judgement.js';
import type { InclusionProof } from '../../journal/proofs.js';
import type { JournalVerification } from '../../journal/verify.js';
import { caseBundleHtml } from './case-html.js';
import { caseSubjects } from './case-subjects.js';
import { countedJudgements, provableJournal, provenProofs, refuseUnnamedItems } from './write.js';
import { writeZip } from '../../zip/writer.js';
import { checkMemberCount, checkReadable } from './limits.js';
import { caseArtifactsLeftOut, manifestLeftOut } from './left-out.js';
import type { BundledReport, CaseBundler, JournalBundle, OmittedEntry } from '../operations.js';
import {
  CASE_BUNDLE_TYPE,
  CASE_HTML_MEMBER,
  CASE_MEMBER,
  caseReportMember,
  judgementMember,
  MEMBER,
  type CaseBundleManifest,
} from './format.js';

export interface CaseBundleInput {
  caseReport: CaseReport;
  /** Each artifact's report, by its path in the case (CaseArtifact.path). */
  reports: ReadonlyMap<string, Report | BundledReport>;
  proofs: readonly InclusionProof[];
  checkpoint: Checkpoint;
  /** `--limit` overrides: the bundle must be one its verifier reads under them (limits.ts). */
  limits?: Record<string, number>;
  /** The journal's entries on the case left out (countedJudgements): listed in the manifest's `leftOut`. */
  omitted?: readonly OmittedEntry[];
}

const jsonMember = (v: unknown): Buffer => Buffer.from(canonicalizeValue(v) + '\n', 'utf8');
const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The reports in the case report's artifact order, without `run`; throws (USAGE) when one is missing or another. */
function orderedReports(input: CaseBundleInput): BundledReport[] {
  return input.caseReport.artifacts.map((a) => {
    const r = input.reports.get(a.path);
    if (!r) throw new JournalError(`the case's artifact ${a.path} has no report to bundle`, 'USAGE');
    const { run: _run, ...rest } = r as Report;
    const report = JSON.parse(canonicalizeValue(rest)) as BundledReport;
    if (reportDigest(report) !== a.reportDigest)
      throw new JournalError(`the report given for ${a.path} is not the one the case report names`, 'USAGE');
    return report;
  });
}

/**
 * The case bundle's bytes. Throws (USAGE) when a report is missing or a proof is not against
 * `checkpoint`; (REFUSED) when its verifier would refuse the archive under `input.limits`.
 * Every artifact the case could not verify, and every entry left out, is listed in the
 * manifest's `leftOut` (left-out.ts).
 */
export function writeCaseBundle(input: CaseBundleInput): Buffer {
  // Counted before any report is copied: a case too large to verify is refused at once.
  checkMemberCount(
    input.caseReport.artifacts.length + input.proofs.length + 4,
    `the manifest, case.json, case.html, the checkpoint, ${input.caseReport.artifacts.length} report(s) and ${input.proofs.length} judgement(s)`,
    'export the case in parts of fewer artifacts (one folder each)',
    input.limits,
  );
  const reports = orderedReports(input);
  const cpText = canonicalizeValue(input.checkpoint);
  const proofs = [...input.proofs].sort((a, b) => a.leafIndex - b.leafIndex);
  for (const p of proofs)
    if (canonicalizeValue(p.checkpoint) !== cpText)
      throw new JournalError(`the proof of entry ${p.leafIndex} is not against the bundle's checkpoint`, 'USAGE');
  const digest = hashValue(input.caseReport);
  const page = caseBundleHtml(input.caseReport, digest, proofs, input.checkpoint);
  const files = [
    { name: CASE_MEMBER, data: jsonMember(input.caseReport) },
    { name: CASE_HTML_MEMBER, data: Buffer.from(page, 'utf8') },
    { name: MEMBER.checkpoint, data: jsonMember(input.checkpoint) },
    ...reports.map((r, i) => ({ name: caseReportMember(i), data: jsonMember(r) })),
    ...proofs.map((p) => ({ name: judgementMember(p.leafIndex), data: jsonMember(p) })),
  ].sort(byName);
  const manifest: CaseBundleManifest = {
    type: CASE_BUNDLE_TYPE,
    case: {
      verdict: input.caseReport.verdict,
      artifacts: input.caseReport.artifacts.length,
      digest,
    },
    reports: input.caseReport.artifacts.map((a, i) => ({
      member: caseReportMember(i),
      path: a.path,
      sha256: a.sha256,
      reportDigest: a.reportDigest,
    })),
    checkpoint: { treeSize: input.checkpoint.treeSize, rootHash: input.checkpoint.rootHash },
    members: files.map((f) => ({ name: f.name, sha256: hashBytes(f.data), size: f.data.length })),
  };
  const leftOut = manifestLeftOut(input.omitted ?? [], caseArtifactsLeftOut(input.caseReport));
  if (leftOut) manifest.leftOut = leftOut;
  return checkReadable(writeZip([{ name: MEMBER.manifest, data: jsonMember(manifest) }, ...files]), input.limits);
}

/**
 * Refuses (REFUSED) a case none of whose artifacts could be verified: its bundle would hold no
 * report, and case.json would list no artifact, which its verifier refuses (RPR-EVB-017).
 * Each artifact is named, with why, as the bundle would list it.
 */
function refuseNothingVerified(c: CaseReport): void {
  if (c.artifacts.length > 0) return;
  const why = caseArtifactsLeftOut(c)
    .map((a) => `${a.path} (${a.reason})`)
    .join('; ');
  throw new JournalError(
    `no artifact of the case could be verified, so there is no report to bundle: ${why || 'the case holds none'}`,
    'REFUSED',
  );
}

/**
 * Every judgement the journal holds on the case's artifacts, on a part of one, or on the case
 * itself by its digest (case-subjects.ts), and the entries among them left out as no judgement
 * (countedJudgements: a body that is none, a signer that may not sign one). Refused
 * (JournalError) like a bundle of one artifact: a journal that does not verify or has no
 * checkpoint, and a judgement that names a report the bundle will not hold: another report of
 * an artifact than the case's (other engine options), on a part, the part's own report (its
 * pointer would name an item of neither), or, on the case, any digest but the case's.
 */
function caseJudgements(
  caseReport: CaseReport,
  digest: string,
  v: JournalVerification,
  trust: TrustStore | null,
): { judgements: JudgementRecord[]; omitted: OmittedEntry[] } {
  const subjects = caseSubjects(caseReport, digest);
  const judged = new Set<string | undefined>();
  for (const p of v.entries) if (p.entry.kind === 'review-rationale') judged.add(p.entry.subject.artifact);
  const { judgements: all, omitted } = countedJudgements(
    [...subjects.keys()].filter((s) => judged.has(s)).flatMap((s) => judgementsIn(v, s, trust)),
  );
  const other = all.filter((j) => {
    if (j.reportDigest === null) return false;
    if (j.entry.subject.artifact === digest) return j.reportDigest !== digest;
    const held = subjects.get(j.entry.subject.artifact!)!;
    return !held.some((i) => caseReport.artifacts[i]!.reportDigest === j.reportDigest);
  });
  if (other.length > 0) {
    const list = other.map((j) => `seq ${j.seq} (${j.reportDigest})`).join(', ');
    throw new JournalError(
      `judgement(s) ${list} name a report the case does not hold: another report of a case artifact (judged under other engine options: export with those), a part's own report (add the part to the case as a file), or, on the case itself, a digest other than its own`,
      'REFUSED',
    );
  }
  return { judgements: all.sort((a, b) => a.seq - b.seq), omitted: omitted.sort((a, b) => a.seq - b.seq) };
}

/**
 * The journal a case bundle proves its judgements under, verified before the case runs
 * (refused with JournalError when it holds no entries, does not verify or has no
 * checkpoint: a case of thousands of artifacts must not run to its end to learn that), and
 * the bundler that then writes the bundle of the case against that verification: the
 * judgements it held, under the checkpoint it had.
 */
export async function openCaseBundle(
  journal: string,
  trust: TrustStore | null,
  limits?: Record<string, number>,
): Promise<CaseBundler> {
  const { v, checkpoint } = await provableJournal(journal, trust);
  return (caseReport, reports) => caseBundleOf(caseReport, reports, { v, checkpoint, trust, limits });
}

/** The case bundle of `caseReport` and its artifacts' `reports`, with the judgements `v` holds on them under `checkpoint`. */
function caseBundleOf(
  caseReport: CaseReport,
  reports: ReadonlyMap<string, Report | BundledReport>,
  j: { v: JournalVerification; checkpoint: Checkpoint; trust: TrustStore | null; limits?: Record<string, number> },
): JournalBundle {
  const { checkpoint } = j;
  refuseNothingVerified(caseReport);
  const digest = hashValue(caseReport);
  const { judgements, omitted } = caseJudgements(caseReport, digest, j.v, j.trust);
  // Each names the case report (a judgement on the case) or its artifact's report by digest.
  const byDigest = new Map<string, Pick<Report, 'findings'>>([[digest, caseReport]]);
  for (const a of caseReport.artifacts) {
    const r = reports.get(a.path);
    if (r) byDigest.set(a.reportDigest, r);
  }
  refuseUnnamedItems(judgements.map((x) => ({ j: x, report: byDigest.get(x.reportDigest ?? '') ?? null })));
  const bytes = writeCaseBundle({
    caseReport,
    reports,
    proofs: provenProofs(j.v.dir, judgements),
    checkpoint,
    limits: j.limits,
    omitted,
  });
  return {
    bytes,
    judgements,
    checkpoint,
    reportDigest: digest,
    omitted,
    artifactsLeftOut: caseArtifactsLeftOut(caseReport),
  };
}

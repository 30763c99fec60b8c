/**
 * A case bundle's case report (`case.json`) against the rest of the bundle
 * (docs/evidence-bundle.md, "The case bundle"). Nothing signed covers it: anyone can write a
 * consistent one with every digest recomputed. So everything the bundle can recompute is
 * recomputed and compared: its form (docs/case.schema.json, before anything reads it), its
 * digest and verdict against the manifest, its verdict against its artifacts and findings
 * (as the assembly makes it), each artifact against its bundled report (kind, id, SHA-256,
 * verdict, counts, digest), the artifacts every link, event and judgement names, and each
 * judgement it lists against the signed entry a proof of the bundle carries.
 */
import { CASE_SCHEMA, type CaseArtifact, type CaseJudgement, type CaseReport } from '../../../shared/case.js';
import { caseShapeProblems } from '../../../shared/case-shape.js';
import { Problems } from '../../../shared/report-shape.js';
import { verdictOf, type Finding, type JsonValue } from '../../../shared/report.js';
import { findingsOn } from '../../core/findings.js';
import { hashValue } from '../../core/hash.js';
import { entryHash, type Entry } from '../../journal/format.js';
import { reportDigest } from '../../journal/judgement.js';
import { CASE_MEMBER, caseReportMember, MEMBER, type CaseBundleManifest } from './format.js';
import { EVIDENCE_BUNDLE_RULES } from './rule-ids.js';
import { bundledReport, checkReportArtifact, memberJson, ptr, R, type Judged, type State } from './verify.js';
import type { BundledReport } from './write.js';

const { fail, warning } = findingsOn(EVIDENCE_BUNDLE_RULES);

export type Bundled = { report: BundledReport; digest: string };

/** A pointer into case.json (the member itself for its root). */
export const inCase = (pointer: string): string =>
  pointer === '' ? ptr(CASE_MEMBER) : `${ptr(CASE_MEMBER)}#${pointer}`;

/** The case report when it is one (every problem of its form a finding, before anything reads it), checked against the manifest and itself. */
export function checkCase(st: State, manifest: CaseBundleManifest): CaseReport | null {
  const v = memberJson(st, CASE_MEMBER, R.case);
  if (v === null) return null;
  const problems = caseShapeProblems(v);
  const c = problems.length === 0 ? (v as CaseReport) : null;
  if (c) problems.push(...referenceProblems(c));
  for (const p of problems)
    st.findings.push(
      fail(R.case, `${CASE_MEMBER} is not a ${CASE_SCHEMA} report: ${p.pointer || '/'} ${p.message}`, {
        pointer: inCase(p.pointer),
      }),
    );
  if (c) checkAgainstManifest(st, c, manifest);
  return c;
}

/** Its digest, verdict and artifacts against the manifest's, and its verdict against what its artifacts and findings make. */
function checkAgainstManifest(st: State, c: CaseReport, manifest: CaseBundleManifest): void {
  const digest = hashValue(c);
  if (digest !== manifest.case.digest)
    st.findings.push(
      fail(R.case, "the case report's digest differs from the manifest's", {
        pointer: ptr(CASE_MEMBER),
        expected: manifest.case.digest,
        actual: digest,
      }),
    );
  // The assembly's rule (app/engine/case/assemble.ts): the worst of the artifacts' verdicts and the case's findings.
  const made = verdictOf([
    ...c.artifacts.map((a) => ({ severity: a.verdict === 'pass' ? ('info' as const) : a.verdict })),
    ...c.findings,
  ]);
  if (c.verdict !== made || c.verdict !== manifest.case.verdict)
    st.findings.push(
      fail(R.case, "the case's verdict is not the one its artifacts and findings make, or not the manifest's", {
        pointer: inCase('/verdict'),
        expected: made,
        actual: c.verdict,
      }),
    );
  if (c.artifacts.length !== manifest.reports.length || c.artifacts.length !== manifest.case.artifacts)
    st.findings.push(
      fail(R.case, 'the manifest lists another number of reports than the case holds artifacts', {
        pointer: ptr(MEMBER.manifest),
        expected: c.artifacts.length,
        actual: manifest.reports.length,
      }),
    );
  c.artifacts.forEach((a, i) => {
    const want = { member: caseReportMember(i), path: a.path, sha256: a.sha256, reportDigest: a.reportDigest };
    const got = manifest.reports[i];
    if (got && (Object.keys(want) as (keyof typeof want)[]).every((k) => got[k] === want[k])) return;
    st.findings.push(
      fail(R.case, `the manifest's report ${i} is not the case's artifact ${a.path}`, {
        pointer: ptr(MEMBER.manifest),
        expected: want,
        actual: (got ?? null) as JsonValue,
      }),
    );
  });
}

/**
 * What case.json names that is not of the case: artifacts out of path order (or listed
 * twice), a link, event or judgement naming a path no artifact has, an event of another kind
 * than its artifact's, a judgement on an artifact's bytes placed in another artifact.
 */
function referenceProblems(c: CaseReport): { pointer: string; message: string }[] {
  const p = new Problems();
  const kinds = new Map(c.artifacts.map((a) => [a.path, a.kind]));
  const known = (path: string | null, at: string): void => {
    if (path !== null && !kinds.has(path)) p.add(at, `names ${path}, which is no artifact of the case`);
  };
  if (c.artifacts.length === 0) p.add('/artifacts', 'lists no artifact: a case holds at least one');
  c.artifacts.forEach((a, i) => {
    if (i > 0 && !(c.artifacts[i - 1]!.path < a.path))
      p.add(`/artifacts/${i}/path`, 'is not after the path before it (artifacts are sorted by path, each once)');
  });
  c.links.forEach((l, i) => {
    known(l.from.artifact, `/links/${i}/from/artifact`);
    known(l.to.artifact, `/links/${i}/to/artifact`);
  });
  c.timeline.forEach((e, i) => {
    const kind = kinds.get(e.artifact);
    if (kind === undefined) known(e.artifact, `/timeline/${i}/artifact`);
    else if (kind !== e.kind) p.add(`/timeline/${i}/kind`, `is not the kind of ${e.artifact} (${kind})`);
  });
  judgementProblems(p, c, known);
  return p.list;
}

/** A listed judgement's journal and artifact are of the case; one on an artifact's bytes is placed in the first holding them (as the assembly places it). */
function judgementProblems(p: Problems, c: CaseReport, known: (path: string | null, at: string) => void): void {
  const holder = new Map<string, string>();
  for (const a of c.artifacts) if (a.sha256 !== null && !holder.has(a.sha256)) holder.set(a.sha256, a.path);
  c.judgements.forEach((j, i) => {
    known(j.journal, `/judgements/${i}/journal`);
    known(j.artifact, `/judgements/${i}/artifact`);
    const h = holder.get(j.subject);
    if (h !== undefined && j.artifact !== h)
      p.add(`/judgements/${i}/artifact`, `is not ${h}, the first artifact whose bytes its subject is`);
  });
}

/** How many findings of each severity: what the case names as an artifact's counts. */
function countsOf(findings: readonly Finding[]): CaseArtifact['counts'] {
  const counts = { fail: 0, unavailable: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

/** Artifact `i`'s bundled report: well-formed, and the artifact, digest, verdict and counts the case names. */
export function checkCaseReport(st: State, a: CaseArtifact, i: number): Bundled | null {
  const member = caseReportMember(i);
  const report = bundledReport(st, member);
  if (report === null) return null;
  const digest = reportDigest(report);
  if (digest !== a.reportDigest)
    st.findings.push(
      fail(R.report, `${member}: its digest is not the one the case names for ${a.path}`, {
        pointer: ptr(member),
        expected: a.reportDigest,
        actual: digest,
      }),
    );
  // A directory kind's report names no SHA-256 (the case takes its entries file's from its facts): kind and id say it.
  const sha256 = report.artifact.sha256 === null ? null : a.sha256;
  checkReportArtifact(st, member, report.artifact, { ...a, sha256 }, `the case's artifact ${a.path}`);
  // The report digest leaves the path out (the same bytes opened anywhere are one report), so
  // what binds a report to its place in the case is this check: a case bundle's reports name
  // their artifacts by their paths in the case, and one about another path is another's.
  if (report.artifact.path !== a.path)
    st.findings.push(
      fail(R.report, `${member} is about another artifact than the case's artifact ${a.path}: its path differs`, {
        pointer: `${ptr(member)}#/artifact/path`,
        expected: a.path,
        actual: report.artifact.path ?? null,
      }),
    );
  checkTotals(st, member, report, a);
  return { report, digest };
}

/** The report's verdict is the one its findings make and the case's, and its findings are the counts the case names. */
function checkTotals(st: State, member: string, report: BundledReport, a: CaseArtifact): void {
  if (report.verdict !== verdictOf(report.findings) || report.verdict !== a.verdict)
    st.findings.push(
      fail(R.report, `${member}: its verdict is not the one its findings make, or not the case's for ${a.path}`, {
        pointer: `${ptr(member)}#/verdict`,
        expected: a.verdict,
        actual: report.verdict,
      }),
    );
  const counts = countsOf(report.findings);
  if ((Object.keys(counts) as (keyof typeof counts)[]).some((k) => counts[k] !== a.counts[k]))
    st.findings.push(
      fail(R.report, `${member}: its findings are not the counts the case names for ${a.path}`, {
        pointer: ptr(member),
        expected: a.counts,
        actual: counts,
      }),
    );
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A listed judgement as its signed entry says it (the journal's case facts read it so: app/kinds/journal/case-facts.ts). */
function signedListing(e: Entry): Omit<CaseJudgement, 'journal' | 'artifact' | 'entryHash'> {
  return {
    seq: e.seq,
    subject: e.subject.artifact ?? '',
    decision: text(e.body['decision']) ?? '',
    rationale: text(e.body['rationale']) ?? '',
    author: e.author,
    atUtc: e.recordedAtUtc,
    supersedes: text(e.body['supersedes']),
  };
}

/**
 * Each judgement case.json lists against the signed entry a proof of the bundle carries
 * (by entry hash): what it says of it must be what was signed (017). One it lists that no
 * proof carries (another journal of the case, an entry after the checkpoint) is the case
 * report's word only, and said so (018).
 */
export function checkListedJudgements(st: State, c: CaseReport, judged: readonly Judged[]): void {
  const signed = new Map(judged.map((j) => [entryHash(j.entry), j]));
  const unproven: number[] = [];
  c.judgements.forEach((j, i) => {
    const e = signed.get(j.entryHash);
    if (!e) return void unproven.push(i);
    const want = signedListing(e.entry);
    for (const k of Object.keys(want) as (keyof typeof want)[])
      if (j[k] !== want[k])
        st.findings.push(
          fail(R.case, `${CASE_MEMBER} lists the judgement of ${e.member} with another ${k} than it signed`, {
            pointer: inCase(`/judgements/${i}/${k}`),
            expected: want[k],
            actual: j[k],
          }),
        );
  });
  if (unproven.length > 0)
    st.findings.push(
      warning(
        R.unproven,
        `${CASE_MEMBER} lists ${unproven.length} judgement(s) that no proof in the bundle carries: what it says of them is signed by no one`,
        { pointer: inCase(`/judgements/${unproven[0]}`) },
      ),
    );
}

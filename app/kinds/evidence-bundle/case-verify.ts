/**
 * Verifying a case bundle offline (docs/evidence-bundle.md, "The case bundle"), and the
 * kind's one entry point for either bundle (`verifyEvidence`: the manifest's type says
 * which). A case bundle is checked as a bundle of one artifact is, member by member: the
 * manifest and every member's digest; the case report against the manifest and against
 * the reports it bundles (each artifact's report, its digest and verdict); the signed
 * checkpoint; every judgement's proof, signature, signer, and that it is about an artifact
 * of the case and names that artifact's bundled report. The case's own verdict is carried
 * (RPR-EVB-016): a bundle of a failing case never verifies as PASS.
 */
import { CASE_SCHEMA, type CaseArtifact, type CaseReport } from '../../../shared/case.js';
import { carriedVerdictOf, integrityOf, type CarriedVerdict } from '../../../shared/details/carried.js';
import { reportShapeProblems } from '../../../shared/report-shape.js';
import { verdictOf, type Finding, type Report } from '../../../shared/report.js';
import { isPlainObject as isObj } from '../../core/closed.js';
import { findingsOn } from '../../core/findings.js';
import { hashValue, isHashString } from '../../core/hash.js';
import type { TrustStore } from '../../core/keys.js';
import type { KindResult } from '../../core/report.js';
import type { Checkpoint, Entry } from '../../journal/format.js';
import { reportDigest } from '../../journal/judgement.js';
import type { ZipSource } from '../../zip/source.js';
import { caseBundleHtml } from './case-html.js';
import { judgementDetails } from './details.js';
import {
  CASE_BUNDLE_TYPE,
  CASE_HTML_MEMBER,
  CASE_MEMBER,
  CASE_REPORT_MEMBER_RE,
  caseReportMember,
  JUDGEMENT_MEMBER_RE,
  MEMBER,
  type CaseBundleManifest,
} from './format.js';
import { EVIDENCE_BUNDLE_RULES } from './rule-ids.js';
import {
  carriedFinding,
  checkCheckpoint,
  checkJudgement,
  checkPage,
  checkpointAuthenticity,
  memberJson,
  ptr,
  R,
  readBundle,
  shapedManifest,
  verifySingle,
  type State,
} from './verify.js';
import type { BundledReport } from './write.js';

const { fail, info, warning } = findingsOn(EVIDENCE_BUNDLE_RULES);

type Bundled = { report: BundledReport; digest: string };

/** Verifies either bundle in `archive`: a case bundle, or the bundle of one artifact. */
export async function verifyEvidence(
  archive: Buffer | ZipSource,
  trust: TrustStore | null,
  limits?: Record<string, number>,
): Promise<KindResult> {
  const read = await readBundle(archive, trust, limits);
  if (!('st' in read)) return read;
  const head = read.st.members.get(MEMBER.manifest);
  let type: unknown = null;
  try {
    type = head ? (JSON.parse(head.toString('utf8')) as { type?: unknown }).type : null;
  } catch {
    /* the bundle's own check reports an unreadable manifest */
  }
  return type === CASE_BUNDLE_TYPE ? verifyCaseBundle(read.st, read.names) : verifySingle(read.st, read.names);
}

const isStr = (v: unknown): v is string => typeof v === 'string';

/** The manifest of a case bundle, its members checked against it; null with a finding when it is none. */
function caseManifest(st: State, names: readonly string[]): CaseBundleManifest | null {
  const manifest = shapedManifest<CaseBundleManifest>(
    st,
    names,
    (m) =>
      isObj(m['case']) &&
      isHashString(m['case']['digest']) &&
      isObj(m['checkpoint']) &&
      Array.isArray(m['reports']) &&
      m['reports'].every((x) => isObj(x) && isStr(x['member']) && isStr(x['path']) && isStr(x['reportDigest'])),
    CASE_BUNDLE_TYPE,
    'type, case, reports, checkpoint, members',
  );
  if (manifest === null) return null;
  const reportMembers = new Set(manifest.reports.map((r) => r.member));
  for (const n of names)
    if (
      n !== MEMBER.manifest &&
      n !== CASE_MEMBER &&
      n !== CASE_HTML_MEMBER &&
      n !== MEMBER.checkpoint &&
      !(CASE_REPORT_MEMBER_RE.test(n) && reportMembers.has(n)) &&
      !JUDGEMENT_MEMBER_RE.test(n)
    )
      st.findings.push(
        fail(R.members, `${n} is no member a case bundle holds (nor a report of its case)`, { pointer: ptr(n) }),
      );
  return manifest;
}

/** The case report: its form, its digest and verdict against the manifest, its verdict against its own parts. */
function checkCase(st: State, manifest: CaseBundleManifest): CaseReport | null {
  const c = memberJson(st, CASE_MEMBER, R.case);
  if (c === null) return null;
  const at = { pointer: ptr(CASE_MEMBER) };
  const ok =
    isObj(c) &&
    c['schema'] === CASE_SCHEMA &&
    (c['mode'] === undefined || c['mode'] === 'verify' || c['mode'] === 'replay') &&
    ['pass', 'fail', 'unavailable'].includes(String(c['verdict'])) &&
    Array.isArray(c['findings']) &&
    Array.isArray(c['artifacts']) &&
    c['artifacts'].every(
      (a) => isObj(a) && isStr(a['path']) && isStr(a['sha256']) && isStr(a['reportDigest']) && isStr(a['verdict']),
    );
  if (!ok) return (st.findings.push(fail(R.case, `${CASE_MEMBER} is not a ${CASE_SCHEMA} report`, at)), null);
  const report = c as unknown as CaseReport;
  if (hashValue(report) !== manifest.case.digest)
    st.findings.push(
      fail(R.case, "the case report's digest differs from the manifest's", {
        ...at,
        expected: manifest.case.digest,
        actual: hashValue(report),
      }),
    );
  const made = verdictOf([
    ...report.artifacts.map((a) => ({ severity: a.verdict === 'pass' ? ('info' as const) : a.verdict })),
    ...report.findings,
  ]);
  if (report.verdict !== made || report.verdict !== manifest.case.verdict)
    st.findings.push(
      fail(R.case, "the case's verdict is not the one its artifacts and findings make, or not the manifest's", {
        pointer: `${ptr(CASE_MEMBER)}#/verdict`,
        expected: made,
        actual: report.verdict,
      }),
    );
  return report;
}

/** One artifact's bundled report: listed where the case says, well-formed, the digest and verdict the case names. */
function checkCaseReport(st: State, manifest: CaseBundleManifest, a: CaseArtifact, i: number): Bundled | null {
  const entry = manifest.reports[i];
  const member = caseReportMember(i);
  if (!entry || entry.member !== member || entry.path !== a.path || entry.reportDigest !== a.reportDigest) {
    st.findings.push(
      fail(R.case, `the manifest's report ${i} is not the case's artifact ${a.path}`, {
        pointer: ptr(MEMBER.manifest),
      }),
    );
    return null;
  }
  const r = memberJson(st, member, R.report);
  if (r === null) return null;
  const shape = reportShapeProblems(r, { runOptional: true });
  if (shape.length > 0 || (isObj(r) && 'run' in r)) {
    const why = shape[0] ? `${shape[0].pointer} ${shape[0].message}` : 'it holds run';
    st.findings.push(fail(R.report, `${member} is not a report without run: ${why}`, { pointer: ptr(member) }));
    return null;
  }
  const report = r as BundledReport;
  const digest = reportDigest(report);
  if (digest !== a.reportDigest)
    st.findings.push(
      fail(R.report, `${member}: its digest is not the one the case names for ${a.path}`, {
        pointer: ptr(member),
        expected: a.reportDigest,
        actual: digest,
      }),
    );
  if (report.verdict !== verdictOf(report.findings) || report.verdict !== a.verdict)
    st.findings.push(
      fail(R.report, `${member}: its verdict is not the one its findings make, or not the case's for ${a.path}`, {
        pointer: `${ptr(member)}#/verdict`,
        expected: a.verdict,
        actual: report.verdict,
      }),
    );
  return { report, digest };
}

/** Every judgement: proven, signed, about an artifact of the case, naming that artifact's bundled report. */
function checkCaseJudgements(
  st: State,
  names: readonly string[],
  cp: Checkpoint | null,
  c: CaseReport | null,
  bundled: (Bundled | null)[],
): Entry[] {
  const bySha = new Map<string, Bundled | null>();
  c?.artifacts.forEach((a, i) => {
    if (a.sha256 !== '' && !bySha.has(a.sha256)) bySha.set(a.sha256, bundled[i] ?? null);
  });
  const about = {
    holds: (x: string | undefined) => x !== undefined && bySha.has(x),
    other: 'an artifact the case does not hold',
    expected: 'an artifact of the case',
    reportOf: (x: string | undefined) => (x === undefined ? null : (bySha.get(x) ?? null)),
  };
  const entries = names
    .filter((n) => JUDGEMENT_MEMBER_RE.test(n))
    .map((n) => checkJudgement(st, n, cp, about))
    .filter((e): e is Entry => e !== null);
  if (entries.length === 0)
    st.findings.push(
      warning(R.unbound, 'the case bundle holds no judgement: nothing signed binds its reports to a reviewer', {
        pointer: ptr(CASE_MEMBER),
      }),
    );
  return entries;
}

/** The case's verdict, carried: the first failing artifact's decisive finding says why. */
function carriedCase(c: CaseReport, bundled: (Bundled | null)[]): CarriedVerdict {
  const i = c.artifacts.findIndex((a) => a.verdict === c.verdict);
  const d = i >= 0 && bundled[i] ? carriedVerdictOf(bundled[i].report as Report).decisive : null;
  const f = c.findings.find((x) => x.severity === c.verdict);
  const decisive = d
    ? {
        ...d,
        index: i,
        message: `${c.artifacts[i]!.path}: ${d.message}`,
        pointer: `${ptr(caseReportMember(i))}#/findings/${d.index}`,
      }
    : f
      ? { index: -1, rule: f.rule, message: f.message, pointer: `${ptr(CASE_MEMBER)}#/findings` }
      : null;
  return { verdict: c.verdict, kind: 'case', id: null, decisive: c.verdict === 'pass' ? null : decisive };
}

function caseResult(
  st: State,
  manifest: CaseBundleManifest,
  c: CaseReport | null,
  bundled: (Bundled | null)[],
  cp: Checkpoint | null,
  entries: Entry[],
): KindResult {
  if (!st.findings.some((f) => f.severity === 'fail' || f.severity === 'unavailable'))
    st.findings.push(
      info(
        'RPR-EVB-000',
        `a case of ${manifest.reports.length} artifact(s) and ${entries.length} judgement(s) proven under the signed checkpoint of ${cp?.treeSize ?? 0} entries; every member's digest matches`,
      ),
    );
  const own: Finding[] = [...st.findings];
  const carried = c ? carriedCase(c, bundled) : null;
  if (carried) carriedFinding(st, carried, 'case', carried.decisive?.pointer ?? ptr(CASE_MEMBER));
  const auth = checkpointAuthenticity(st, cp);
  const details = {
    integrity: integrityOf(
      own,
      st.trust !== null,
      "intact: every member's digest, the case report against each bundled report, the signed checkpoint, and every judgement's proof and signature check",
    ),
    carried,
    caseBundle: {
      digest: manifest.case.digest,
      checkpoint: cp
        ? { treeSize: cp.treeSize, rootHash: cp.rootHash, signer: cp.signer, timestampUtc: cp.timestampUtc }
        : null,
      reports: (c?.artifacts ?? []).map((a, i) => ({
        path: a.path,
        kind: a.kind,
        sha256: a.sha256,
        verdict: a.verdict,
        member: caseReportMember(i),
      })),
    },
    judgements: judgementDetails(entries, st.members, st.trust, own),
  };
  return {
    id: manifest.case.digest,
    findings: st.findings,
    chain: st.chain,
    details: details as unknown as KindResult['details'],
    authenticity: auth,
  };
}

/** The checks of a case bundle, on its members. */
export function verifyCaseBundle(st: State, names: readonly string[]): KindResult {
  const manifest = caseManifest(st, names);
  if (!manifest) return { id: null, findings: st.findings, chain: st.chain };
  const c = checkCase(st, manifest);
  if (c && (c.artifacts.length !== manifest.reports.length || c.artifacts.length !== manifest.case.artifacts))
    st.findings.push(
      fail(R.case, 'the manifest lists another number of reports than the case holds artifacts', {
        pointer: ptr(MEMBER.manifest),
        expected: c.artifacts.length,
        actual: manifest.reports.length,
      }),
    );
  const bundled = (c?.artifacts ?? []).map((a, i) => checkCaseReport(st, manifest, a, i));
  const cp = checkCheckpoint(st, manifest);
  const entries = checkCaseJudgements(st, names, cp, c, bundled);
  checkPage(st, CASE_HTML_MEMBER, "this bundle's case and judgements", (proofs) =>
    c && cp ? caseBundleHtml(c, manifest.case.digest, proofs, cp) : null,
  );
  return caseResult(st, manifest, c, bundled, cp, entries);
}

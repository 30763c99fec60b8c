/**
 * Verifying a case bundle offline (docs/evidence-bundle.md, "The case bundle"), and the
 * kind's one entry point for either bundle (`verifyEvidence`: the manifest's type says
 * which). A case bundle is checked as a bundle of one artifact is, member by member: the
 * manifest (closed) and every member's digest; the case report's form, and everything in it
 * the bundle can recompute (case-check.ts); the signed checkpoint; every judgement's proof,
 * signature, signer, and that it is about an artifact of the case (or a part of one) and
 * names that artifact's bundled report. Nothing signed covers the case report or a report
 * no judgement names: each such report is a warning (015), and the words of the verdict say
 * what the signatures bind. The case's own verdict is carried (RPR-EVB-016): a bundle of a
 * failing case never verifies as PASS.
 */
import type { CaseReport } from '../../../shared/case.js';
import { carriedVerdictOf, type CarriedVerdict } from '../../../shared/details/carried.js';
import { HASH, VERDICTS } from '../../../shared/report-shape.js';
import type { Finding, Report } from '../../../shared/report.js';
import { findingsOn } from '../../core/findings.js';
import type { TrustStore } from '../../core/keys.js';
import type { KindResult } from '../../core/report.js';
import type { Checkpoint } from '../../journal/format.js';
import type { ZipSource } from '../../zip/source.js';
import type { DecidersOf } from '../types.js';
import { checkCase, checkCaseReport, checkListedJudgements, type Bundled } from './case-check.js';
import { caseBundleHtml } from './case-html.js';
import { checkNeeds } from './case-needs.js';
import { caseSubjects } from './case-subjects.js';
import { caseBundleDetails, rejectFinding } from './details.js';
import { leftOutArtifactFindings, leftOutEntryFindings, shapeLeftOut } from './left-out.js';
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
import { bindingEntries, checkpointAuthenticity, judgementsSaid, noJudgement } from './origin.js';
import {
  carriedFinding,
  checkBound,
  checkCheckpoint,
  checkJudgement,
  checkPage,
  ptr,
  R,
  readBundle,
  shapedManifest,
  verifySingle,
  type Judged,
  type State,
} from './verify.js';

const { fail, info } = findingsOn(EVIDENCE_BUNDLE_RULES);

/**
 * Verifies either bundle in `archive`: a case bundle, or the bundle of one artifact.
 * `decidersOf`, the registry's table the engine hands a kind (KindContext.decidersOf), is
 * what a case's `needs` are checked against: without it they are UNAVAILABLE (case-needs.ts).
 */
export async function verifyEvidence(
  archive: Buffer | ZipSource,
  trust: TrustStore | null,
  limits?: Record<string, number>,
  decidersOf?: DecidersOf,
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
  return type === CASE_BUNDLE_TYPE
    ? verifyCaseBundle(read.st, read.names, decidersOf)
    : verifySingle(read.st, read.names);
}

const CASE = ['verdict', 'artifacts', 'digest'];
const ENTRY = ['member', 'path', 'sha256', 'reportDigest'];

/** The manifest of a case bundle, closed, its members checked against it; null with a finding when it is none. */
function caseManifest(st: State, names: readonly string[]): CaseBundleManifest | null {
  const manifest = shapedManifest<CaseBundleManifest>(st, names, {
    type: CASE_BUNDLE_TYPE,
    members: ['case', 'reports'],
    optional: ['leftOut'],
    shape: (p, m) => {
      if (Object.hasOwn(m, 'leftOut')) shapeLeftOut(p, m['leftOut'], true);
      const c = m['case'];
      if (p.members(c, '/case', CASE, CASE)) {
        p.oneOf(c['verdict'], '/case/verdict', VERDICTS);
        p.count(c['artifacts'], '/case/artifacts');
        p.string(c['digest'], '/case/digest', { pattern: HASH });
      }
      p.array(m['reports'], '/reports', (x, at) => {
        if (!p.members(x, at, ENTRY, ENTRY)) return;
        p.string(x['member'], `${at}/member`, { nonEmpty: true });
        p.string(x['path'], `${at}/path`, { nonEmpty: true });
        p.string(x['sha256'], `${at}/sha256`, { pattern: HASH, nullable: true }); // as the case's artifact
        p.string(x['reportDigest'], `${at}/reportDigest`, { pattern: HASH });
      });
    },
    words: 'type, case, reports, checkpoint, members, leftOut when something is left out',
  });
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

/**
 * Every judgement: proven, signed, about an artifact of the case or a part of one, naming that
 * artifact's bundled report; or about the case itself (its digest), naming case.json's digest.
 */
function checkCaseJudgements(
  st: State,
  names: readonly string[],
  cp: Checkpoint | null,
  c: CaseReport | null,
  bundled: (Bundled | null)[],
  digest: string,
): Judged[] {
  const subjects = c ? caseSubjects(c, digest) : new Map<string, number[]>();
  // case.json is the case judgement's report: its digest was checked against the manifest's (017).
  const whole: Bundled | null = c ? { report: c as unknown as Bundled['report'], digest } : null;
  const about = {
    // Without a readable case report what the case holds is unknown: its own finding (017) says why.
    holds: (x: string | undefined) => c === null || (x !== undefined && subjects.has(x)),
    other: 'an artifact the case does not hold (nor a part of one it names, nor the case itself)',
    expected: 'an artifact of the case, or the case',
    reportOf: (x: string | undefined, names: unknown) => {
      if (x === digest) return whole;
      const held = (x === undefined ? undefined : subjects.get(x)) ?? [];
      const i = held.find((h) => bundled[h]?.digest === names) ?? held[0];
      return i === undefined ? null : (bundled[i] ?? null);
    },
  };
  return names
    .filter((n) => JUDGEMENT_MEMBER_RE.test(n))
    .map((n) => checkJudgement(st, n, cp, about))
    .filter((e): e is Judged => e !== null);
}

/**
 * Whether a judgement binds case.json (one on the case, naming its digest, that passed every
 * check), and per artifact whether its report is bound: by a judgement naming its digest,
 * or through case.json, which names every report's digest (each checked against its member,
 * 004). 015 for each report nothing binds.
 */
function checkBinding(
  st: State,
  c: CaseReport,
  bundled: (Bundled | null)[],
  entries: readonly Judged[],
  digest: string,
): { caseBound: boolean; bound: boolean[] } {
  // A judgement that failed a check (its signer's role among them) binds nothing.
  const binding = bindingEntries(st, entries);
  const caseBound = binding.some(({ entry: e }) => e.subject.artifact === digest && e.body['reportDigest'] === digest);
  const bound = c.artifacts.map((a, i) => {
    const b = bundled[i];
    if (!b) return false;
    return caseBound || checkBound(st, caseReportMember(i), b.digest, { binding, all: entries }, `${a.path}: `);
  });
  return { caseBound, bound };
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

interface Checked {
  manifest: CaseBundleManifest;
  c: CaseReport | null;
  bundled: (Bundled | null)[];
  cp: Checkpoint | null;
  entries: Judged[];
  /** Whether a judgement on the case binds case.json. */
  caseBound: boolean;
  /** Per artifact, whether a bundled judgement binds its report (by its digest, or through case.json). */
  bound: boolean[];
}

/**
 * What the signatures cover, in words: the checkpoint and the judgements, and through them
 * case.json when a judgement on the case names its digest, else only the reports a judgement
 * names. A verdict of PASS must not read as "these reports are authenticated" when they are not.
 */
function signedWords(st: State, { c, entries, caseBound, bound }: Checked): string {
  // Those that verify, when a judgement member fails (origin.ts): a failing one binds nothing.
  const signed = `the bundle's checkpoint and ${judgementsSaid(st, `its ${entries.length} judgement(s)`)}`;
  if (c === null) return `${signed} (which bind nothing: case.json cannot be read)`;
  const k = bound.filter((b) => b).length;
  const n = c.artifacts.length;
  if (caseBound) return `${signed} (which bind case.json by its digest, and through it all ${n} report(s))`;
  return `${signed} (which bind ${k} of ${n} report(s) by digest; nothing signs case.json)`;
}

function caseResult(st: State, x: Checked): KindResult {
  const { manifest, c, bundled, cp, entries } = x;
  if (!st.findings.some((f) => f.severity === 'fail' || f.severity === 'unavailable'))
    st.findings.push(
      info(
        'RPR-EVB-000',
        `a case of ${manifest.reports.length} artifact(s) and ${entries.length} judgement(s) proven under the signed checkpoint of ${cp?.treeSize ?? 0} entries; every member's digest matches; ${signedWords(st, x)}`,
      ),
    );
  const own: Finding[] = [...st.findings];
  const carried = c ? carriedCase(c, bundled) : null;
  if (carried) carriedFinding(st, carried, 'case', carried.decisive?.pointer ?? ptr(CASE_MEMBER));
  const details = caseBundleDetails({
    ...x,
    members: st.members,
    trust: st.trust,
    integrity: own,
    intact: `intact: every member's digest, the case report against each bundled report, the signed checkpoint, and every judgement's proof and signature check; signed: ${signedWords(st, x)}`,
    carried,
  });
  const reject = rejectFinding(details);
  if (reject) st.findings.push(reject);
  return {
    id: manifest.case.digest,
    findings: st.findings,
    chain: st.chain,
    details: details as unknown as KindResult['details'],
    authenticity: checkpointAuthenticity(st, cp, entries, signedWords(st, x), unboundWords(x)),
  };
}

/** Why nothing signed binds what the case says, when no judgement binds any of its reports; undefined when one does. */
function unboundWords({ manifest, c, entries, caseBound, bound }: Checked): string | undefined {
  // An unreadable case.json (its own finding, 017, says why) names no report to bind: nothing is bound.
  if (c === null)
    return `case.json cannot be read as a case report, so none of its ${entries.length} judgement(s) binds anything the case says (RPR-EVB-017)`;
  const n = c.artifacts.length;
  if (caseBound || bound.some((b) => b)) return undefined;
  const digests = [manifest.case.digest, ...manifest.reports.map((r) => r.reportDigest)];
  const none = noJudgement(entries, digests, `none of its ${entries.length} judgement(s)`);
  // A case of no artifact has no report to bind: only a judgement on case.json signs it.
  if (n === 0)
    return `the case holds no report, and ${none} names case.json's digest: what the case says is attributed to no one`;
  return `${none} names any of the case's ${n} report(s) by digest, and nothing signs case.json: what the case says is attributed to no one (a judgement with the report's digest binds a report, one on the case's digest binds case.json: docs/evidence-bundle.md)`;
}

/**
 * What the bundle leaves out (RPR-EVB-020): every artifact case.json says the case could not
 * verify, whatever the manifest lists (which must be that list: 017 otherwise), and every
 * journal entry the manifest lists as left out. An incomplete bundle is never a clean PASS.
 */
function checkLeftOut(st: State, manifest: CaseBundleManifest, c: CaseReport | null): void {
  if (c) {
    const { findings, mismatch } = leftOutArtifactFindings(c, manifest.leftOut);
    if (mismatch)
      st.findings.push(
        fail(
          R.case,
          "the manifest's list of artifacts left out is not the artifacts case.json says the case could not verify",
          {
            pointer: `${ptr(MEMBER.manifest)}#/leftOut/artifacts`,
            expected: findings.length,
            actual: manifest.leftOut?.artifacts?.length ?? 0,
          },
        ),
      );
    st.findings.push(...findings);
  }
  st.findings.push(...leftOutEntryFindings(manifest.leftOut));
}

/** The checks of a case bundle, on its members: case.json's form before anything reads it. */
export function verifyCaseBundle(st: State, names: readonly string[], decidersOf?: DecidersOf): KindResult {
  const manifest = caseManifest(st, names);
  if (!manifest) return { id: null, findings: st.findings, chain: st.chain };
  const c = checkCase(st, manifest);
  checkLeftOut(st, manifest, c);
  const bundled = (c?.artifacts ?? []).map((a, i) => checkCaseReport(st, a, i));
  if (c) checkNeeds(st, c, bundled, decidersOf);
  const cp = checkCheckpoint(st, manifest);
  const digest = manifest.case.digest;
  const entries = checkCaseJudgements(st, names, cp, c, bundled, digest);
  if (c) checkListedJudgements(st, c, entries);
  const { caseBound, bound } = c ? checkBinding(st, c, bundled, entries, digest) : { caseBound: false, bound: [] };
  // The page as written now, and as versions before wrote it (judgements naming no artifact).
  checkPage(st, CASE_HTML_MEMBER, "this bundle's case and judgements", (proofs) =>
    c && cp
      ? [
          caseBundleHtml(c, manifest.case.digest, proofs, cp),
          caseBundleHtml(c, manifest.case.digest, proofs, cp, { about: false }),
        ]
      : null,
  );
  return caseResult(st, { manifest, c, bundled, cp, entries, caseBound, bound });
}

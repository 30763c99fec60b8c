/**
 * What a bundle's report tells the window beyond its findings (docs/evidence-bundle.md,
 * "What the report says"): the bundle's own integrity verdict and the carried report's
 * verdict as two things (shared/details/carried.ts), and each bundled judgement with its rationale and its proof
 * (whether the proof checked, and what failed when it did not).
 */
import type { CaseReport } from '../../../shared/case.js';
import type { Finding, Report } from '../../../shared/report.js';
import { carriedVerdictOf, integrityOf, type CarriedVerdict } from '../../../shared/details/carried.js';
import { rejectInForceOf, type BundledJudgementDetails } from '../../../shared/details/bundle.js';
import { isPlainObject as isObj } from '../../core/closed.js';
import { findingsOn } from '../../core/findings.js';
import { cutIndex } from '../../../shared/text-cut.js';
import { EVIDENCE_BUNDLE_RULES } from './rule-ids.js';
import type { TrustStore } from '../../core/keys.js';
import type { Checkpoint } from '../../journal/format.js';
import type { Judged } from './verify.js';
import { caseReportMember, MEMBER, type BundleManifest, type CaseBundleManifest } from './format.js';
import type { BundledReport } from './write.js';

/** One bundled judgement's proof as the window shows it. */
interface ProofDetails {
  leafIndex: number | null;
  treeSize: number | null;
  auditPath: string[];
  /** No fail or unavailable finding names this member (its path, signature, signer, report). */
  verified: boolean;
  /** The findings on this member, as `RULE: message`. */
  problems: string[];
}

/** The fail and unavailable findings of each member, as `RULE: message`, indexed once (a bundle may hold many proofs). */
function problemsByMember(findings: readonly Finding[]): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const f of findings)
    if (f.pointer !== undefined && (f.severity === 'fail' || f.severity === 'unavailable')) {
      const list = by.get(f.pointer) ?? [];
      list.push(`${f.rule}: ${f.message}`);
      by.set(f.pointer, list);
    }
  return by;
}

function proofOf(member: Buffer | undefined, problems: string[], unchecked: boolean): ProofDetails {
  const doc = memberObject(member);
  return {
    leafIndex: typeof doc['leafIndex'] === 'number' ? doc['leafIndex'] : null,
    treeSize: typeof doc['treeSize'] === 'number' ? doc['treeSize'] : null,
    auditPath: Array.isArray(doc['auditPath']) ? doc['auditPath'].filter((h) => typeof h === 'string') : [],
    verified: problems.length === 0 && !unchecked,
    problems,
  };
}

export interface DetailsInput {
  manifest: BundleManifest;
  rep: { report: BundledReport; digest: string } | null;
  cp: Checkpoint | null;
  entries: readonly Judged[];
  members: ReadonlyMap<string, Buffer>;
  trust: TrustStore | null;
  /** The bundle's own findings (not RPR-EVB-016, which reports the bundled verdict). */
  integrity: readonly Finding[];
}

/** What an intact bundle's checks covered: a bundle of no judgement has no proof or signature of one to speak of. */
function intact(judgements: number): string {
  return judgements === 0
    ? "intact: every member's digest and the signed checkpoint check; it carries no judgement, so nothing signed binds its report"
    : `intact: every member's digest, the signed checkpoint, and the inclusion proof and signature of each of its ${judgements} judgement(s) check`;
}

/** The report's details: integrity, the bundle's manifest facts, the bundled verdict, the judgements, the report. */
export function bundleDetails(d: DetailsInput): Record<string, unknown> {
  const { manifest, rep, cp, trust } = d;
  return {
    integrity: integrityOf(d.integrity, trust !== null, intact(d.entries.length)),
    bundle: {
      artifact: manifest.artifact,
      reportDigest: manifest.reportDigest,
      checkpoint: checkpointFacts(cp),
      attestation: d.members.has(MEMBER.attestation),
    },
    carried: rep ? carriedVerdictOf(rep.report) : null,
    judgements: judgementDetails(d.entries, d.members, trust, d.integrity),
    report: rep ? (JSON.parse(JSON.stringify(rep.report)) as Report['details']) : null,
  };
}

const checkpointFacts = (cp: Checkpoint | null) =>
  cp ? { treeSize: cp.treeSize, rootHash: cp.rootHash, signer: cp.signer, timestampUtc: cp.timestampUtc } : null;

export interface CaseDetailsInput {
  manifest: CaseBundleManifest;
  c: CaseReport | null;
  cp: Checkpoint | null;
  entries: readonly Judged[];
  /** Per artifact: whether a bundled judgement names its report's digest. */
  bound: readonly boolean[];
  members: ReadonlyMap<string, Buffer>;
  trust: TrustStore | null;
  /** The bundle's own findings (not RPR-EVB-016), and what they establish when none fails. */
  integrity: readonly Finding[];
  intact: string;
  carried: CarriedVerdict | null;
}

/** A case bundle's details: integrity, the case's carried verdict, each artifact with its report member and whether a judgement binds it, the judgements. */
export function caseBundleDetails(d: CaseDetailsInput): Record<string, unknown> {
  return {
    integrity: integrityOf(d.integrity, d.trust !== null, d.intact),
    carried: d.carried,
    caseBundle: {
      digest: d.manifest.case.digest,
      checkpoint: checkpointFacts(d.cp),
      reports: (d.c?.artifacts ?? []).map((a, i) => ({
        path: a.path,
        kind: a.kind,
        sha256: a.sha256,
        verdict: a.verdict,
        member: caseReportMember(i),
        bound: d.bound[i] ?? false,
      })),
    },
    judgements: judgementDetails(d.entries, d.members, d.trust, d.integrity),
  };
}

/**
 * Each bundled judgement (entry, decision, rationale, signer) with its proof, as the window
 * shows it: under the member it was read from, whose findings are its problems.
 */
export function judgementDetails(
  entries: readonly Judged[],
  members: ReadonlyMap<string, Buffer>,
  trust: TrustStore | null,
  own: readonly Finding[],
): Record<string, unknown>[] {
  const problems = problemsByMember(own);
  const unchecked = own.some((f) => f.rule === 'RPR-EVB-011');
  return entries.map(({ member, entry: e }) => {
    return {
      seq: e.seq,
      member,
      entryHash: entryHashOf(members.get(member)),
      recordedAtUtc: e.recordedAtUtc,
      author: e.author,
      role: trust?.get(e.author)?.role ?? null,
      label: trust?.get(e.author)?.label ?? null,
      subject: e.subject.artifact ?? null,
      decision: String(e.body['decision'] ?? ''),
      pointer: typeof e.body['pointer'] === 'string' ? e.body['pointer'] : '',
      rationale: String(e.body['rationale'] ?? ''),
      reportDigest: typeof e.body['reportDigest'] === 'string' ? e.body['reportDigest'] : null,
      supersedes: typeof e.body['supersedes'] === 'string' ? e.body['supersedes'] : null,
      proof: proofOf(members.get(member), problems.get(`entry:${member}`) ?? [], unchecked),
    };
  });
}

/** A proof member as an object (an empty map when unreadable: the member's own finding says why). */
function memberObject(member: Buffer | undefined): Record<string, unknown> {
  try {
    const v: unknown = member ? JSON.parse(member.toString('utf8')) : null;
    if (isObj(v)) return v;
  } catch {
    /* unreadable: reported under the member's rule */
  }
  return Object.create(null) as Record<string, unknown>;
}

function entryHashOf(member: Buffer | undefined): string | null {
  const v = memberObject(member)['entryHash'];
  return typeof v === 'string' ? v : null;
}

const { warning } = findingsOn(EVIDENCE_BUNDLE_RULES);
/** The most of a rationale a finding quotes (the judgement's details hold it whole). */
const RATIONALE_SHOWN = 200;

/**
 * RPR-EVB-019, when a signed reject is in force among the judgements a bundle's details list
 * (bundleDetails, caseBundleDetails): the terminal shows it as the window does (its caveat
 * beside the verdict), whatever the checks make of the bundle. None otherwise.
 */
export function rejectFinding(details: Record<string, unknown>): Finding | null {
  const j = rejectInForceOf(details['judgements'] as BundledJudgementDetails[]);
  if (!j) return null;
  const who = j.role ? `${j.role}${j.label ? ` ${j.label}` : ''} (${j.author})` : j.author;
  const on = `${j.subject ?? 'no subject'}${j.pointer === '' ? '' : ` at ${j.pointer}`}`;
  const said =
    j.rationale.length > RATIONALE_SHOWN
      ? `${j.rationale.slice(0, cutIndex(j.rationale, RATIONALE_SHOWN))}…`
      : j.rationale;
  // Quoted as written: the terminal and the window escape its controls once, as they show
  // any value (shared/controls.ts); JSON's escapes here were escaped again there (`\\u0007`).
  return warning(
    'RPR-EVB-019',
    `a signed reject is in force: entry ${j.seq}, by ${who}, on ${on}${unverified(j)}: “${said}”`,
    {
      pointer: `entry:${j.member}`,
    },
  );
}

/**
 * Why a judgement is not verified, in a finding's words: the first check its member fails
 * (not always its proof: a reject may be proven and name another report, RPR-EVB-009), or no
 * trust store to check it under. Nothing when it verified.
 */
function unverified(j: BundledJudgementDetails): string {
  if (j.proof.verified) return '';
  const first = j.proof.problems[0];
  if (first === undefined) return ' (not checked: no trust store was given)';
  // `RULE: MEMBER: message`: the member is the finding's pointer already.
  const why = first.replace(`: ${j.member}: `, ': ');
  const more = j.proof.problems.length > 1 ? `, and ${j.proof.problems.length - 1} more finding(s) on its member` : '';
  return ` (it fails ${why}${more})`;
}

/**
 * Judgements: a reviewer's signed, anchored decision on what they reviewed (an artifact's
 * report as a whole, or one finding, comparison row or drift event in it). A judgement is a
 * `review-rationale` entry whose body is `reprise.judgement/v1`:
 *
 *   subject: {claimRef, artifact: <the artifact's SHA-256>}
 *   body:    {type, decision, rationale, reportDigest, pointer, supersedes?}
 *
 * `reportDigest` is `reportDigest(report)` (report-digest.ts); `pointer` is RFC 6901 into that report
 * ("" the whole report, /findings/N, /comparisons/N or /events/N). Only a key whose role
 * is in JUDGEMENT_ROLES may sign one; the rationale obeys the one rationale rule
 * (shared/rationale.ts). See docs/journal.md, "Judgements".
 */
import { isHashString } from '../core/hash.js';
import { cutIndex } from '../../shared/text-cut.js';
import { reportDigest } from './report-digest.js';
import type { Role, Signer, TrustStore } from '../core/keys.js';
import type { Finding, Report } from '../../shared/report.js';
import { JUDGEMENT_DECISIONS, type JudgementDecision } from '../../shared/rationale.js';
import { JournalError } from './errors.js';
import { claimIdProblem } from '../../shared/claim-id.js';
import type { Checkpoint, Entry, JsonObject } from './format.js';
import { checkInclusionProof, proofFromVerification, type InclusionProof } from './proofs.js';
import { verifyJournal, type JournalVerification } from './verify.js';
import { JournalWriter, type WriterOptions } from './writer.js';
import { JUDGEMENT_TYPE, judgementBodyProblem, judgementSignerProblem } from './judgement-rules.js';

export { JUDGEMENT_ROLES, JUDGEMENT_TYPE, judgementBodyProblem, judgementSignerProblem } from './judgement-rules.js';

export { JUDGEMENT_DECISIONS, type JudgementDecision };
export { reportDigest };

const POINTER_RE = /^\/(findings|comparisons|events)\/(0|[1-9]\d*)$/;

/** Why `pointer` names no judgeable item of `report` ("" is the whole report), or null. */
export function judgementPointerProblem(
  report: Pick<Report, 'findings'> & Partial<Pick<Report, 'comparisons' | 'events'>>,
  pointer: unknown,
): string | null {
  if (pointer === '') return null;
  if (typeof pointer !== 'string') return 'the pointer is not a string';
  const m = POINTER_RE.exec(pointer);
  if (!m)
    return `the pointer ${shownPointer(pointer)} is neither "" (the whole report) nor /findings/N, /comparisons/N or /events/N`;
  const list = (report as unknown as Record<string, unknown>)[m[1]!];
  if (!Array.isArray(list) || Number(m[2]) >= list.length) return `the report has no item ${pointer}`;
  return null;
}

/** The longest pointer quoted whole in a refusal: a valid one is a few characters, and a refusal must not echo megabytes. */
const SHOWN_POINTER = 200;

/** A refused pointer as quoted: its first SHOWN_POINTER characters and its length, when it is longer. */
function shownPointer(pointer: string): string {
  if (pointer.length <= SHOWN_POINTER) return JSON.stringify(pointer);
  const cut = cutIndex(pointer, SHOWN_POINTER);
  return `${JSON.stringify(pointer.slice(0, cut))}… (${pointer.length.toLocaleString('en')} characters)`;
}

export interface JudgementInput {
  /** The report reviewed, as the engine gave it (its artifact.sha256 names the artifact). */
  report: Report;
  pointer: string;
  decision: JudgementDecision;
  rationale: string;
}

export interface ProofState {
  proof: InclusionProof;
  /** True when the proof checked (RFC 9162 inclusion, checkpoint and entry signatures under the trust store). */
  proofVerified: boolean;
  /** The failed or unavailable checks of the proof, as `RULE: message`. */
  proofFindings: string[];
}

export interface JudgementReceipt extends ProofState {
  seq: number;
  entryHash: string;
  entry: Entry;
  checkpoint: Checkpoint;
  reportDigest: string;
}

/** Checks the proof as a recipient would (from a JSON copy: nothing shared with the writer's objects). */
export function proofState(proof: InclusionProof, trust: TrustStore | null): ProofState {
  const check = checkInclusionProof(JSON.parse(JSON.stringify(proof)) as unknown, trust);
  const bad: Finding[] = check.findings.filter((f) => f.severity === 'fail' || f.severity === 'unavailable');
  return { proof, proofVerified: bad.length === 0, proofFindings: bad.map((f) => `${f.rule}: ${f.message}`) };
}

/**
 * Records a judgement: checks the signer's role, the decision, the rationale and the
 * pointer first (refused with JournalError 'REFUSED', nothing written), then appends the
 * entry (durable with its checkpoint on return) and proves it under the latest checkpoint.
 */
export async function recordJudgement(
  dir: string,
  input: JudgementInput,
  signer: Signer,
  trust: TrustStore,
  opts: WriterOptions = {},
): Promise<JudgementReceipt> {
  const artifact = input.report?.artifact?.sha256;
  if (!isHashString(artifact))
    throw new JournalError('the report names no artifact SHA-256: a judgement is recorded on an artifact', 'USAGE');
  const digest = reportDigest(input.report);
  const body: JsonObject = {
    type: JUDGEMENT_TYPE,
    decision: input.decision,
    rationale: input.rationale,
    reportDigest: digest,
    pointer: input.pointer,
  };
  const problem =
    judgementSignerProblem(signer.keyId, trust) ??
    judgementBodyProblem(body, 'new') ??
    judgementPointerProblem(input.report, input.pointer);
  if (problem) throw new JournalError(`judgement refused: ${problem}`, 'REFUSED');
  // The claim is the artifact's id, or its hash when it has none or one that may draw as
  // another's (RPR-QUAR-008): the writer refuses such a claim id, and the judgement is found by
  // its artifact (subject.artifact) either way, so a suspicious artifact can still be judged.
  const id = input.report.artifact.id;
  const claimRef = id && claimIdProblem(id) === null ? id : artifact;
  // The receipt's proof comes from the writer's tree (O(log² n) reads), checked as a recipient would check it.
  const w = await JournalWriter.open(dir, { trustStore: trust, ...opts, signer });
  try {
    const r = await w.append({ kind: 'review-rationale', subject: { claimRef, artifact }, body }, signer);
    return {
      seq: r.seq,
      entryHash: r.entryHash,
      entry: r.entry,
      checkpoint: r.checkpoint,
      reportDigest: digest,
      ...proofState(w.proofOf(r), trust),
    };
  } finally {
    await w.close();
  }
}

/**
 * A listed judgement's proof: null when none could be built (the journal's tree no longer
 * matches its latest checkpoint), then not verified and `proofFindings` says why.
 */
export type ListedProofState = Omit<ProofState, 'proof'> & { proof: InclusionProof | null };

/** A judgement as read back from a journal (also a `review-rationale` entry written by hand). */
export interface JudgementRecord extends ListedProofState {
  seq: number;
  entryHash: string;
  entry: Entry;
  decision: string;
  rationale: string;
  /** Null for a review-rationale entry that is not a `reprise.judgement/v1` body. */
  reportDigest: string | null;
  pointer: string;
  author: string;
  /** The author's role and label in the trust store (null without one, or when unknown). */
  role: Role | null;
  label: string | null;
  /** Why this entry is not a well-formed judgement by an allowed signer, or null. */
  problem: string | null;
  /** A note's edit: the entry hash of the note it supersedes (notes.ts), else null. */
  supersedes: string | null;
}

/** Every review-rationale entry of the verified journal on `artifact`, in seq order, each with its checked proof. */
export function judgementsIn(v: JournalVerification, artifact: string, trust: TrustStore | null): JudgementRecord[] {
  // Every one, those no checkpoint covers yet too (a write cut short before its checkpoint,
  // checkpoints truncated): listed without a proof, saying why, never left out unsaid.
  return v.entries
    .filter((p) => p.entry.kind === 'review-rationale' && p.entry.subject.artifact === artifact)
    .map((p) => {
      const b = p.entry.body;
      const k = trust?.get(p.entry.author);
      const problem =
        judgementBodyProblem(b) ?? (trust ? judgementSignerProblem(p.entry.author, trust, 'recorded') : null);
      return {
        seq: p.entry.seq,
        entryHash: p.hash,
        entry: p.entry,
        decision: typeof b['decision'] === 'string' ? b['decision'] : '',
        rationale: typeof b['rationale'] === 'string' ? b['rationale'] : '',
        reportDigest: isHashString(b['reportDigest']) ? b['reportDigest'] : null,
        pointer: typeof b['pointer'] === 'string' ? b['pointer'] : '',
        author: p.entry.author,
        role: k?.role ?? null,
        label: k ? k.label : null,
        problem,
        supersedes: isHashString(b['supersedes']) ? b['supersedes'] : null,
        ...listedProofState(v, p.entry.seq, trust),
      };
    });
}

/**
 * Entry `seq`'s proof, checked; when the journal cannot prove it (JournalError: a damaged
 * tree), no proof and the engine's reason, so the judgement is still listed: a forensic
 * listing never hides what was recorded because its proof is gone.
 */
function listedProofState(v: JournalVerification, seq: number, trust: TrustStore | null): ListedProofState {
  let proof: InclusionProof;
  try {
    proof = proofFromVerification(v, seq);
  } catch (e) {
    if (!(e instanceof JournalError)) throw e;
    return { proof: null, proofVerified: false, proofFindings: [e.message] };
  }
  return proofState(proof, trust);
}

/** The judgements a journal holds on an artifact, and the journal's verification (they are only as good as it). */
export async function listJudgements(
  dir: string,
  artifact: string,
  trust: TrustStore | null,
): Promise<{ judgements: JudgementRecord[]; verification: JournalVerification }> {
  if (!isHashString(artifact)) throw new JournalError('an artifact is named by its sha256:<64 hex> hash', 'USAGE');
  const verification = await verifyJournal(dir, trust);
  return { judgements: judgementsIn(verification, artifact, trust), verification };
}

/**
 * The quarantine workflow on top of the journal: open a case (routing or by hand), then
 * release, uphold or escalate it. Every transition is a signed journal entry, checked
 * under the writer's lock against the case's current state (folded from the journal by
 * `caseStates`), the signer's role in the trust store, and the rationale's content: by the
 * writer itself (case-append.ts), so an append made around these functions is held to the
 * same rules.
 */
import type { Signer, TrustStore } from '../core/keys.js';
import { deciderProblem, findCase, KIND_OF_DECISION, type CaseFold, type CaseState, type Decision } from './cases.js';
import { openProblem } from './case-append.js';
import { JournalError } from './errors.js';
import type { JsonObject } from './format.js';
import { verifyJournal, type JournalVerification } from './verify.js';
import { JournalWriter, type AppendResult, type WriterOptions } from './writer.js';

export interface OpenCaseInput {
  claimRef: string;
  artifact?: string;
  reason: string;
  /** `routing` (TG-DECISION exit HUMAN_REVIEW/QUARANTINE, decision-material drift) or `manual`. */
  source?: 'routing' | 'manual';
  /** Extra deterministic facts for the case (drift event id, decision exit...). */
  details?: JsonObject;
}

export interface CaseWriteResult extends AppendResult {
  caseId: string;
  case: CaseState;
}

export async function openCase(
  dir: string,
  input: OpenCaseInput,
  signer: Signer,
  opts: WriterOptions = {},
): Promise<CaseWriteResult> {
  if (typeof input.reason !== 'string' || input.reason.trim() === '')
    throw new JournalError('a quarantine case needs a reason', 'USAGE');
  const body: JsonObject = {
    reason: input.reason,
    source: input.source ?? 'manual',
    ...(input.details ? { details: input.details } : {}),
  };
  const subject = { claimRef: input.claimRef, ...(input.artifact ? { artifact: input.artifact } : {}) };
  // The writer's own rule, asked before it opens: a refused case leaves the directory untouched.
  const why = openProblem({ subject, body });
  if (why)
    throw new JournalError(`quarantine-open refused (${why.rule}): ${why.message}; nothing was written`, 'REFUSED');
  const w = await JournalWriter.open(dir, { ...opts, signer });
  try {
    const r = await w.append({ kind: 'quarantine-open', subject, body }, signer);
    const c = findCase((await w.cases()).cases, String(r.seq))!;
    return { ...r, caseId: c.caseId, case: c };
  } finally {
    await w.close();
  }
}

/**
 * Refuses a decision on a case whose history moved past the entry the confirmation showed
 * (`shownLast`, checked under the writer's lock): the officer confirmed "open → released" over
 * a history they read, and a reviewer's escalation written since, with a rationale they never
 * saw, must not be signed over without a word.
 */
function refuseChangedSince(c: CaseState, shownLast: string): void {
  const last = c.history[c.history.length - 1]!;
  if (last.entryHash === shownLast) return;
  const shown = c.history.findIndex((h) => h.entryHash === shownLast);
  const since =
    shown < 0
      ? 'its history is not the one shown'
      : `${c.history.length - 1 - shown} entr${c.history.length - 1 - shown === 1 ? 'y was' : 'ies were'} added since (the last: ${last.decision} at seq ${last.seq}, now ${c.state})`;
  throw new JournalError(
    `${c.caseId} changed since it was shown: ${since}; nothing was signed (review it again)`,
    'REFUSED',
  );
}

/**
 * Releases, upholds or escalates a case. Refused (JournalError 'REFUSED') when the case is
 * closed, the signer lacks the role in `trust`, or the rationale lacks content; 'NOT_FOUND'
 * when the journal holds no such case; 'UNVERIFIED' or 'TORN' when the journal cannot be
 * signed onto (it does not verify, or a crash left a torn tail).
 */
export async function decideCase(
  dir: string,
  caseRef: string,
  decision: Decision,
  rationale: string,
  signer: Signer,
  trust: TrustStore,
  opts: WriterOptions & { shownLast?: string } = {},
): Promise<CaseWriteResult> {
  // The signer and the rationale first: a refusal that needs no case leaves the directory untouched.
  const who = deciderProblem(signer.keyId, rationale, decision, caseRef, trust);
  if (who) throw new JournalError(`${decision} refused (${who.rule}): ${who.message}`, 'REFUSED');
  // The decision's store is the writer's: the writer checks the transition under it (case-append.ts).
  const w = await JournalWriter.open(dir, { ...opts, trustStore: trust, signer, create: false });
  try {
    const c = findCase((await w.cases()).cases, caseRef);
    if (!c) throw new JournalError(`no quarantine case ${caseRef} in ${dir}`, 'NOT_FOUND');
    if (opts.shownLast !== undefined) refuseChangedSince(c, opts.shownLast);
    const body: JsonObject = { case: c.openHash, decision, rationale };
    // The state, role and rationale rules are the writer's own, applied under this lock.
    const r = await w.append({ kind: KIND_OF_DECISION[decision], subject: { ...c.subject }, body }, signer);
    const after = findCase((await w.cases()).cases, c.caseId)!;
    return { ...r, caseId: c.caseId, case: after };
  } finally {
    await w.close();
  }
}

export const releaseCase = (
  dir: string,
  caseRef: string,
  rationale: string,
  signer: Signer,
  trust: TrustStore,
  opts?: WriterOptions,
) => decideCase(dir, caseRef, 'release', rationale, signer, trust, opts);
export const upholdCase = (
  dir: string,
  caseRef: string,
  rationale: string,
  signer: Signer,
  trust: TrustStore,
  opts?: WriterOptions,
) => decideCase(dir, caseRef, 'uphold', rationale, signer, trust, opts);
export const escalateCase = (
  dir: string,
  caseRef: string,
  rationale: string,
  signer: Signer,
  trust: TrustStore,
  opts?: WriterOptions,
) => decideCase(dir, caseRef, 'escalate', rationale, signer, trust, opts);

/** Every case with its state, plus the journal's verification (the states are only as good as it). */
export async function listCases(
  dir: string,
  trust: TrustStore | null,
): Promise<{ cases: CaseState[]; fold: CaseFold; verification: JournalVerification }> {
  const verification = await verifyJournal(dir, trust, { keep: false });
  return { cases: verification.cases.cases, fold: verification.cases, verification };
}

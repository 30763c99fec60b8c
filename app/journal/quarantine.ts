/**
 * The quarantine workflow on top of the journal: open a case (routing or by hand), then
 * release, uphold or escalate it. Every transition is a signed journal entry, checked
 * under the writer's lock against the case's current state (folded from the journal by
 * `caseStates`), the signer's role in the trust store, and the rationale's content.
 */
import { parseCanonical } from '../core/jcs.js';
import type { Signer, TrustStore } from '../core/keys.js';
import {
  caseStates,
  deciderProblem,
  findCase,
  KIND_OF_DECISION,
  transitionProblem,
  type CaseFold,
  type CaseState,
  type Decision,
  type HashedEntry,
} from './cases.js';
import { JournalError } from './errors.js';
import { checkEntryShape, entryHash, type Entry, type JsonObject } from './format.js';
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

/**
 * The writer's quarantine entries as hashed entries, the case fold's input (skipping damaged
 * lines: verify reports those). The seqs come from the writer's state, which is sealed
 * (trusted-state.ts: a list edited to drop a transition is not trusted, and the journal is then
 * verified and folded in full). What can be checked here cheaply is checked too: a seq listed
 * twice or out of order, or a line that is not a quarantine entry with that seq, is not folded
 * (it is no transition of this journal), so no list can add to a case's history.
 */
async function hashedEntries(w: JournalWriter): Promise<HashedEntry[]> {
  const out: HashedEntry[] = [];
  let last = -1;
  for (const { seq, text } of await w.quarantineLines()) {
    if (seq <= last) continue;
    last = seq;
    try {
      const p = parseCanonical(text);
      const v = p.value as Entry;
      if (
        p.warnings.length === 0 &&
        checkEntryShape(v, '').length === 0 &&
        v.seq === seq &&
        v.kind.startsWith('quarantine-')
      )
        out.push({ entry: v, hash: entryHash(v), line: seq + 1 });
    } catch {
      /* damaged line: not a transition */
    }
  }
  return out;
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
  const w = await JournalWriter.open(dir, { ...opts, signer });
  try {
    const r = await w.append(
      {
        kind: 'quarantine-open',
        subject: { claimRef: input.claimRef, ...(input.artifact ? { artifact: input.artifact } : {}) },
        body,
      },
      signer,
    );
    const fold = caseStates(await hashedEntries(w));
    const c = findCase(fold.cases, String(r.seq))!;
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
 * unknown or closed, the signer lacks the role in `trust`, or the rationale lacks content.
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
  const w = await JournalWriter.open(dir, { trustStore: trust, ...opts, signer, create: false });
  try {
    const fold = caseStates(await hashedEntries(w), trust);
    const c = findCase(fold.cases, caseRef);
    if (!c) throw new JournalError(`no quarantine case ${caseRef} in ${dir}`, 'NOT_FOUND');
    if (opts.shownLast !== undefined) refuseChangedSince(c, opts.shownLast);
    const body: JsonObject = { case: c.openHash, decision, rationale };
    const byHash = new Map(fold.cases.map((x) => [x.openHash, x]));
    const problem = transitionProblem({ body, author: signer.keyId, subject: c.subject }, decision, byHash, trust);
    if (problem) throw new JournalError(`${decision} refused (${problem.rule}): ${problem.message}`, 'REFUSED');
    const r = await w.append({ kind: KIND_OF_DECISION[decision], subject: { ...c.subject }, body }, signer);
    const after = findCase(caseStates(await hashedEntries(w), trust).cases, c.caseId)!;
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

/**
 * Reviewer notes on an artifact (docs/journal.md, "Notes"): a note is a judgement whose
 * decision is `note`, on the artifact as a whole (pointer "", no report digest), appended
 * like any entry, so it is signed, anchored and provable. Notes are append-only: an edit
 * is a new note whose body names the entry hash of the note it supersedes
 * (`body.supersedes`); the old note stays in the journal, listed (as superseded) and
 * provable. A note supersedes only a note on the same artifact that nothing has superseded
 * yet, so the versions of a note form one line, and its latest version is the one nothing
 * supersedes.
 */
import { isHashString } from '../core/hash.js';
import type { Signer, TrustStore } from '../core/keys.js';
import { JournalError } from './errors.js';
import { RATIONALE_RULE, rationaleLengthProblem } from '../../shared/rationale.js';
import type { JsonObject } from './format.js';
import {
  judgementBodyProblem,
  judgementSignerProblem,
  judgementsIn,
  JUDGEMENT_TYPE,
  proofState,
  type JudgementReceipt,
  type JudgementRecord,
} from './judgement.js';
import { isNoteEdit } from './note-edit-rule.js';
import { NoteEdits } from './note-edits.js';
import { verifyJournal, type JournalVerification } from './verify.js';
import { JournalWriter, refuseNewClaim, type WriterOptions } from './writer.js';

export interface NoteInput {
  /** `sha256:<hex>` of the artifact the note is on. */
  artifact: string;
  /** The note's text (the rationale rule applies: real content). */
  text: string;
  /** The entry hash of the note this one edits, or absent for a new note. */
  supersedes?: string | null;
  /** The claim reference the entry's subject carries (the artifact's id); the artifact's hash when absent. */
  claimRef?: string;
}

/** What a recorded note returns: its entry, checkpoint and checked proof. */
export type NoteReceipt = Omit<JudgementReceipt, 'reportDigest'>;

/** A note as listed: the judgement record, and the entry hash of the note that supersedes it (null: the latest). */
export interface NoteRecord extends JudgementRecord {
  supersededBy: string | null;
}

/**
 * Every note of the verified journal on `artifact`, in seq order, each with what supersedes
 * it; an edit that may not supersede what it names (NoteEdits) carries why as its problem.
 */
export function notesIn(v: JournalVerification, artifact: string, trust: TrustStore | null): NoteRecord[] {
  const edits = new NoteEdits();
  const notes = judgementsIn(v, artifact, trust)
    .filter((j) => j.decision === 'note')
    .map((n) => {
      const problem = n.problem ?? (n.supersedes === null ? null : edits.problem(n.supersedes, artifact));
      // An edit without a proof (no checkpoint covers it) is listed, but supersedes nothing.
      edits.read({ ...n, artifact, counts: problem === null && n.proof !== null });
      return { ...n, problem };
    });
  return notes.map((n) => ({ ...n, supersededBy: edits.supersededBy(n.entryHash) }));
}

/** A note's text is at most this many bytes of UTF-8: a note is a judgement, its text the rationale (shared/rationale.ts). */
export const MAX_NOTE_TEXT_BYTES = RATIONALE_RULE.maxBytes;

/** Why a note's text cannot be signed, or null: too long, or not text (a lone surrogate, half of a character). */
export function noteTextProblem(text: string): string | null {
  if (!text.isWellFormed()) return 'its text holds a lone surrogate (half of a character), which is no text';
  return rationaleLengthProblem(text);
}

/**
 * Appends a note (or, with `supersedes`, an edit of one): checks the signer's role, the text
 * and what it supersedes first (refused with JournalError 'REFUSED', nothing written), then
 * appends through JournalWriter, which refuses a journal that does not verify. Durable with
 * its checkpoint on return, and proven under it.
 */
export async function recordNote(
  dir: string,
  input: NoteInput,
  signer: Signer,
  trust: TrustStore,
  opts: WriterOptions = {},
): Promise<NoteReceipt> {
  if (!isHashString(input.artifact))
    throw new JournalError('a note is on an artifact, named by its sha256:<64 hex> hash', 'USAGE');
  const problem = noteTextProblem(input.text);
  if (problem) throw new JournalError(`note refused: ${problem}; nothing was written`, 'USAGE');
  const body: JsonObject = { type: JUDGEMENT_TYPE, decision: 'note', rationale: input.text, pointer: '' };
  if (input.supersedes) body['supersedes'] = input.supersedes;
  const subject = { claimRef: input.claimRef ?? input.artifact, artifact: input.artifact };
  return appendJudgementBody(dir, { subject, body, what: 'note' }, signer, trust, opts);
}

/** A judgement's entry as given (`journal record --kind review-rationale --artifact`, or a note). */
export interface JudgementBodyInput {
  subject: { claimRef: string; artifact: string };
  body: JsonObject;
  /** What a refusal calls it: "note refused: …", "judgement refused: …". */
  what: 'note' | 'judgement';
}

/**
 * Appends a `review-rationale` entry on an artifact whose body is a judgement, under the
 * rules every judgement and note obeys: the signer may sign a judgement (with a trust store:
 * an active reviewer key; without one only the writer's own checks apply, as for any append
 * made without a store), the body is a judgement, and a `supersedes` names an earlier note on
 * the same artifact in this journal that nothing supersedes yet (the writer's rule for every
 * edit, note-edit-rule.ts) and that counts, as `journal notes` lists it (an edit of a note that
 * does not count would count for nothing), checked while the writer holds the lock. Refused
 * with JournalError 'REFUSED' and nothing written otherwise.
 */
export async function appendJudgementBody(
  dir: string,
  input: JudgementBodyInput,
  signer: Signer,
  trust: TrustStore | null,
  opts: WriterOptions = {},
): Promise<NoteReceipt> {
  const { subject, body, what } = input;
  if (!isHashString(subject.artifact))
    throw new JournalError(`a ${what} is on an artifact, named by its sha256:<64 hex> hash`, 'USAGE');
  const problem = (trust ? judgementSignerProblem(signer.keyId, trust) : null) ?? judgementBodyProblem(body, 'new');
  if (problem) throw new JournalError(`${what} refused: ${problem}`, 'REFUSED');
  const entry = { kind: 'review-rationale', subject, body } as const;
  // The writer's claim id rule, asked before it opens: a refused entry leaves the directory untouched.
  refuseNewClaim(entry);
  const w = await JournalWriter.open(dir, { trustStore: trust, ...opts, signer });
  try {
    if (isNoteEdit(entry)) {
      // Asked under the writer's lock, so no other edit of the same note can land between;
      // the writer asks the rule again as it appends (of the same reading), whoever appends.
      const edits = await w.noteEdits();
      const why = edits.problem({ ...entry, author: signer.keyId }) ?? edits.uncounted(body['supersedes'] as string);
      if (why) throw new JournalError(`${what} refused: ${why}`, 'REFUSED');
    }
    const r = await w.append(entry, signer);
    return {
      seq: r.seq,
      entryHash: r.entryHash,
      entry: r.entry,
      checkpoint: r.checkpoint,
      ...proofState(w.proofOf(r), trust),
    };
  } finally {
    await w.close();
  }
}

/** The notes a journal holds on an artifact, and the journal's verification (they are only as good as it). */
export async function listNotes(
  dir: string,
  artifact: string,
  trust: TrustStore | null,
): Promise<{ notes: NoteRecord[]; verification: JournalVerification }> {
  if (!isHashString(artifact)) throw new JournalError('an artifact is named by its sha256:<64 hex> hash', 'USAGE');
  const verification = await verifyJournal(dir, trust);
  return { notes: notesIn(verification, artifact, trust), verification };
}

/**
 * The rows of a case's notes list (components/CaseNotes.tsx), pure so they are tested
 * (test/workbench/note-rows.test.ts): every note recorded on the artifact, in the journal
 * worked in and in the case's own journals, each once, with why it is not proven, why it does
 * not count, and which edit replaces which. Nothing recorded is hidden; only an edit that
 * counts, is proven and is in its note's own journal replaces anything, so a note by a key
 * that may not sign notes (a quarantine officer's) never retires a reviewer's.
 */
import type { JudgementList, JudgementView, NoteReceipt } from '../../../shared/api.js';
import type { CaseJudgement } from '../../../shared/case.js';
import type { Verdict } from '../../../shared/report.js';

/** A key's role and label as a trust store gives them; `checked`: a trust store was consulted. */
export interface KeyName {
  role: string | null;
  label: string | null;
  checked: boolean;
}

/** One version of a note as the list shows it. */
export interface NoteRow {
  seq: number;
  entryHash: string;
  text: string;
  /** The key id that signed it, as its journal names it. */
  author: string;
  /** Who the author is as the trust store names the key (null: not named, or not read here). */
  signer: KeyName | null;
  atUtc: string;
  supersedes: string | null;
  supersededBy: string | null;
  /**
   * Why this version is not proven (its journal fails verification, or could not be
   * verified, or its inclusion proof does not check or could not be built), or null. It is
   * listed, since nothing recorded is hidden, but an edit it claims to make replaces nothing.
   */
  unproven: string | null;
  /**
   * Why it does not count (a body that is no judgement, a key the trust store does not let
   * sign one, an edit of no note it may edit), or null: listed with it, never the latest
   * version of a note nor an edit that replaces one.
   */
  problem: string | null;
  /** Why whether it counts could not be judged (its case ran without a trust store), or null: it replaces nothing either. */
  unchecked: string | null;
  /** Why the edit it claims to make was not applied (unproven, does not count, a note of another journal), or null. */
  editRefused: string | null;
  /** The journal of the case it is in (relative path) when it is not in the journal worked in, whose notes alone can be edited here. */
  caseJournal: string | null;
}

/**
 * The journal worked in as the engine listed it: its judgements on the artifact and its
 * verdict (main/host/judgement-ops.ts listJudgements). Its notes are only as good as it.
 */
export interface WorkNotes {
  judgements: readonly JudgementView[];
  /** The journal's verdict; null when the listing did not give one (then nothing of it is proven). */
  verdict: Verdict | null;
  /** Its first failing findings, as `RULE: message`, and how many there are in all. */
  failures: readonly string[];
  failureCount: number;
}

export function workNotesOf(l: JudgementList): WorkNotes {
  return { judgements: l.judgements, verdict: l.verdict, failures: l.failures, failureCount: l.failureCount };
}

/** Why the journal worked in proves none of its notes, or null when it verifies. */
export function workUnproven(w: WorkNotes): string | null {
  if (w.verdict === 'pass') return null;
  const more = w.failureCount > w.failures.length ? `; and ${w.failureCount - w.failures.length} more` : '';
  const why = w.failures.length > 0 ? `: ${w.failures.join('; ')}${more}` : '';
  if (w.verdict === 'fail') return `the journal worked in FAILS verification${why}`;
  if (w.verdict === 'unavailable') return `the journal worked in could not be verified (UNAVAILABLE)${why}`;
  return 'the journal worked in was listed without its verdict';
}

/** Why a listed note's own inclusion proof proves nothing (it does not verify, or could not be built), or null. */
export function proofUnproven(w: Pick<JudgementView, 'proofBuilt' | 'proofVerified' | 'proofFindings'>): string | null {
  if (w.proofVerified) return null;
  const why = w.proofFindings.join('; ') || 'no reason given';
  return w.proofBuilt ? `its inclusion proof does not verify (${why})` : `no inclusion proof could be built (${why})`;
}

/** A note of the journal worked in, its signer named by the trust store it was read with. */
export function workRow(w: JudgementView, checked: boolean, journalUnproven: string | null): NoteRow {
  return {
    seq: w.seq,
    entryHash: w.entryHash,
    text: w.rationale,
    author: w.author,
    signer: { role: w.role, label: w.label, checked },
    atUtc: w.recordedAtUtc,
    supersedes: w.supersedes ?? null,
    supersededBy: null,
    // Both reasons: the journal's verdict, and (a damaged tree) that this note's own proof is gone.
    unproven: [journalUnproven, proofUnproven(w)].filter((x) => x !== null).join('; ') || null,
    problem: w.problem,
    // The journal worked in is always read with its trust store: a signer is judged, or the key is named as not in it.
    unchecked: checked ? null : 'who signed it was not checked: no trust store was read',
    editRefused: null,
    caseJournal: null,
  };
}

/** A note just signed here, from its receipt (the engine named its signer with the journal's trust store). */
export function receiptRow(r: NoteReceipt, text: string): NoteRow {
  return {
    seq: r.seq,
    entryHash: r.entryHash,
    text,
    author: r.keyId,
    signer: { role: r.role, label: r.label, checked: true },
    atUtc: r.atUtc,
    supersedes: r.supersedes,
    supersededBy: null,
    unproven: r.proofVerified ? null : `its inclusion proof does not verify (${r.proofFindings.join('; ')})`,
    problem: null,
    unchecked: null,
    editRefused: null,
    caseJournal: null,
  };
}

/** Why a case judgement's signer was not judged (the case's standing of it), or null when it was. */
function caseUnchecked(n: CaseJudgement): string | null {
  if (n.standing === 'unchecked') return 'who signed it was not checked: the case ran without a trust store';
  if (n.standing === undefined) return 'the case report does not say whether it counts (written before it did)';
  return null;
}

/** What a row says of whether it stands. */
export type Standing = Pick<NoteRow, 'unproven' | 'problem' | 'unchecked'>;

/**
 * Whether a judgement of one of the case's journals stands: proven by its journal's verdict
 * in the case, and counting by the case's judgement of it. The notes list and the case's
 * judgements table (CaseView.tsx) both say it so, for a note and any other decision alike.
 */
export function caseStanding(n: CaseJudgement, verdict: Verdict | undefined): Standing {
  return {
    unproven:
      verdict === 'pass'
        ? null
        : verdict === 'fail'
          ? `its journal ${n.journal} FAILS verification`
          : `its journal ${n.journal} could not be verified (UNAVAILABLE)`,
    problem: n.standing === 'does-not-count' ? (n.problem ?? 'the case says it does not count') : null,
    unchecked: caseUnchecked(n),
  };
}

/**
 * A note of one of the case's own journals. The case reads them without the names of their
 * keys: a key the journal worked in names is the same key, any other stays unnamed here.
 * Whether it counts is the case's judgement of it, under the trust store the case ran with.
 */
export function caseRow(n: CaseJudgement, names: ReadonlyMap<string, KeyName>, verdict: Verdict | undefined): NoteRow {
  return {
    seq: n.seq,
    entryHash: n.entryHash,
    text: n.rationale,
    author: n.author,
    signer: names.get(n.author) ?? null,
    atUtc: n.atUtc,
    supersedes: n.supersedes,
    supersededBy: null,
    ...caseStanding(n, verdict),
    editRefused: null,
    caseJournal: n.journal,
  };
}

/** Why an edit replaces nothing, whichever note it names (unproven, does not count, signer not judged), or null. */
export function claimRefusal(r: Standing): string | null {
  if (r.unproven !== null) return r.unproven;
  if (r.problem !== null) return 'it does not count';
  return r.unchecked;
}

/** Why the edit `r` claims to make replaces nothing, or null when it replaces `old`. */
function editRefusal(r: NoteRow, old: NoteRow): string | null {
  const refused = claimRefusal(r);
  if (refused !== null) return refused;
  if (old.caseJournal !== r.caseJournal) return 'the note it names is in another journal';
  return null;
}

/** A note signed here: the engine's receipt, which names the artifact it is on, and the text signed. */
export interface SignedNote {
  receipt: NoteReceipt;
  text: string;
}

/**
 * The notes on this artifact: every note of the journal worked in (read from it, so a note
 * recorded in an earlier session is listed when the case is opened again, wherever that
 * journal lies; those with a problem too), those the case's own journals hold, and those
 * recorded here since on this artifact, each once. In time order (then sequence): notes of
 * several journals have no common sequence.
 */
export function rowsOf(
  notes: readonly CaseJudgement[],
  work: WorkNotes | null,
  signed: readonly SignedNote[],
  at: { artifact: string; checked: boolean; verdicts: ReadonlyMap<string, Verdict> },
): NoteRow[] {
  const rows = new Map<string, NoteRow>();
  const journalUnproven = work ? workUnproven(work) : null;
  for (const w of work?.judgements ?? [])
    if (w.decision === 'note') rows.set(w.entryHash, workRow(w, at.checked, journalUnproven));
  // A note signed on another artifact is no version of this one's, whatever list it was kept in.
  for (const { receipt, text } of signed)
    if (receipt.artifact === at.artifact && !rows.has(receipt.entryHash))
      rows.set(receipt.entryHash, receiptRow(receipt, text));
  const names = new Map([...rows.values()].flatMap((r) => (r.signer?.checked ? [[r.author, r.signer] as const] : [])));
  for (const n of notes)
    if (n.decision === 'note' && n.subject === at.artifact && !rows.has(n.entryHash))
      rows.set(n.entryHash, caseRow(n, names, at.verdicts.get(n.journal)));
  const list = [...rows.values()].sort((a, b) => (a.atUtc < b.atUtc ? -1 : a.atUtc > b.atUtc ? 1 : a.seq - b.seq));
  // The first edit of a note supersedes it (the engine refuses a second), and only an edit
  // that counts, proven, in the note's own journal: the engine checks an edit against its
  // journal alone, so an entry of another journal, of one that fails, or signed by a key
  // that may not sign notes could otherwise retire a proven note.
  for (const r of list) {
    const old = r.supersedes ? rows.get(r.supersedes) : undefined;
    if (!old) continue;
    r.editRefused = editRefusal(r, old);
    if (r.editRefused === null && old.supersededBy === null) old.supersededBy = r.entryHash;
  }
  return list;
}

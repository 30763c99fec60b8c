/**
 * The rule of a note's edit (docs/journal.md, "Notes"; RPR-JOURNAL-045): an edit is a
 * `review-rationale` entry on an artifact whose body holds `supersedes`; its body must be a
 * judgement body (judgementBodyProblem allows `supersedes` on a note only), and it must name an
 * earlier note on the same artifact that no edit supersedes yet. One rule for `journal verify`
 * (verify.ts), which holds every edit a journal holds to it, and for the writer (writer.ts),
 * which holds every edit it is asked to sign to it under its lock, whoever asks: so no append
 * makes `journal verify` fail with an edit, and a sealed state stands for a journal whose
 * edits hold (trusted-state.ts). A module of its own, below both: notes.ts imports the writer,
 * so the writer cannot import the rule from there.
 */
import type { Finding } from '../../shared/report.js';
import { fail } from '../core/findings.js';
import type { TrustStore } from '../core/keys.js';
import { parseCanonical } from '../core/jcs.js';
import { JournalError } from './errors.js';
import { checkEntryShape, ENTRIES_FILE, entryHash, type Entry, type JsonObject, type Subject } from './format.js';
import { judgementBodyProblem, judgementSignerProblem } from './judgement-rules.js';
import { leafHash } from './merkle.js';
import { streamLines, type RawLine } from './read.js';

export const NOTE_EDIT_RULE = 'RPR-JOURNAL-045';

/** An entry as the rule reads it (one in the journal, or one about to be signed). */
export interface NoteEditEntry {
  kind: string;
  subject: Subject;
  body: JsonObject;
  author: string;
}

/** Whether `e` is a note's edit, the entries the rule holds to it. */
export function isNoteEdit(e: Pick<NoteEditEntry, 'kind' | 'subject' | 'body'>): boolean {
  return e.kind === 'review-rationale' && typeof e.subject.artifact === 'string' && 'supersedes' in e.body;
}

/** A note read: where it is, the counted edit that supersedes it, and why it does not count (null: it does). */
interface ReadNote {
  artifact: string;
  line: number;
  by: { line: number; hash: string } | null;
  standing: string | null;
}

/** What the rule asks of a note's edit and of a note, once the journal above it is read. */
export interface NoteEditView {
  /** Why `e`, an edit about to be appended, breaks the rule, or null. */
  problem(e: NoteEditEntry): string | null;
  /** Why the note `hash` may not be edited by the note commands though the rule allows it (it does not count), or null. */
  uncounted(hash: string): string | null;
}

/**
 * The rule, read in journal order. What counts as superseding is what `journal notes` lists
 * (notes.ts): an edit that passes, whose signer may sign a judgement under the store (any,
 * without one). Since a held checkpoint (`since`), an edit naming an entry before it is only
 * counted (`unchecked`): that needs the whole journal. Memory: one record per note read.
 */
export class NoteEditRule implements NoteEditView {
  private readonly notes = new Map<string, ReadNote>();
  /** Since a held checkpoint: edits naming an entry before it, which this pass did not read. */
  unchecked = 0;

  constructor(
    private readonly trust: TrustStore | null,
    private readonly since = false,
  ) {}

  /** Reads entry `e` (its hash and line): why it is an edit the rule refuses, or null. */
  step(e: NoteEditEntry, hash: string, line: number): string | null {
    const artifact = e.subject.artifact;
    if (e.kind !== 'review-rationale' || typeof artifact !== 'string') return null;
    const edited = isNoteEdit(e) ? this.edited(e, artifact) : null;
    if (edited === undefined) this.unchecked++;
    const why = typeof edited === 'string' ? edited : null;
    if (edited && typeof edited !== 'string' && this.signs(e.author)) edited.by = { line, hash };
    if (e.body['decision'] === 'note')
      this.notes.set(hash, { artifact, line, by: null, standing: this.standing(e, edited) });
    return why;
  }

  problem(e: NoteEditEntry): string | null {
    const artifact = e.subject.artifact;
    if (!isNoteEdit(e) || typeof artifact !== 'string') return null;
    const edited = this.edited(e, artifact);
    return typeof edited === 'string' ? edited : null;
  }

  uncounted(hash: string): string | null {
    const why = this.notes.get(hash)?.standing;
    return why ? `the note ${hash} does not count, so it cannot be edited (${why})` : null;
  }

  /** The note `e` edits, or why it may edit none (undefined: it names an entry before a held checkpoint, unread). */
  private edited(e: NoteEditEntry, artifact: string): ReadNote | string | undefined {
    const body = judgementBodyProblem(e.body);
    if (body) return body;
    const s = e.body['supersedes'] as string;
    const old = this.notes.get(s);
    if (!old)
      return this.since
        ? undefined
        : `entry ${s} is no note on this artifact in the journal (no note above this edit has that hash)`;
    if (old.artifact !== artifact)
      return `entry ${s} is no note on this artifact in the journal: it is the note at line ${old.line}, on another artifact (${old.artifact})`;
    if (old.by !== null)
      return `the note ${s} was already edited by ${old.by.hash}: edit its latest version (the note is at line ${old.line}, its edit at line ${old.by.line})`;
    return old;
  }

  /** Whether an edit by `keyId` counts as superseding: by a key that may sign a judgement under the store (any, without one). */
  private signs(keyId: string): boolean {
    return !this.trust || judgementSignerProblem(keyId, this.trust, 'recorded') === null;
  }

  /** Why a note does not count, as `journal notes` lists it: its body, its signer, or its own edit. */
  private standing(e: NoteEditEntry, edited: ReadNote | string | null | undefined): string | null {
    const body = judgementBodyProblem(e.body);
    if (body) return body;
    if (this.trust) {
      const signer = judgementSignerProblem(e.author, this.trust, 'recorded');
      if (signer) return signer;
    }
    if (typeof edited === 'string') return edited;
    const s = e.body['supersedes'];
    return edited && edited.standing !== null ? `the note ${String(s)} does not count, so it cannot be edited` : null;
  }
}

/**
 * Reads the first `size` entries of the journal in `dir` into `rule` (a writer's, under its
 * lock), parsing only the review rationales, the only entries the rule reads. Each line read
 * must be the tree's leaf (`leafOf`), so a line changed outside a writer is not taken for the
 * entry the tree holds; a damaged line is skipped (journal verify reports it). Returns the
 * edits already there that break the rule, as the findings journal verify makes of them.
 */
export async function readNoteEdits(
  dir: string,
  rule: NoteEditRule,
  size: number,
  leafOf: (seq: number) => Buffer,
): Promise<Finding[]> {
  const found: Finding[] = [];
  const read = (raw: RawLine, text: string | undefined): void => {
    const seq = raw.line - 1;
    if (seq >= size) return;
    const t = text ?? raw.bytes.toString('utf8');
    if (!t.includes('"review-rationale"')) return;
    if (!leafHash(raw.bytes).equals(leafOf(seq)))
      throw new JournalError(
        `journal ${dir}: ${ENTRIES_FILE} line ${raw.line} is not the entry its tree holds; run 'reprise journal verify ${dir}'`,
        'DAMAGED',
      );
    const e = parsedEntry(t, seq);
    if (!e) return;
    const why = rule.step(e, entryHash(e), raw.line);
    if (why) found.push(noteEditFinding(raw.line, why, e.body['supersedes']));
  };
  await streamLines(
    dir,
    ENTRIES_FILE,
    (lines, texts) => lines.forEach((raw, i) => read(raw, texts?.[i])),
    () => undefined,
  );
  return found;
}

/** The entry a line holds, when it is one with that seq (else null: verify reports what it is). */
function parsedEntry(text: string, seq: number): Entry | null {
  try {
    const p = parseCanonical(text);
    const e = p.value as Entry;
    return p.warnings.length === 0 && checkEntryShape(e, '').length === 0 && e.seq === seq ? e : null;
  } catch {
    return null;
  }
}

/** RPR-JOURNAL-045 at the edit's line. */
export function noteEditFinding(line: number, why: string, supersedes: unknown): Finding {
  return fail(
    NOTE_EDIT_RULE,
    `entry at line ${line} is a note's edit the writer refuses: ${why} (an edit is a note naming an earlier note on the same artifact that nothing supersedes yet)`,
    {
      pointer: `line:${line}`,
      actual: typeof supersedes === 'string' ? supersedes : String(supersedes),
    },
  );
}

/**
 * One line of notes.jsonl: a JSON string holding a C2SP checkpoint note (docs/journal.md,
 * "Notes"). Read here for the verifier, for a verification since a held checkpoint (which
 * finds where the notes of the newer trees begin) and for a witness policy (which weighs the
 * journal's own note of a tree).
 */
import { parseCanonical } from '../core/jcs.js';
import { parseCheckpointBody, parseNote, type NoteCheckpoint, type ParsedNote } from './note.js';

export interface NoteLine {
  /** The note text the line's JSON string holds. */
  note: string;
  parsed: ParsedNote;
  checkpoint: NoteCheckpoint;
}

/** The checkpoint note a line holds, or why it holds none (a phrase that follows "the note at … line N"). */
export function readNoteLine(text: string): NoteLine | string {
  let v: unknown;
  try {
    v = parseCanonical(text).value;
  } catch (e) {
    return `is not a C2SP checkpoint note: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (typeof v !== 'string') return 'is not a JSON string holding a signed note';
  try {
    const parsed = parseNote(v);
    return { note: v, parsed, checkpoint: parseCheckpointBody(parsed.body) };
  } catch (e) {
    return `is not a C2SP checkpoint note: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/**
 * The tree size a notes.jsonl line names, read without parsing it when its JSON string starts
 * plainly (an origin without escapes, then the size): a reader looking for a few trees among
 * a million notes skips the others at the cost of a pattern. Null when the line does not start
 * so (it is then read in full).
 */
export function noteLineSizeHint(text: string): number | null {
  const m = /^"[^"\\]*\\n([1-9][0-9]{0,15})\\n/.exec(text);
  return m ? Number(m[1]) : null;
}

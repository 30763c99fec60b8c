/**
 * Which version of a note is the latest: the edit rule, in a module of its own so that a
 * case's workers, which read a journal's judgements (app/kinds/journal/case-facts.ts), load
 * none of the writer that notes.ts holds.
 */
/**
 * The edit rule of notes as listed, read in journal order: an edit may supersede a note above
 * it on the same artifact that counts and that no edit that counts supersedes yet, and only an
 * edit that counts supersedes. One rule for `journal notes` (notesIn) and a case's judgements
 * (app/kinds/journal/case-facts.ts), so the two never disagree on which version of a note is
 * the latest. What a writer signs is held to the rule `journal verify` applies
 * (note-edit-rule.ts), and the note commands add this one's: the note edited must count.
 * Memory: one record per note read.
 */
export class NoteEdits {
  private readonly notes = new Map<string, { artifact: string; counts: boolean; by: string | null }>();

  /** Why an edit on `artifact` may not supersede `supersedes`, or null. */
  problem(supersedes: string, artifact: string): string | null {
    const old = this.notes.get(supersedes);
    if (!old || old.artifact !== artifact) return `entry ${supersedes} is no note on this artifact in the journal`;
    if (!old.counts) return `the note ${supersedes} does not count, so it cannot be edited`;
    if (old.by !== null) return `the note ${supersedes} was already edited by ${old.by}: edit its latest version`;
    return null;
  }

  /** Takes one judgement read (its problem already decided, the edit's included). */
  read(j: {
    entryHash: string;
    artifact: string;
    decision: string | null;
    supersedes: string | null;
    counts: boolean;
  }): void {
    if (j.counts && j.supersedes !== null) {
      const old = this.notes.get(j.supersedes);
      if (old) old.by = j.entryHash;
    }
    if (j.decision === 'note') this.notes.set(j.entryHash, { artifact: j.artifact, counts: j.counts, by: null });
  }

  /** The edit that counts and supersedes a note, or null (the latest version, or no note read). */
  supersededBy(entryHash: string): string | null {
    return this.notes.get(entryHash)?.by ?? null;
  }
}

/**
 * Where a journal directory keeps its entries, and the test that a directory is a journal.
 * Imports nothing of ours, so the CLI's path walk (app/engine/paths.ts) can recognise a
 * journal without loading the engine.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

export const ENTRIES_FILE = 'entries.jsonl';
export const CHECKPOINTS_FILE = 'checkpoints.jsonl';
export const LOCK_FILE = 'journal.lock';
/**
 * Each checkpoint again as a C2SP signed note (tlog-checkpoint), one per line as a JSON
 * string, so tools that are not Reprise can check the journal's checkpoints (journal-notes.md).
 */
export const NOTES_FILE = 'notes.jsonl';
/** Witnesses' cosignatures (C2SP tlog-cosignature/v1) on the journal's checkpoints, one JSON object per line. */
export const COSIGNATURES_FILE = 'cosignatures.jsonl';
/** What the writer keeps beside them (frontier.ts): the Merkle tree's hashes, the entry index, the last trusted state. */
export const TREE_FILE = 'tree.bin';
export const INDEX_FILE = 'index.bin';
export const STATE_FILE = 'state.json';

/**
 * Every file a journal directory holds of its own (docs/journal.md, "Layout and formats"):
 * what it records (entries, checkpoints, notes, cosignatures), what the writer keeps beside
 * them (app/journal/frontier.ts: tree.bin, index.bin, state.json) and its lock
 * (app/journal/lock.ts). The journal's verification answers for these; a walk of a journal
 * directory (app/engine/paths.ts) lists every other entry in it as an artifact of its own.
 * The private files a writer makes for a moment (a lock's holder file, state.json's
 * replacement) are not named: one left by a crash is listed, and fails, as any stray file.
 * The modules that read and write each file take its name from here.
 */
export const JOURNAL_FILES: readonly string[] = Object.freeze([
  ENTRIES_FILE,
  CHECKPOINTS_FILE,
  NOTES_FILE,
  COSIGNATURES_FILE,
  TREE_FILE,
  INDEX_FILE,
  STATE_FILE,
  LOCK_FILE,
]);

const journalFiles: ReadonlySet<string> = new Set(JOURNAL_FILES);

/** Whether an entry name in a journal directory is one of the journal's own files (JOURNAL_FILES). */
export function isJournalFile(name: string): boolean {
  return journalFiles.has(name);
}

/** A journal directory holds the file entries.jsonl. */
export async function isJournalDir(dir: string): Promise<boolean> {
  try {
    return (await stat(join(dir, ENTRIES_FILE))).isFile();
  } catch {
    return false;
  }
}

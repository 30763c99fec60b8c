/**
 * Where a journal directory keeps its entries, and the test that a directory is a journal.
 * Imports nothing of ours, so the CLI's path walk (app/engine/paths.ts) can recognise a
 * journal without loading the engine.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

export const ENTRIES_FILE = 'entries.jsonl';

/** A journal directory holds the file entries.jsonl. */
export async function isJournalDir(dir: string): Promise<boolean> {
  try {
    return (await stat(join(dir, ENTRIES_FILE))).isFile();
  } catch {
    return false;
  }
}

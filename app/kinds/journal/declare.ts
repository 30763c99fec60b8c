/**
 * The evidence journal as a directory kind: `reprise verify DIR` on a directory holding
 * `entries.jsonl` verifies it as a journal (index.ts, app/journal/verify.ts) with
 * --trust-store.
 */
import { isJournalDir } from '../../journal/layout.js';
import { TRUST_STORE_OPTION, type DirectoryKindHandler } from '../types.js';
import { JOURNAL_RULES } from './rule-ids.js';

export const journalKind: DirectoryKindHandler = {
  kind: 'journal',
  rules: { doc: 'docs/rules/journal.md', ids: JOURNAL_RULES },
  // Its authors' and checkpoints' signers (app/journal/verify.ts, proofs.ts).
  options: [{ ...TRUST_STORE_OPTION, decides: ['RPR-JOURNAL-011'] }],
  examples: async () => (await import('./examples.js')).journalWriter,
  detectDir: isJournalDir,
  load: async () => (await import('./index.js')).journalCode,
};

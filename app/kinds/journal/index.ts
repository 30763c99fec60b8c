/**
 * The evidence journal as a directory kind: `reprise verify DIR` on a directory holding
 * `entries.jsonl` verifies it as a journal (app/journal/verify.ts) with --trust-store.
 */
import { journalAuthenticity } from '../../journal/authenticity.js';
import { isJournalDir } from '../../journal/layout.js';
import { journalKindResult } from '../../journal/result.js';
import { verifyJournal } from '../../journal/verify.js';
import type { DirectoryKindHandler } from '../types.js';

export const journalKind: DirectoryKindHandler = {
  kind: 'journal',
  examples: async () => (await import('../../examples/journal.js')).journalWriter,
  detectDir: isJournalDir,
  async verifyDir(dir, ctx) {
    const trust = await ctx.trustStore();
    const v = await verifyJournal(dir, trust, { keep: false, progress: (f) => ctx.progress(f, 'journal') });
    return { ...journalKindResult(v), authenticity: journalAuthenticity(v.findings, v.latestCheckpoint?.signer ?? null, trust !== null) };
  },
};

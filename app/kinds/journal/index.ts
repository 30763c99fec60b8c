/** What runs a journal directory's job (declare.ts declares and detects the kind). */
import { journalAuthenticity } from '../../journal/authenticity.js';
import { journalKindResult } from '../../journal/result.js';
import { verifyJournal } from '../../journal/verify.js';
import type { DirectoryKindCode } from '../types.js';
import { FINDINGS_LIMIT } from '../../core/findings.js';
// What it offers a reviewer's case: small, loaded with the kind's code (no import per artifact).
import { journalCaseFacts } from './case-facts.js';

export const journalCode: DirectoryKindCode = {
  async verifyDir(dir, ctx) {
    const trust = await ctx.trustStore();
    const max = ctx.options.limits?.[FINDINGS_LIMIT];
    const v = await verifyJournal(dir, trust, {
      keep: false,
      progress: (f) => ctx.progress(f, 'journal'),
      ...(max !== undefined ? { maxFindingsPerRule: max } : {}),
    });
    return {
      ...journalKindResult(v),
      authenticity: journalAuthenticity(v.findings, v.latestCheckpoint?.signer ?? null, trust !== null),
    };
  },
  operations: {
    caseFacts: async (subject) =>
      subject.dir === undefined ? { identities: [], references: [], events: [] } : journalCaseFacts(subject.dir),
  },
};

/** What runs a journal directory's job (declare.ts declares and detects the kind). */
import { journalAuthenticity } from '../../journal/authenticity.js';
import { journalKindResult } from '../../journal/result.js';
import { verifyJournal } from '../../journal/verify.js';
import type { DirectoryKindCode } from '../types.js';
import { FINDINGS_LIMIT } from '../../core/findings.js';
// What it offers a reviewer's case: small, loaded with the kind's code (no import per artifact).
import { journalCaseFacts, type VerifiedRead } from './case-facts.js';
import type { KindContext } from '../types.js';

/** What each run's verification read, by its context (the same for its case facts: engine/run.ts), so the facts are checked to be of those bytes. */
const verifiedReads = new WeakMap<KindContext, VerifiedRead>();

export const journalCode: DirectoryKindCode = {
  async verifyDir(dir, ctx) {
    const trust = await ctx.trustStore();
    const max = ctx.options.limits?.[FINDINGS_LIMIT];
    const v = await verifyJournal(dir, trust, {
      keep: false,
      progress: (f) => ctx.progress(f, 'journal'),
      ...(max !== undefined ? { maxFindingsPerRule: max } : {}),
    });
    const { root, entryLines, entriesBytes, checkpointLines, checkpointsBytes } = v;
    verifiedReads.set(ctx, { root, entryLines, entriesBytes, checkpointLines, checkpointsBytes });
    return {
      ...journalKindResult(v),
      authenticity: journalAuthenticity(v.findings, v.latestCheckpoint?.signer ?? null, trust !== null, v.signers),
    };
  },
  operations: {
    caseFacts: async (subject, _report, ctx) =>
      subject.dir === undefined
        ? { identities: [], references: [], events: [] }
        : // The trust store the case ran with judges who may sign each judgement (null: unchecked).
          journalCaseFacts(subject.dir, verifiedReads.get(ctx), await ctx.trustStore().catch(() => null)),
  },
};

/**
 * One operation of the journal worker, confined: whatever it opens (a journal's files, a trust
 * store, a key, an artifact's content) must lie in the folders and files the host granted
 * (`readRoots`, checked on each open descriptor as a job's reads are: core/files.ts
 * withReadConfinement), so a folder swapped for a link after the host's check reaches nothing.
 */
import { withReadConfinement } from '../../app/core/files.js';
import { runJournalOp, type JournalOp } from './journal-ops.js';
import { runJudgementOp, type JudgementOp } from './judgement-ops.js';

/** An operation as the host sends it: with what it may open (none: unconfined, the host's own demo journal). */
export type ConfinedOp = (JournalOp | JudgementOp) & { readRoots?: string[] };

const isJudgementOp = (op: JournalOp | JudgementOp): op is JudgementOp => op.op.startsWith('judge-');

export function runConfinedOp(op: ConfinedOp): Promise<unknown> {
  return withReadConfinement(op.readRoots, () => (isJudgementOp(op) ? runJudgementOp(op) : runJournalOp(op)));
}

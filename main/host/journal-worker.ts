/** A worker thread for journal and quarantine operations (see journal-ops.ts). */
import { parentPort } from 'node:worker_threads';
import { UsageError } from '../../app/core/errors.js';
import { runJournalOp, type JournalOp } from './journal-ops.js';
import { runJudgementOp, type JudgementOp } from './judgement-ops.js';

const port = parentPort;
if (!port) throw new Error('journal-worker must run in a worker thread');

const isJudgementOp = (op: JournalOp | JudgementOp): op is JudgementOp => op.op.startsWith('judge-');

port.on('message', (msg: { id: number; op: JournalOp | JudgementOp }) => {
  (isJudgementOp(msg.op) ? runJudgementOp(msg.op) : runJournalOp(msg.op)).then(
    (result) => port.postMessage({ id: msg.id, ok: true, result }),
    (e: unknown) => {
      const code = (e as NodeJS.ErrnoException | null)?.code;
      const fsProblem = typeof code === 'string' && ['ENOENT', 'EACCES', 'ENOTDIR', 'EISDIR', 'EEXIST'].includes(code);
      // UsageError: the engine's own words for bad input (a FIFO or a device: FileReadError; a key: KeyError; a journal: JournalError).
      const usage = e instanceof UsageError || fsProblem;
      port.postMessage({ id: msg.id, ok: false, usage, message: e instanceof Error ? e.message : String(e) });
    },
  );
});

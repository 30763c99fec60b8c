/** A worker thread for journal and quarantine operations (see journal-ops.ts). */
import { parentPort } from 'node:worker_threads';
import { UsageError } from '../../app/core/errors.js';
import { KeyError } from '../../app/core/keys.js';
import { JournalError } from '../../app/journal/index.js';
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
      // UsageError: the engine's own words for bad input (a path that is a FIFO or a device: FileReadError).
      const usage = e instanceof UsageError || e instanceof JournalError || e instanceof KeyError || fsProblem;
      port.postMessage({ id: msg.id, ok: false, usage, message: e instanceof Error ? e.message : String(e) });
    },
  );
});

/** A worker thread for journal and quarantine operations (see journal-ops.ts). */
import { parentPort } from 'node:worker_threads';
import { UsageError } from '../../app/core/errors.js';
import { runConfinedOp, type ConfinedOp } from './confined-op.js';

const port = parentPort;
if (!port) throw new Error('journal-worker must run in a worker thread');

port.on('message', (msg: { id: number; op: ConfinedOp }) => {
  runConfinedOp(msg.op).then(
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

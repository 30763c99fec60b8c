/**
 * A worker thread for `reprise rejudge --workers N`: judges a batch of listed artifacts into
 * their records (rejudge/judge.ts), so the CLI's main thread only gathers and writes them.
 */
import { parentPort } from 'node:worker_threads';
import { judgeBatch, type JudgeJob, type JudgeOutcome } from './rejudge/judge.js';
import type { FromWorker, ToWorker } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('rejudge-worker must run in a worker thread');

port.on('message', (msg: ToWorker<JudgeJob>) => {
  void judgeBatch(msg.job).then((outcome) => {
    const done: FromWorker<JudgeOutcome[]> = { id: msg.id, kind: 'done', outcome };
    port.postMessage(done);
  });
});

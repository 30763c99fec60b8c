/** A worker thread that runs engine jobs (see pool.ts). */
import { parentPort } from 'node:worker_threads';
import { executeJob } from './execute.js';
import type { FromWorker, ToWorker } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('engine-worker must run in a worker thread');

port.on('message', (msg: ToWorker) => {
  void executeJob(msg.job, (fraction, label) => {
    const p: FromWorker = { id: msg.id, kind: 'progress', fraction, ...(label !== undefined ? { label } : {}) };
    port.postMessage(p);
  }).then((outcome) => {
    const done: FromWorker = { id: msg.id, kind: 'done', outcome };
    port.postMessage(done);
  });
});

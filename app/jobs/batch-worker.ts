/**
 * A worker thread for CLI batches and reviewer's cases: runs several paths per message and
 * renders each report here, so the main thread only writes text (with `--workers 2` on a
 * 2-core machine, main-thread work competes with the workers for a core). For a case
 * (BatchJob.rels) each item also carries the artifact's case part (batch-item.ts).
 */
import { parentPort } from 'node:worker_threads';
import { batchItem } from './batch-item.js';
import type { BatchItem, BatchJob, FromWorker, ToWorker } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('batch-worker must run in a worker thread');

port.on('message', (msg: ToWorker<BatchJob>) => {
  void (async () => {
    const items: BatchItem[] = [];
    for (let i = 0; i < msg.job.paths.length; i++) items.push(await batchItem(msg.job, i));
    const done: FromWorker<BatchItem[]> = { id: msg.id, kind: 'done', outcome: items };
    port.postMessage(done);
  })();
});

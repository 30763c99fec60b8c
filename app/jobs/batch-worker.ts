/**
 * A worker thread for CLI batches and reviewer's cases: runs several paths per message and
 * renders each report here, so the main thread only writes text (with `--workers 2` on a
 * 2-core machine, main-thread work competes with the workers for a core). For a case
 * (BatchJob.rels) each item also carries the artifact's case part, read while it was open.
 */
import { parentPort } from 'node:worker_threads';
import { verifyForCase } from '../engine/case/verify-one.js';
import { executeJob } from './execute.js';
import { rendered } from './render.js';
import type { BatchItem, BatchJob, FromWorker, JobOutcome, ToWorker } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('batch-worker must run in a worker thread');

async function one(job: BatchJob, i: number): Promise<BatchItem> {
  const { paths, mode, options, render, rels } = job;
  const path = paths[i]!;
  if (!rels) {
    const o: JobOutcome = await executeJob({ op: 'runPath', path, mode, options });
    return o.ok ? rendered(o.report, render) : o;
  }
  const o = await verifyForCase(path, rels[i]!, mode, options, { shown: path });
  if (!o.ok) return { ok: false, usage: o.unreadable.usage, message: o.unreadable.message };
  return { ...rendered(o.report!, render), part: o.part };
}

port.on('message', (msg: ToWorker<BatchJob>) => {
  void (async () => {
    const items: BatchItem[] = [];
    for (let i = 0; i < msg.job.paths.length; i++) items.push(await one(msg.job, i));
    const done: FromWorker<BatchItem[]> = { id: msg.id, kind: 'done', outcome: items };
    port.postMessage(done);
  })();
});

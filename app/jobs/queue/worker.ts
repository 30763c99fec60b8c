/**
 * `reprise worker`: a BullMQ worker taking re-judgement batches (docs/deploy.md). Each batch
 * runs in a sandboxed child process (processor.ts), so an artifact whose check crashes ends
 * that process, not the worker. A worker killed outright (SIGKILL) stops renewing its jobs'
 * locks; another worker's stalled-job check puts them back on the queue and they run again.
 *
 * A batch that failed on every attempt is split into one job per artifact (ids `bN.k`); an
 * artifact alone that still fails gets a record of its own saying so (kept in Redis beside
 * the queue), so the merge names it instead of waiting for it. A worker that starts does the
 * same for failures a killed worker left undone.
 */
import { fileURLToPath } from 'node:url';
import { Worker, type Job } from 'bullmq';
import { readFailure } from '../../core/files.js';
import { contentDigest } from '../rejudge/digest.js';
import type { JudgedRecord } from '../../rejudge/index.js';
import { connectionOf, crashKey, openRedis, type QueueTarget } from './connection.js';
import { ensureReachable, JOB_ATTEMPTS, openQueue, queueCounts, splitId, type QueueJobData } from './run.js';

const REFUSED = 'reprise refused the job:';

export interface WorkerSettings {
  concurrency: number;
  /** BullMQ's stalled-job check interval and lock duration (ms): how soon a dead worker's job runs again. */
  stalledInterval: number;
  lockDuration: number;
  /** Exit when the queue has nothing left to take or finish. */
  drain: boolean;
  /**
   * A job held longer than this (ms) ends the worker with an error, so that the job's lock
   * lapses and another worker takes it: BullMQ 6.7 never settles a job whose sandboxed
   * process dies while it starts (its start-up waits for a 'close' event its exit handler
   * has already unsubscribed), and the worker would hold that job for ever.
   */
  jobTimeout: number;
}

/** A worker that stopped because a job outlived `jobTimeout`. */
export class StuckJobError extends Error {}

export interface WorkerEvents {
  event(
    name: 'active' | 'judging' | 'completed' | 'failed' | 'split' | 'crashed',
    fields: Record<string, unknown>,
  ): void;
  counts(c: { done: number; failed: number; remaining: number }): void;
}

/** The record of an artifact whose check ended its sandboxed process on every attempt. */
export async function crashRecord(job: Job<QueueJobData>): Promise<JudgedRecord | { problem: string }> {
  const item = job.data.items[0]!;
  let sha256 = item.sha256;
  try {
    sha256 ??= await contentDigest(item.path);
  } catch (e) {
    return {
      problem: `${item.name} ended its worker's sandboxed process and cannot be read (${readFailure(e)}): it has no record`,
    };
  }
  return {
    sha256,
    path: item.name,
    kind: null,
    verdict: 'error',
    rules: [],
    reportDigest: null,
    error: `its check ended the worker's sandboxed process on each of ${JOB_ATTEMPTS} attempts (a crash): it could not be judged`,
  };
}

/** After a job's last failed attempt: a batch is split, an artifact alone gets its crash record. */
export async function settleFailure(t: QueueTarget, job: Job<QueueJobData>, events?: WorkerEvents): Promise<void> {
  if (job.attemptsMade < (job.opts.attempts ?? 1) || job.failedReason?.startsWith(REFUSED)) return;
  if (job.data.items.length > 1) {
    const queue = openQueue(t);
    try {
      await queue.addBulk(
        job.data.items.map((item, k) => ({
          name: 'judge',
          data: { ...job.data, items: [item] },
          opts: { jobId: splitId(job.id!, k), attempts: JOB_ATTEMPTS },
        })),
      );
    } finally {
      await queue.close();
    }
    events?.event('split', { job: job.id, items: job.data.items.length });
    return;
  }
  const r = await openRedis(t);
  try {
    await r.hset(crashKey(t), job.id!, JSON.stringify(await crashRecord(job)));
  } finally {
    r.disconnect();
  }
  events?.event('crashed', { job: job.id, path: job.data.items[0]!.name });
}

/** Settles every failed job a worker that was killed may have left unsettled (idempotent: fixed job ids, one hash field each). */
async function sweepFailures(t: QueueTarget, events: WorkerEvents): Promise<void> {
  const queue = openQueue(t);
  try {
    const failed = (await queue.getJobs(['failed'])) as Job<QueueJobData>[];
    for (const job of failed) await settleFailure(t, job, events);
  } finally {
    await queue.close();
  }
}

/** Runs a worker until SIGTERM/SIGINT or, with `drain`, until the queue has nothing left. */
export async function runQueueWorker(t: QueueTarget, s: WorkerSettings, events: WorkerEvents): Promise<void> {
  await ensureReachable(t);
  await sweepFailures(t, events);
  const processor = fileURLToPath(new URL('./processor.js', import.meta.url));
  const worker = new Worker<QueueJobData>(t.name, processor, {
    connection: connectionOf(t),
    concurrency: s.concurrency,
    stalledInterval: s.stalledInterval,
    lockDuration: s.lockDuration,
    maxStalledCount: JOB_ATTEMPTS,
  });
  const held = new Map<string, number>();
  worker.on('active', (job) => {
    held.set(job.id!, Date.now());
    events.event('active', { job: job.id, items: job.data.items.length });
  });
  worker.on('progress', (job) => events.event('judging', { job: job.id }));
  worker.on('completed', (job) => {
    held.delete(job.id!);
    events.event('completed', { job: job.id });
  });
  let settling = 0;
  worker.on('failed', (job, err) => {
    if (!job) return;
    held.delete(job.id!);
    events.event('failed', { job: job.id, attempt: job.attemptsMade, reason: err.message });
    settling++;
    void settleFailure(t, job, events)
      .catch(() => undefined) // the next worker's sweep settles it
      .finally(() => settling--);
  });
  worker.on('error', () => undefined); // a lost connection is retried by BullMQ until Redis is back
  const queue = openQueue(t);
  let stop = false;
  const onSignal = () => void (stop = true);
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  try {
    for (;;) {
      await new Promise((r) => setTimeout(r, 200));
      const c = await queueCounts(queue);
      events.counts(c);
      const stuck = [...held].find(([, since]) => Date.now() - since > s.jobTimeout);
      if (stuck)
        throw new StuckJobError(
          `job ${stuck[0]} has been held for more than ${s.jobTimeout} ms: this worker stops so that its lock lapses and another worker takes the job`,
        );
      // Draining: nothing left, and no failure being split into new jobs.
      if (stop || (s.drain && c.remaining === 0 && settling === 0)) break;
    }
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    // A stuck job's processor never returns: close without waiting for it.
    await worker.close(held.size > 0 && [...held.values()].some((since) => Date.now() - since > s.jobTimeout));
    await queue.close();
  }
}

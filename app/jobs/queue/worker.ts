/**
 * `reprise worker`: a BullMQ worker taking re-judgement batches (docs/deploy.md). Each batch
 * runs in a sandboxed child process (processor.ts), so an artifact whose check crashes ends
 * that process, not the worker. A worker killed outright (SIGKILL) stops renewing its jobs'
 * locks; another worker's stalled-job check puts them back on the queue and they run again.
 * A job that is not one of the run's batches as the run put them on the queue is refused
 * before any sandboxed process takes it (admit.ts).
 *
 * A batch that failed for good (every attempt, or stalled more often than BullMQ allows) is
 * split into one job per artifact (ids `bN.k`); an artifact alone that still fails gets a
 * record of its own saying so (kept in Redis beside the queue), so the merge names it
 * instead of waiting for it. A worker that starts, and one that drains, does the same for
 * failures a killed worker left undone.
 */
import { fileURLToPath } from 'node:url';
import { UnrecoverableError, Worker, type Job, type Processor, type WorkerOptions } from 'bullmq';
import { readFailure } from '../../core/files.js';
import { contentDigest } from '../rejudge/digest.js';
import type { JudgeOutcome } from '../rejudge/judge.js';
import type { JudgedRecord } from '../../rejudge/index.js';
import { admissionProblem, type JobRules, type RunSource } from './admit.js';
import { connectionOf, crashKey, lastingRedis, openRedis, type QueueTarget } from './connection.js';
import { REFUSED, splitId } from './ids.js';
import { ensureReachable, heldRun, JOB_ATTEMPTS, openQueue, queueCounts, type QueueJobData } from './run.js';

/** BullMQ's reason for a job that stalled more often than maxStalledCount: failed for good, never retried. */
const STALLED = 'job stalled more than allowable limit';

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
  /** What a job may carry whatever the run's statement says (admit.ts). */
  rules: JobRules;
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

/** Why an artifact alone failed for good, as its record says. */
const crashReason = (job: Job<QueueJobData>): string =>
  job.failedReason === STALLED
    ? `its job was left unfinished (a worker lost, or its sandboxed process dead as it started) more than ${JOB_ATTEMPTS} times: it could not be judged`
    : `its check ended the worker's sandboxed process on each of ${JOB_ATTEMPTS} attempts (a crash): it could not be judged`;

/** The record of an artifact whose job failed for good (its check crashed, or its job stalled, every time). */
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
    error: crashReason(job),
  };
}

/**
 * Settles a job that failed for good (the caller knows: it is in BullMQ's failed set, which a
 * job leaves only to be retried by hand): a batch is split, an artifact alone gets its crash
 * record. Not what BullMQ's attempts say: a job that stalled too often fails after fewer.
 */
export async function settleFailure(t: QueueTarget, job: Job<QueueJobData>, events?: WorkerEvents): Promise<void> {
  if (job.failedReason?.startsWith(REFUSED)) return;
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
    // The first record stays: a sweep that settles the job again reads the file again.
    await r.hsetnx(crashKey(t), job.id!, JSON.stringify(await crashRecord(job)));
  } finally {
    r.disconnect();
  }
  events?.event('crashed', { job: job.id, path: job.data.items[0]!.name });
}

/** Settles every failed job not yet settled by this worker (idempotent: fixed job ids, one hash field each); how many it settled. */
async function sweepFailures(t: QueueTarget, events: WorkerEvents, settled: Set<string>): Promise<number> {
  const queue = openQueue(t);
  let n = 0;
  try {
    const failed = (await queue.getJobs(['failed'])) as Job<QueueJobData>[];
    for (const job of failed.filter((j) => j?.id && !settled.has(j.id))) {
      await settleFailure(t, job, events);
      settled.add(job.id!);
      n++;
    }
  } finally {
    await queue.close();
  }
  return n;
}

/** A BullMQ worker that refuses, before its sandboxed process takes it, a job that is not one of the run's. */
class RunWorker extends Worker<QueueJobData, JudgeOutcome[]> {
  constructor(
    t: QueueTarget,
    processor: string | Processor<QueueJobData, JudgeOutcome[]>,
    opts: WorkerOptions,
    private readonly admit: (job: Job<QueueJobData>) => Promise<string | null>,
  ) {
    super(t.name, processor, opts);
  }

  protected override async callProcessJob(
    job: Job<QueueJobData, JudgeOutcome[]>,
    token: string,
    signal?: AbortSignal,
  ): Promise<JudgeOutcome[]> {
    const problem = await this.admit(job);
    // Unrecoverable: no attempt of it runs anywhere, and the merge names it.
    if (problem) throw new UnrecoverableError(`${REFUSED} ${problem}`);
    return super.callProcessJob(job, token, signal);
  }
}

/** The sandboxed processor's file (built beside this one). */
const PROCESSOR = fileURLToPath(new URL('./processor.js', import.meta.url));

/**
 * Runs a worker until SIGTERM/SIGINT or, with `drain`, until the queue has nothing left.
 * `processor`: the sandboxed file; the tests give its default export, to judge in their own process.
 */
export async function runQueueWorker(
  t: QueueTarget,
  s: WorkerSettings,
  events: WorkerEvents,
  processor: string | Processor<QueueJobData, JudgeOutcome[]> = PROCESSOR,
): Promise<void> {
  await ensureReachable(t);
  const settled = new Set<string>();
  await sweepFailures(t, events, settled);
  const src: RunSource = { t, redis: lastingRedis(t), queue: openQueue(t) };
  const worker = new RunWorker(
    t,
    processor,
    {
      connection: connectionOf(t),
      concurrency: s.concurrency,
      stalledInterval: s.stalledInterval,
      lockDuration: s.lockDuration,
      maxStalledCount: JOB_ATTEMPTS,
    },
    (job) => admissionProblem(src, job, s.rules),
  );
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
    // Failed for good when BullMQ put it in its failed set; otherwise it is tried again.
    void job
      .isFailed()
      .then(async (final) => {
        if (!final) return;
        await settleFailure(t, job, events);
        settled.add(job.id!);
      })
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
      if (stop) break;
      // Draining: nothing left, no failure being split, and none left unsettled (a job failed for stalling, by any worker).
      if (s.drain && c.remaining === 0 && settling === 0 && (await sweepFailures(t, events, settled)) === 0) {
        // Nothing left is not the run done when the queue holds none (a mistyped NAME, a Redis restarted empty).
        await heldRun(t);
        break;
      }
    }
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    // A stuck job's processor never returns: close without waiting for it.
    await worker.close(held.size > 0 && [...held.values()].some((since) => Date.now() - since > s.jobTimeout));
    await queue.close();
    await src.queue.close();
    src.redis.disconnect();
  }
}

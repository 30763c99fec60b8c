/**
 * A re-judgement on a BullMQ queue (docs/deploy.md): the run's statement kept in Redis, its
 * batches as jobs with fixed ids (`b0`, `b1`, …; a batch split after a crash: `b3.0`, `b3.1`,
 * …), so enqueueing the same run twice adds nothing and every artifact has one home.
 */
import { Queue } from 'bullmq';
import { canonicalizeValue } from '../../core/jcs.js';
import { UsageError } from '../../core/errors.js';
import type { EngineOptions } from '../../kinds/types.js';
import type { ListSpec, RunSpec } from '../../rejudge/index.js';
import type { ArtifactList, ListItem } from '../rejudge/list.js';
import { connectionOf, openRedis, runKey, type QueueTarget } from './connection.js';

export const QUEUE_RUN_TYPE = 'reprise.rejudge-queue/v1';

/** What the queue holds a run of: the list, how it is judged, and how it was cut into batches. */
export interface QueueRun {
  type: typeof QUEUE_RUN_TYPE;
  list: ListSpec & { source: string };
  run: RunSpec;
  batches: number;
  batch: number;
}

/** One job: a batch of the list with what judging it needs (a sandboxed process has no other way to know). */
export interface QueueJobData {
  batch: number;
  items: ListItem[];
  options: EngineOptions;
  mode: RunSpec['mode'];
  /** The run's option digests and which options name files: a worker that reads other files refuses the job. */
  digests: Record<string, string>;
  pathOptions: string[];
}

/** How many times a batch is tried (a crash of its sandboxed process, a stall) before it is split or recorded as such. */
export const JOB_ATTEMPTS = 3;
export const batchId = (b: number): string => `b${b}`;
export const splitId = (parent: string, k: number): string => `${parent}.${k}`;

/** The queue; its connection errors are retried by BullMQ and never printed raw (reachability is checked first: ensureReachable). */
export function openQueue(t: QueueTarget): Queue<QueueJobData> {
  const q = new Queue<QueueJobData>(t.name, { connection: connectionOf(t) });
  q.on('error', () => undefined);
  return q;
}

/** A usage error naming the server when no Redis answers there, before any BullMQ object would retry for ever. */
export async function ensureReachable(t: QueueTarget): Promise<void> {
  const r = await openRedis(t);
  r.disconnect();
}

/** Reads the run a queue holds, or null. */
export async function readRun(t: QueueTarget): Promise<QueueRun | null> {
  const r = await openRedis(t);
  try {
    const s = await r.get(runKey(t));
    return s ? (JSON.parse(s) as QueueRun) : null;
  } finally {
    r.disconnect();
  }
}

/** Records the run's statement; a queue that holds another run is refused (its name is taken). */
async function claimRun(t: QueueTarget, run: QueueRun): Promise<void> {
  const r = await openRedis(t);
  try {
    const text = canonicalizeValue(run);
    if ((await r.set(runKey(t), text, 'NX')) === 'OK') return;
    const held = await r.get(runKey(t));
    if (held !== null && canonicalizeValue(JSON.parse(held)) !== text)
      throw new UsageError(
        `the queue ${t.name} holds another re-judgement (another list, options or batch size): give the run another queue NAME`,
        'refused',
      );
  } finally {
    r.disconnect();
  }
}

/** Puts the list on the queue in batches of `batch`; the same run enqueued again adds nothing. */
export async function enqueueRun(
  t: QueueTarget,
  list: ArtifactList,
  run: RunSpec,
  job: Omit<QueueJobData, 'batch' | 'items' | 'digests'>,
  batch: number,
): Promise<QueueRun> {
  const batches = Math.ceil(list.items.length / batch);
  const spec: QueueRun = { type: QUEUE_RUN_TYPE, list: { ...list.spec, source: list.source }, run, batches, batch };
  await claimRun(t, spec);
  const queue = openQueue(t);
  try {
    for (let from = 0; from < batches; from += 1000) {
      const jobs = [];
      for (let b = from; b < Math.min(batches, from + 1000); b++) {
        const items = list.items.slice(b * batch, (b + 1) * batch);
        jobs.push({
          name: 'judge',
          data: { ...job, batch: b, items, digests: run.options },
          opts: { jobId: batchId(b), attempts: JOB_ATTEMPTS },
        });
      }
      await queue.addBulk(jobs);
    }
  } finally {
    await queue.close();
  }
  return spec;
}

/** The queue's counts of jobs: done, failed, and what is left to take or being taken. */
export async function queueCounts(queue: Queue): Promise<{ done: number; failed: number; remaining: number }> {
  const c = await queue.getJobCounts();
  return {
    done: c['completed'] ?? 0,
    failed: c['failed'] ?? 0,
    remaining:
      (c['waiting'] ?? 0) +
      (c['active'] ?? 0) +
      (c['delayed'] ?? 0) +
      (c['prioritized'] ?? 0) +
      (c['waiting-children'] ?? 0),
  };
}

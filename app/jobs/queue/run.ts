/**
 * A re-judgement on a BullMQ queue (docs/deploy.md): the run's statement kept in Redis, its
 * batches as jobs with fixed ids (`b0`, `b1`, …; a batch split after a crash: `b3.0`, `b3.1`,
 * …), so enqueueing the same run twice adds nothing and every artifact has one home. Each
 * batch's items are kept by digest beside the statement, so a worker runs only the run's own
 * batches (jobs/queue/admit.ts).
 */
import { Queue } from 'bullmq';
import { canonicalizeValue } from '../../core/jcs.js';
import { isPlainObject as isObj } from '../../core/closed.js';
import { UsageError } from '../../core/errors.js';
import { hashValue, isHashString } from '../../core/hash.js';
import type { EngineOptions } from '../../kinds/types.js';
import { runProblem, type ListSpec, type RunSpec } from '../../rejudge/index.js';
import type { ArtifactList, ListItem } from '../rejudge/list.js';
import { batchesKey, connectionOf, openRedis, runKey, type QueueTarget } from './connection.js';
import { batchId } from './ids.js';

export const QUEUE_RUN_TYPE = 'reprise.rejudge-queue/v2';

/** What the queue holds a run of: the list, how it is judged, and how it was cut into batches. */
export interface QueueRun {
  type: typeof QUEUE_RUN_TYPE;
  list: ListSpec & { source: string };
  run: RunSpec;
  batches: number;
  batch: number;
  /** `H` of the batches' digests in order: the same list cut otherwise is another run. */
  batchesDigest: string;
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
/** The largest `--batch`: a batch is one job's work, and a bound on what a statement may claim. */
export const MAX_BATCH = 10000;
/** The digest a batch's items are kept under: their canonical JSON's. */
export const itemsDigest = (items: readonly ListItem[]): string => hashValue(items);

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const only = (o: Record<string, unknown>, names: readonly string[]): boolean =>
  Object.keys(o).every((k) => names.includes(k));

/**
 * Why a value is not a run statement, or null. Redis is input like a shard file: a batch
 * count the list and batch size do not make (a hostile 300000000) would have the merge count
 * batches that no job holds.
 */
export function queueRunProblem(v: unknown): string | null {
  if (!isObj(v) || v['type'] !== QUEUE_RUN_TYPE) return `it is not a ${QUEUE_RUN_TYPE} statement`;
  if (!only(v, ['type', 'list', 'run', 'batches', 'batch', 'batchesDigest'])) return 'it has a member no statement has';
  const l = v['list'];
  if (!isObj(l) || !only(l, ['items', 'digest', 'source']) || !isCount(l['items']) || !isHashString(l['digest']))
    return 'list is not {items, digest, source}';
  if (typeof l['source'] !== 'string') return 'list.source is not a string';
  const run = runProblem(v['run']);
  if (run) return run;
  const batch = v['batch'];
  if (!isCount(batch) || batch < 1 || batch > MAX_BATCH) return `batch is not a whole number from 1 to ${MAX_BATCH}`;
  if (v['batches'] !== Math.ceil(l['items'] / batch))
    return `batches is not the ${Math.ceil(l['items'] / batch)} that ${l['items']} artifacts in batches of ${batch} make`;
  return isHashString(v['batchesDigest']) ? null : 'batchesDigest is not a hash string';
}

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

/** The run a statement's text states; refused, naming why, when it is not one. */
export function runOf(t: QueueTarget, text: string): QueueRun {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    v = undefined;
  }
  const problem = queueRunProblem(v);
  if (problem) throw new UsageError(`the queue ${t.name} holds a run statement that is not one: ${problem}`, 'refused');
  return v as QueueRun;
}

/** Reads the run a queue holds, or null; a statement that is not one is refused. */
export async function readRun(t: QueueTarget): Promise<QueueRun | null> {
  const r = await openRedis(t);
  try {
    const text = await r.get(runKey(t));
    return text === null ? null : runOf(t, text);
  } finally {
    r.disconnect();
  }
}

/**
 * The run a queue holds, refused (exit 3) when it holds none or not all of its batches: what
 * the merge, a draining worker and the enqueuer's follow check before they say a run is done,
 * since an empty queue (a mistyped NAME, a Redis restarted without persistence) has nothing
 * left to do either.
 */
export async function heldRun(t: QueueTarget): Promise<QueueRun> {
  const run = await readRun(t); // (reaching Redis first: a usage error when it does not answer)
  if (!run)
    throw new UsageError(
      `the queue ${t.name} holds no re-judgement: put one on it with reprise rejudge LIST_OR_DIR --queue`,
      'refused',
    );
  const redis = await openRedis(t);
  try {
    // Bounds the batches counted by what the queue holds, not by what its statement says.
    const held = await redis.hlen(batchesKey(t));
    if (held !== run.batches)
      throw new UsageError(
        `the queue ${t.name} holds the items of ${held} batches, not the ${run.batches} its run statement counts: the run was not put on it whole (enqueue it again), or the statement is not the run's`,
        'refused',
      );
    return run;
  } finally {
    redis.disconnect();
  }
}

/** Records the run's statement; a queue that holds another run is refused (its name is taken). */
async function claimRun(t: QueueTarget, run: QueueRun): Promise<void> {
  const r = await openRedis(t);
  try {
    const text = canonicalizeValue(run);
    if ((await r.set(runKey(t), text, 'NX')) === 'OK') return;
    // Written canonical: any other text is another run (or none a statement can be).
    const held = await r.get(runKey(t));
    if (held !== null && held !== text)
      throw new UsageError(
        `the queue ${t.name} holds another re-judgement (another list, options, batch size or order of the list): give the run another queue NAME`,
        'refused',
      );
  } finally {
    r.disconnect();
  }
}

/** The list cut into batches of `batch` items, in list order. */
const cut = (items: readonly ListItem[], batch: number): ListItem[][] =>
  Array.from({ length: Math.ceil(items.length / batch) }, (_, b) => items.slice(b * batch, (b + 1) * batch));

/** Keeps each batch's items digest beside the statement, before any job a worker could take. */
async function keepBatches(t: QueueTarget, digests: readonly string[]): Promise<void> {
  const r = await openRedis(t);
  try {
    for (let from = 0; from < digests.length; from += 1000)
      await r.hset(
        batchesKey(t),
        Object.fromEntries(digests.slice(from, from + 1000).map((d, i) => [batchId(from + i), d])),
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
  const batches = cut(list.items, batch);
  const digests = batches.map(itemsDigest);
  const spec: QueueRun = {
    type: QUEUE_RUN_TYPE,
    list: { ...list.spec, source: list.source },
    run,
    batches: batches.length,
    batch,
    batchesDigest: hashValue(digests),
  };
  await claimRun(t, spec);
  await keepBatches(t, digests);
  const queue = openQueue(t);
  try {
    for (let from = 0; from < batches.length; from += 1000)
      await queue.addBulk(
        batches.slice(from, from + 1000).map((items, i) => ({
          name: 'judge',
          data: { ...job, batch: from + i, items, digests: run.options },
          opts: { jobId: batchId(from + i), attempts: JOB_ATTEMPTS },
        })),
      );
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

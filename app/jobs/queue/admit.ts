/**
 * Which jobs a worker runs (docs/deploy.md): only the run's own batches, as `rejudge --queue`
 * put them on the queue. A job is input like a shard file: one added to Redis beside the
 * run's, naming other paths (/etc/shadow) or another option (a kernel adapter of someone's
 * choosing) with digests it carries itself, would otherwise be judged: its command run, its
 * files read and their hashes stored. Checked in the worker's own process against the run's
 * statement, before any sandboxed process takes the job.
 */
import { Job, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { isPlainObject as isObj } from '../../core/closed.js';
import { UsageError } from '../../core/errors.js';
import { canonicalizeValue } from '../../core/jcs.js';
import { runSpec } from '../rejudge/run.js';
import { batchesKey, runKey, type QueueTarget } from './connection.js';
import { batchId, parseJobId } from './ids.js';
import { itemsDigest, runOf, type QueueJobData, type QueueRun } from './run.js';

/** What a worker allows whatever a statement says: the options `rejudge` passes the engine, and which of them name files. */
export interface JobRules {
  options: readonly string[];
  pathOptions: readonly string[];
}

/** Where a worker reads the run: its Redis client and queue. */
export interface RunSource {
  t: QueueTarget;
  redis: Redis;
  queue: Queue<QueueJobData>;
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  canonicalizeValue([...a].sort()) === canonicalizeValue([...b].sort());

/** Why this worker does not run the job (it runs nothing of it), or null. */
export async function admissionProblem(src: RunSource, job: Job, rules: JobRules): Promise<string | null> {
  const text = await src.redis.get(runKey(src.t));
  if (text === null) return `the queue ${src.t.name} holds no re-judgement`;
  let run: QueueRun;
  try {
    run = runOf(src.t, text);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  const at = parseJobId(job.id ?? '');
  if (!at || at.batch >= run.batches)
    return `${JSON.stringify(job.id)} is not one of the run's jobs (b0 to b${run.batches - 1}, bN.k for a batch split)`;
  const data: unknown = job.data;
  if (!isObj(data) || data['batch'] !== at.batch || !Array.isArray(data['items']) || !isObj(data['options']))
    return `its data is not that of a job of batch ${batchId(at.batch)}`;
  const d = data as unknown as QueueJobData;
  return optionsProblem(run, d, rules) ?? (await itemsProblem(src, at, d));
}

/** The job judges as the run states: this engine, the run's mode, and exactly the run's options, each one `rejudge` passes. */
function optionsProblem(run: QueueRun, d: QueueJobData, rules: JobRules): string | null {
  const engine = runSpec(run.run.mode, {}).engine;
  if (run.run.engine !== engine) return `the run is judged by ${run.run.engine}, and this worker is ${engine}`;
  if (d.mode !== run.run.mode) return `its mode is not the run's (${run.run.mode})`;
  const names = Object.keys(d.options);
  const foreign = [...names, ...Object.keys(run.run.options)].filter((n) => !rules.options.includes(n));
  if (foreign.length > 0)
    return `it or the run names options a re-judgement never passes the engine: ${[...new Set(foreign)].join(', ')}`;
  if (!sameSet(names, Object.keys(run.run.options)))
    return `its options (${names.join(', ') || 'none'}) are not the run's (${Object.keys(run.run.options).join(', ') || 'none'})`;
  if (!isObj(d.digests) || canonicalizeValue(d.digests) !== canonicalizeValue(run.run.options))
    return "its option digests are not the run's";
  if (!Array.isArray(d.pathOptions) || !sameSet(d.pathOptions, rules.pathOptions))
    return 'it names other options as files than the engine does';
  return null;
}

/** The job's items are its batch's as the run put them on the queue (a split job's: the one artifact it was split for). */
async function itemsProblem(
  src: RunSource,
  at: { batch: number; part: number | null },
  d: QueueJobData,
): Promise<string | null> {
  const id = batchId(at.batch);
  const digest = await src.redis.hget(batchesKey(src.t), id);
  if (digest === null) return `the queue holds no items of batch ${id}`;
  if (at.part === null)
    return itemsDigest(d.items) === digest ? null : `its items are not those of the run's batch ${id}`;
  const parent = (await Job.fromId(src.queue, id)) as Job<QueueJobData> | undefined;
  const items: unknown = parent?.data.items;
  if (!Array.isArray(items) || itemsDigest(items) !== digest)
    return `the batch ${id} it was split from is not on the queue as the run put it`;
  const item: unknown = items[at.part];
  return item !== undefined && canonicalizeValue(d.items) === canonicalizeValue([item])
    ? null
    : `its items are not artifact ${at.part} of the run's batch ${id}`;
}

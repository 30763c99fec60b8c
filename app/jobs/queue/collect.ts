/**
 * `reprise rejudge merge --queue`: the records a queue's workers left in Redis, gathered
 * into the same assembly shard files make (app/rejudge/assemble.ts), so the signed
 * record is byte-identical to the shards' whatever the order in which jobs finished. Every
 * batch must be done: completed, or failed and settled (split into jobs that are done, or
 * an artifact alone with its crash record); otherwise nothing is merged. A job's result is
 * input like a shard file's line: each record is checked as a shard file's are (recordProblem),
 * and a result that is not one outcome per artifact of its job is a problem naming the job.
 */
import type { Job } from 'bullmq';
import { isPlainObject as isObj } from '../../core/closed.js';
import {
  compareRecords,
  emptyAssembly,
  recordLine,
  recordProblem,
  RecordSink,
  type Assembly,
  type JudgedRecord,
} from '../../rejudge/index.js';
import type { JudgeOutcome } from '../rejudge/judge.js';
import { crashKey, openRedis, type QueueTarget } from './connection.js';
import { batchId, REFUSED, splitId } from './ids.js';
import { heldRun, openQueue, type QueueJobData, type QueueRun } from './run.js';

export interface Collected {
  run: QueueRun;
  /** Null while batches are left to do (`pending` says how many). */
  assembly: Assembly | null;
  pending: number;
  /** Artifacts that could not be placed or judged at all, batches refused, and results that are not a job's outcomes. */
  problems: string[];
}

type Done = Map<string, Job<QueueJobData, unknown>>;
interface Finished {
  completed: Done;
  failed: Done;
  /** The crash records of artifacts alone whose job failed for good (the worker's, by job id). */
  crashed: Record<string, string>;
}

/** Every finished job of the queue by id: completed ones and failed ones. */
async function finishedJobs(t: QueueTarget): Promise<{ completed: Done; failed: Done }> {
  const queue = openQueue(t);
  try {
    const byId = async (state: 'completed' | 'failed'): Promise<Done> => {
      const out: Done = new Map();
      for (let from = 0; ; from += 1000) {
        const page = (await queue.getJobs([state], from, from + 999, true)) as Job<QueueJobData, unknown>[];
        for (const j of page) if (j?.id) out.set(j.id, j);
        if (page.length < 1000) return out;
      }
    };
    return { completed: await byId('completed'), failed: await byId('failed') };
  } finally {
    await queue.close();
  }
}

/** The names of a job's artifacts, in its items' order (what its outcomes are, one each). */
const namesOf = (job: Job<QueueJobData, unknown>): unknown[] => {
  const items: unknown = (job.data as unknown as Record<string, unknown> | undefined)?.['items'];
  return Array.isArray(items) ? items.map((i) => (isObj(i) ? i['name'] : undefined)) : [];
};

/** One outcome as the merge takes it: a problem, or a record checked as a shard file's are and of its own artifact. */
function outcomeOf(id: string, o: unknown, name: unknown): JudgeOutcome {
  const of = `job ${id}: the outcome of ${JSON.stringify(name) ?? 'no artifact'}`;
  if (isObj(o) && Object.keys(o).length === 1 && typeof o['problem'] === 'string') return { problem: o['problem'] };
  if (!isObj(o) || Object.keys(o).length !== 1 || !('record' in o))
    return { problem: `${of} is neither a record nor a problem` };
  const p = recordProblem(o['record']);
  if (p) return { problem: `${of} is not a record: ${p}` };
  const r = o['record'] as JudgedRecord;
  return r.path === name ? { record: r } : { problem: `${of} is the record of another: ${JSON.stringify(r.path)}` };
}

/** A completed job's outcomes: one for each of its artifacts, in order; anything else is one problem naming the job. */
function resultOf(id: string, job: Job<QueueJobData, unknown>): JudgeOutcome[] {
  const names = namesOf(job);
  const value = job.returnvalue;
  if (!Array.isArray(value) || value.length !== names.length)
    return [{ problem: `job ${id}: its result is not one outcome for each of its ${names.length} artifact(s)` }];
  return value.map((o: unknown, i) => outcomeOf(id, o, names[i]));
}

/** The crash record (or problem) a worker kept for an artifact alone, checked as a result is. */
function crashOf(id: string, job: Job<QueueJobData, unknown>, text: string): JudgeOutcome {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    v = undefined;
  }
  return outcomeOf(id, isObj(v) && 'problem' in v ? v : { record: v }, namesOf(job)[0]);
}

/**
 * The outcomes of one job id, or null while it is not settled. A job in BullMQ's failed set
 * failed for good, whatever its attempts say (one that stalled too often fails after fewer).
 */
function outcomesOf(id: string, size: number, jobs: Finished, problems: string[]): JudgeOutcome[] | null {
  const done = jobs.completed.get(id);
  if (done) return resultOf(id, done);
  const failed = jobs.failed.get(id);
  if (!failed) return null;
  if (failed.failedReason?.startsWith(REFUSED)) return (problems.push(`job ${id}: ${failed.failedReason}`), []);
  if (size === 1) {
    const c = jobs.crashed[id];
    return c === undefined ? null : [crashOf(id, failed, c)];
  }
  const parts: JudgeOutcome[] = [];
  for (let k = 0; k < size; k++) {
    const part = outcomesOf(splitId(id, k), 1, jobs, problems);
    if (!part) return null;
    parts.push(...part);
  }
  return parts;
}

/** The crash records of artifacts alone whose job failed for good, by job id. */
async function crashRecords(t: QueueTarget): Promise<Record<string, string>> {
  const redis = await openRedis(t);
  try {
    return await redis.hgetall(crashKey(t));
  } finally {
    redis.disconnect();
  }
}

/** Gathers a queue's run; with every batch settled, its assembly (problems named in it). */
export async function collectQueue(t: QueueTarget, onRecord?: (line: string) => void): Promise<Collected> {
  const run = await heldRun(t);
  const jobs: Finished = { ...(await finishedJobs(t)), crashed: await crashRecords(t) };
  const problems: string[] = [];
  const records: JudgedRecord[] = [];
  let pending = 0;
  for (let b = 0; b < run.batches; b++) {
    const size = Math.min(run.batch, run.list.items - b * run.batch);
    const outs = outcomesOf(batchId(b), size, jobs, problems);
    if (!outs) {
      pending++;
      continue;
    }
    for (const o of outs)
      if ('record' in o) records.push(o.record);
      else if ('problem' in o) problems.push(o.problem);
  }
  if (pending > 0) return { run, assembly: null, pending, problems };
  records.sort(compareRecords);
  const assembly = emptyAssembly(run.list, run.run);
  const sink = new RecordSink(assembly, onRecord);
  records.forEach((r, i) => sink.add(r, recordLine(r), { where: `record ${i + 1}` }));
  sink.finish();
  return { run, assembly, pending: 0, problems };
}

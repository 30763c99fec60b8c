/**
 * `reprise rejudge merge --queue`: the records a queue's workers left in Redis, gathered
 * into the same assembly shard files make (app/rejudge/assemble.ts), so the signed
 * record is byte-identical to the shards' whatever the order in which jobs finished. Every
 * batch must be done: completed, or failed and settled (split into jobs that are done, or
 * an artifact alone with its crash record); otherwise nothing is merged.
 */
import type { Job } from 'bullmq';
import { UsageError } from '../../core/errors.js';
import {
  compareRecords,
  emptyAssembly,
  recordLine,
  RecordSink,
  type Assembly,
  type JudgedRecord,
} from '../../rejudge/index.js';
import type { JudgeOutcome } from '../rejudge/judge.js';
import { crashKey, openRedis, type QueueTarget } from './connection.js';
import { batchId, openQueue, readRun, splitId, type QueueJobData, type QueueRun } from './run.js';

export interface Collected {
  run: QueueRun;
  /** Null while batches are left to do (`pending` says how many). */
  assembly: Assembly | null;
  pending: number;
  /** Artifacts that could not be placed or judged at all, and batches refused. */
  problems: string[];
}

type Done = Map<string, Job<QueueJobData, JudgeOutcome[]>>;

/** Every finished job of the queue by id: completed ones and failed ones. */
async function finishedJobs(t: QueueTarget): Promise<{ completed: Done; failed: Done }> {
  const queue = openQueue(t);
  try {
    const byId = async (state: 'completed' | 'failed'): Promise<Done> => {
      const out: Done = new Map();
      for (let from = 0; ; from += 1000) {
        const page = (await queue.getJobs([state], from, from + 999, true)) as Job<QueueJobData, JudgeOutcome[]>[];
        for (const j of page) if (j?.id) out.set(j.id, j);
        if (page.length < 1000) return out;
      }
    };
    return { completed: await byId('completed'), failed: await byId('failed') };
  } finally {
    await queue.close();
  }
}

/** The outcomes of one job id, or null while it is not settled. */
function outcomesOf(
  id: string,
  size: number,
  jobs: { completed: Done; failed: Done },
  crashed: Record<string, string>,
  problems: string[],
): JudgeOutcome[] | null {
  const done = jobs.completed.get(id);
  if (done) return done.returnvalue;
  const failed = jobs.failed.get(id);
  if (!failed || failed.attemptsMade < (failed.opts.attempts ?? 1)) return null;
  if (failed.failedReason?.startsWith('reprise refused the job:'))
    return (problems.push(`job ${id}: ${failed.failedReason}`), []);
  if (size === 1) {
    const c = crashed[id];
    return c
      ? [
          (JSON.parse(c) as { problem?: string }).problem !== undefined
            ? (JSON.parse(c) as JudgeOutcome)
            : { record: JSON.parse(c) as JudgedRecord },
        ]
      : null;
  }
  const parts: JudgeOutcome[] = [];
  for (let k = 0; k < size; k++) {
    const part = outcomesOf(splitId(id, k), 1, jobs, crashed, problems);
    if (!part) return null;
    parts.push(...part);
  }
  return parts;
}

/** Gathers a queue's run; with every batch settled, its assembly (problems named in it). */
export async function collectQueue(t: QueueTarget, onRecord?: (line: string) => void): Promise<Collected> {
  const run = await readRun(t); // (reaching Redis first: a usage error when it does not answer)
  if (!run)
    throw new UsageError(
      `the queue ${t.name} holds no re-judgement: put one on it with reprise rejudge LIST_OR_DIR --queue`,
      'refused',
    );
  const jobs = await finishedJobs(t);
  const redis = await openRedis(t);
  const crashed = await redis.hgetall(crashKey(t)).finally(() => redis.disconnect());
  const problems: string[] = [];
  const records: JudgedRecord[] = [];
  let pending = 0;
  for (let b = 0; b < run.batches; b++) {
    const size = Math.min(run.batch, run.list.items - b * run.batch);
    const outs = outcomesOf(batchId(b), size, jobs, crashed, problems);
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

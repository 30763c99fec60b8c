/**
 * The sandboxed processor of `reprise worker` (BullMQ runs this file in a child process of
 * the worker): judges one batch into its outcomes (rejudge/judge.ts), which BullMQ keeps in
 * Redis as the job's return value. A batch whose check ends this process (a crash, an
 * out-of-memory abort) fails its job and leaves the worker running; a worker killed outright
 * leaves this process without its parent, and it exits rather than judge for no one.
 */
import type { SandboxedJob } from 'bullmq';
import { canonicalizeValue } from '../../core/jcs.js';
import { optionDigests } from '../rejudge/run.js';
import { judgeBatch, type JudgeOutcome } from '../rejudge/judge.js';
import type { QueueJobData } from './run.js';

if (process.send) process.on('disconnect', () => process.exit(0));

/** The message of a job this worker refuses (not a crash: the job is not split or retried for it). */
export const REFUSED = 'reprise refused the job:';

/** The option digests this process computed, per run statement (the files are read once). */
const checked = new Map<string, Promise<string | null>>();

/** Whether this machine's option files are the run's; null when they are, else why not. */
function optionsProblem(d: QueueJobData): Promise<string | null> {
  const key = canonicalizeValue([d.options, d.digests]);
  let p = checked.get(key);
  if (!p) {
    p = optionDigests(d.options, d.pathOptions).then(
      (mine) =>
        canonicalizeValue(mine) === canonicalizeValue(d.digests)
          ? null
          : `the option files on this worker are not the run's (digests ${canonicalizeValue(mine)}, the run's ${canonicalizeValue(d.digests)})`,
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    checked.set(key, p);
  }
  return p;
}

export default async function judgeQueued(job: SandboxedJob<QueueJobData>): Promise<JudgeOutcome[]> {
  const problem = await optionsProblem(job.data);
  if (problem) throw new Error(`${REFUSED} ${problem}`);
  // Tells the worker that this process is up and judging (its `judging` event).
  await job.updateProgress(0);
  return judgeBatch({
    items: job.data.items,
    options: job.data.options,
    mode: job.data.mode,
    shard: { index: 0, count: 1 },
  });
}

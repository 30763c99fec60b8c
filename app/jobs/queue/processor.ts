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
import { REFUSED } from './ids.js';
import type { QueueJobData } from './run.js';

export { REFUSED };

if (process.send) process.on('disconnect', () => process.exit(0));

/**
 * Whether this machine's option files are the run's; null when they are, else why not (the
 * worker has held the job's options and digests to the run's statement: admit.ts). Read
 * for every job, before and after it is judged, never remembered: a trust store replaced while
 * the worker runs (a key revoked) would otherwise judge under other bytes than the digests
 * the record names.
 */
function optionsProblem(d: QueueJobData, when: string): Promise<string | null> {
  return optionDigests(d.options, d.pathOptions).then(
    (mine) =>
      canonicalizeValue(mine) === canonicalizeValue(d.digests)
        ? null
        : `the option files on this worker are not the run's ${when} (digests ${canonicalizeValue(mine)}, the run's ${canonicalizeValue(d.digests)})`,
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );
}

export default async function judgeQueued(job: SandboxedJob<QueueJobData>): Promise<JudgeOutcome[]> {
  const problem = await optionsProblem(job.data, 'as the job starts');
  if (problem) throw new Error(`${REFUSED} ${problem}`);
  // Tells the worker that this process is up and judging (its `judging` event).
  await job.updateProgress(0);
  const outcomes = await judgeBatch({
    items: job.data.items,
    options: job.data.options,
    mode: job.data.mode,
    shard: { index: 0, count: 1 },
  });
  // A file changed while the batch was judged: its verdicts may be of other bytes.
  const after = await optionsProblem(job.data, 'after the job was judged (a file changed while it ran)');
  if (after) throw new Error(`${REFUSED} ${after}`);
  return outcomes;
}

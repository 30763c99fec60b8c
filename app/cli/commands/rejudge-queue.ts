/**
 * `reprise rejudge … --queue`: the list put on a BullMQ queue for `reprise worker`s, then (unless
 * `--detach`) the queue followed until every batch is done; `rejudge merge --queue` makes the
 * signed record from the results the workers left in Redis (`--wait`: once they are all there;
 * `--list`: held to the list as it is on this machine).
 */
import { EXIT, type ExitCode } from '../../../shared/report.js';
import { UsageError } from '../../core/errors.js';
import type { Signer } from '../../core/keys.js';
import type { EngineOptions } from '../../kinds/types.js';
import type { RunSpec } from '../../rejudge/index.js';
import { readList } from '../../jobs/rejudge/list.js';
import { optionDigests, runSpec } from '../../jobs/rejudge/run.js';
import { completeAssembly, writeRecordsFile } from '../../jobs/rejudge/merge.js';
import { parseQueueUrl, type QueueTarget } from '../../jobs/queue/connection.js';
import {
  enqueueRun,
  ensureReachable,
  heldRun,
  MAX_BATCH,
  openQueue,
  queueCounts,
  readRun,
} from '../../jobs/queue/run.js';
import { collectQueue } from '../../jobs/queue/collect.js';
import { fail } from '../../core/findings.js';
import { R } from '../../rejudge/index.js';
import { intFlag } from '../args.js';
import type { CliIO } from '../io.js';
import { formatError } from '../output.js';
import { finishMerge, refuseMergeOnArchive } from './rejudge-record.js';
import { RejudgeProgress } from './rejudge-progress.js';

/**
 * Follows a queue's jobs until none is left to take or finish; refused when the queue then
 * holds no run (a Redis restarted without persistence lost it): nothing left is not done.
 */
async function follow(t: QueueTarget, io: CliIO): Promise<void> {
  const queue = openQueue(t);
  const progress = new RejudgeProgress(io, `queue ${t.name} (jobs)`);
  try {
    for (;;) {
      const c = await queueCounts(queue);
      if (c.remaining === 0) {
        await heldRun(t);
        return progress.show(c, true);
      }
      progress.show(c);
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await queue.close();
  }
}

export async function enqueueCommand(
  values: Record<string, unknown>,
  listArg: string,
  job: { options: EngineOptions; pathOptions: string[]; mode: RunSpec['mode'] },
  io: CliIO,
): Promise<ExitCode> {
  if (values['shard'] !== undefined || values['out'] !== undefined || values['workers'] !== undefined)
    throw new UsageError(
      '--queue takes the place of --shard, --out and --workers: the workers are `reprise worker --queue`, the record is `rejudge merge --queue`',
    );
  const t = parseQueueUrl(String(values['queue']));
  const batch = intFlag(values['batch'], 'batch', 1, MAX_BATCH) ?? 64;
  const list = await readList(listArg);
  const run = runSpec(job.mode, await optionDigests(job.options, job.pathOptions));
  const spec = await enqueueRun(t, list, run, job, batch);
  if (values['json'])
    io.out(
      JSON.stringify({ event: 'enqueued', queue: t.name, artifacts: list.items.length, jobs: spec.batches, batch }) +
        '\n',
    );
  else io.out(`queue ${t.name}: ${list.items.length} artifacts in ${spec.batches} jobs of up to ${batch}\n`);
  if (values['detach'] !== true) await follow(t, io);
  return EXIT.pass;
}

export async function mergeQueueCommand(values: Record<string, unknown>, signer: Signer, io: CliIO): Promise<ExitCode> {
  const t = parseQueueUrl(String(values['queue']));
  await ensureReachable(t);
  // Before any wait: the run's statement names the archive judged, as a shard's header does.
  const stated = await readRun(t);
  if (stated)
    await refuseMergeOnArchive(values, [{ path: stated.list.source, named: "the list the queue's run judged" }]);
  if (values['wait'] === true) await follow(t, io);
  const lines: string[] = [];
  const c = await collectQueue(t, typeof values['records'] === 'string' ? (l) => lines.push(l) : undefined);
  if (!c.assembly) {
    io.err(
      formatError(
        `the queue ${t.name} has ${c.pending} of ${c.run.batches} jobs not done yet: run workers (reprise worker --queue), or merge with --wait`,
      ),
    );
    return EXIT.fail;
  }
  // Held to the list as it is on this machine, as a shard merge is: the statement is Redis's word only.
  const list = typeof values['list'] === 'string' ? values['list'] : undefined;
  const m = await completeAssembly(
    c.assembly,
    signer,
    list,
    c.problems.map((p) => fail(R.coverage, p)),
  );
  if (m.record && typeof values['records'] === 'string') await writeRecordsFile(values['records'], c.assembly, lines);
  return finishMerge(m, String(values['out']), values['json'] === true, io);
}

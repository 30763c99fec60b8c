/**
 * `reprise worker --queue redis://HOST:PORT/NAME`: takes re-judgement jobs in sandboxed
 * processes (app/jobs/queue/worker.ts) until SIGTERM/SIGINT or, with `--drain`, until the
 * queue has nothing left. Its jobs and the queue's counts show as a progress bar on a
 * terminal, as JSON Lines events when piped.
 */
import { EXIT, type ExitCode } from '../../../shared/report.js';
import { UsageError } from '../../core/errors.js';
import { parseQueueUrl } from '../../jobs/queue/connection.js';
import { runQueueWorker, StuckJobError } from '../../jobs/queue/worker.js';
import { formatError } from '../output.js';
import { intFlag, parse } from '../args.js';
import type { CliIO, Command } from '../io.js';
import { INFO } from './info.js';
import { RejudgeProgress } from './rejudge-progress.js';
import { judgedOptionNames, judgeOptions } from './rejudge.js';

export const workerCommand: Command = {
  ...INFO.worker,
  async run(args: string[], io: CliIO): Promise<ExitCode> {
    const { values, positionals } = parse(
      args,
      {
        queue: { type: 'string' },
        concurrency: { type: 'string' },
        'stalled-interval': { type: 'string' },
        'lock-duration': { type: 'string' },
        'job-timeout': { type: 'string' },
        drain: { type: 'boolean' },
      },
      INFO.worker.usage,
    );
    if (positionals.length > 0 || typeof values['queue'] !== 'string')
      throw new UsageError(`worker takes --queue redis://HOST:PORT/NAME and no PATH\nusage: ${INFO.worker.usage}`);
    const t = parseQueueUrl(values['queue']);
    const lockDuration = intFlag(values['lock-duration'], 'lock-duration', 500, 3_600_000) ?? 30_000;
    const settings = {
      concurrency: intFlag(values['concurrency'], 'concurrency', 1, 64) ?? 1,
      lockDuration,
      stalledInterval: intFlag(values['stalled-interval'], 'stalled-interval', 200, 3_600_000) ?? lockDuration,
      drain: values['drain'] === true,
      jobTimeout: intFlag(values['job-timeout'], 'job-timeout', 1000, 86_400_000) ?? 1_800_000,
      // What `rejudge` itself passes the engine: a job carrying more (--out, --key, …) is refused.
      rules: { options: judgedOptionNames(), pathOptions: judgeOptions({}).pathOptions },
    };
    const progress = new RejudgeProgress(io, `worker ${process.pid} on ${t.name} (jobs)`);
    let last = { done: 0, failed: 0, remaining: 0 };
    try {
      await runQueueWorker(t, settings, {
        event: (name, fields) => progress.event(name, fields),
        counts: (c) => progress.show((last = c)),
      });
    } catch (e) {
      if (!(e instanceof StuckJobError)) throw e;
      io.err(formatError(e.message));
      return EXIT.error;
    }
    progress.show(last, true);
    return EXIT.pass;
  },
};

/**
 * `reprise verify PATH…` and `reprise replay PATH…`: detect, parse, check (and for
 * replay, re-execute) each artifact; directories are walked recursively; `--workers N`
 * spreads a batch over worker threads and still prints results in input order.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXIT, exitOfVerdict, worstExit, type ExitCode, type Report } from '../../../shared/report.js';
import { checkRegularFileSync, readFailure } from '../../core/files.js';
import { expandPaths } from '../../engine/paths.js';
import { KNOWN_LIMITS } from '../../engine/limits.js';
import type { Mode } from '../../engine/run.js';
import type { EngineOptions } from '../../kinds/types.js';
import { WorkerPool } from '../../jobs/pool.js';
import type { BatchItem, BatchJob, BatchOutcome, BatchRender, JobOutcome } from '../../jobs/protocol.js';
import { intFlag, parse, type Flags } from '../args.js';
import { CliUsageError, type CliIO, type Command } from '../io.js';
import { formatReport, formatSummary, safeText } from '../../engine/report-text.js';
import { formatError } from '../output.js';
import { INFO } from './info.js';

export const CHECK_FLAGS: Flags = {
  json: { type: 'boolean' },
  jsonl: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  workers: { type: 'string' },
  'trust-store': { type: 'string' },
  policy: { type: 'string' },
  providers: { type: 'string' },
  profiles: { type: 'string' },
  journal: { type: 'string' },
  key: { type: 'string' },
  'kernel-adapter': { type: 'string' },
  'what-if': { type: 'string', multiple: true },
  out: { type: 'string' },
  limit: { type: 'string', multiple: true },
};

export function engineOptions(v: Record<string, unknown>): EngineOptions {
  const o: EngineOptions = {};
  if (typeof v['trust-store'] === 'string') o.trustStore = v['trust-store'];
  if (typeof v['policy'] === 'string') o.policy = v['policy'];
  if (typeof v['providers'] === 'string') o.providers = v['providers'];
  if (typeof v['profiles'] === 'string') o.profiles = v['profiles'];
  if (typeof v['journal'] === 'string') o.journal = v['journal'];
  if (typeof v['key'] === 'string') o.key = v['key'];
  if (typeof v['kernel-adapter'] === 'string') o.kernelAdapter = v['kernel-adapter'];
  if (typeof v['out'] === 'string') o.out = v['out'];
  if (Array.isArray(v['what-if'])) {
    for (const w of v['what-if'] as string[]) if (!/^(model|shape)=.+$/.test(w)) throw new CliUsageError(`--what-if takes model=VERSION or shape=ADVISOR/ARITY/TENSORTYPE, not "${w}"`);
    o.whatIf = v['what-if'] as string[];
  }
  if (Array.isArray(v['limit'])) {
    o.limits = {};
    for (const l of v['limit'] as string[]) {
      const m = /^([a-zA-Z][\w-]*)=(\d+)$/.exec(l);
      if (!m) throw new CliUsageError(`--limit takes NAME=INTEGER, not "${l}"`);
      if (!KNOWN_LIMITS.includes(m[1]!)) throw new CliUsageError(`--limit ${m[1]} is no limit Reprise knows (${KNOWN_LIMITS.join(', ')})`);
      o.limits[m[1]!] = Number(m[2]);
    }
  }
  // A file flag that cannot be read is bad usage at once, not a flag silently ignored by the
  // kinds that never read it (cli.md: an unreadable path is exit 3).
  // The check is the one every read makes (core/files.ts): a FIFO or /dev/zero is refused
  // here, before any kind would block on it or read it without end.
  for (const flag of FILE_FLAGS) {
    const path = v[flag];
    if (typeof path !== 'string') continue;
    try {
      checkRegularFileSync(path, { allowDirectory: flag === 'kernel-adapter' });
    } catch (e) {
      throw new CliUsageError(`cannot read --${flag} ${path}: ${readFailure(e)}`);
    }
  }
  return o;
}

/** Flags naming a file that some kind reads (`--journal` names a directory a writer may create). */
const FILE_FLAGS = ['trust-store', 'policy', 'providers', 'profiles', 'key', 'kernel-adapter'] as const;

/**
 * `--out` holds one comparison: with several artifacts, parallel workers would race for the
 * file and the last writer would win. It never names an input (the evidence replayed).
 */
function checkOut(out: string, paths: readonly string[]): void {
  if (paths.length !== 1) throw new CliUsageError(`--out holds one TG replay comparison: give one manifest (${paths.length} artifacts were given)`);
  const real = (p: string): string => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  if (real(out) === real(paths[0]!)) throw new CliUsageError(`--out ${out} is the artifact being replayed; Reprise never overwrites its input`);
}

/** Renders one outcome the way the batch worker does (for the inline path). */
function renderInline(o: JobOutcome, render: BatchRender): BatchItem {
  if (!o.ok) return o;
  if (render === 'object') return { ok: true, verdict: o.report.verdict, text: '', report: o.report };
  if (render === 'jsonl') return { ok: true, verdict: o.report.verdict, text: JSON.stringify(o.report) + '\n' };
  return { ok: true, verdict: o.report.verdict, text: formatReport(o.report, render === 'text-quiet') };
}

/** The worker threads of a `--workers N` batch (they render reports too: batch-worker.ts). */
export type BatchPool = WorkerPool<BatchJob, BatchOutcome>;

/**
 * Starts `workers` batch threads. Called before the paths are expanded, so that the threads
 * load the engine while the main thread walks the directories; the caller closes the pool.
 */
export function startBatchPool(workers: number): BatchPool {
  return new WorkerPool<BatchJob, BatchOutcome>(workers, new URL('../../jobs/batch-worker.js', import.meta.url), {
    pipeline: 2,
    failure: (message) => [{ ok: false, usage: false, message }],
  });
}

/**
 * Runs every path and emits rendered outcomes in input order, inline (no pool: the engine
 * is imported here, and only here) or on the pool's threads. Paths travel in chunks so that
 * per-message costs stay small next to the work, and reports are rendered in the workers.
 */
export async function runBatch(
  paths: string[],
  mode: Mode,
  options: EngineOptions,
  pool: BatchPool | null,
  render: BatchRender,
  emit: (index: number, item: BatchItem) => void,
): Promise<void> {
  if (!pool) {
    const { executeJob } = await import('../../jobs/execute.js');
    for (let i = 0; i < paths.length; i++) emit(i, renderInline(await executeJob({ op: 'runPath', path: paths[i]!, mode, options }), render));
    return;
  }
  const chunk = Math.max(1, Math.min(64, Math.ceil(paths.length / (pool.size * 16))));
  const chunks: string[][] = [];
  for (let i = 0; i < paths.length; i += chunk) chunks.push(paths.slice(i, i + chunk));
  const results: (BatchOutcome | undefined)[] = new Array(chunks.length);
  let next = 0;
  await Promise.all(
    chunks.map(async (c, ci) => {
      let out = await pool.run({ paths: c, mode, options, render }).promise;
      // A crashed worker fails its whole chunk with one item: spread it over every path.
      if (out.length !== c.length) out = c.map(() => out[0]!);
      results[ci] = out;
      while (next < chunks.length && results[next] !== undefined) {
        const items = results[next]!;
        for (let j = 0; j < items.length; j++) emit(next * chunk + j, items[j]!);
        results[next] = undefined;
        next++;
      }
    }),
  );
}

function makeCheck(mode: Mode): Command {
  const usage = INFO[mode].usage;
  return {
    ...INFO[mode],
    async run(args: string[], io: CliIO): Promise<ExitCode> {
      const { values, positionals } = parse(args, CHECK_FLAGS, usage);
      if (positionals.length === 0) throw new CliUsageError(`no PATH given\nusage: ${usage}`);
      if (values['json'] && values['jsonl']) throw new CliUsageError('--json and --jsonl exclude each other');
      const workers = intFlag(values['workers'], 'workers', 0, 64) ?? 0;
      const options = engineOptions(values);
      if (mode === 'verify' && (options.whatIf || values['out'])) throw new CliUsageError('--what-if and --out belong to replay');
      // The threads start loading the engine now, while this thread walks the directories;
      // whatever happens next (a usage error from the walk too), the pool is closed.
      const pool = workers > 0 ? startBatchPool(workers) : null;
      try {
        const paths = await expandPaths(positionals);
        if (typeof values['out'] === 'string') checkOut(values['out'], paths);
        const codes: ExitCode[] = [];
        const counts: Record<string, number> = Object.create(null) as Record<string, number>;
        const reports: Report[] = [];
        const progress = io.stderrIsTTY && !values['json'] && !values['jsonl'] && paths.length > 1;
        const render: BatchRender = values['json'] ? 'object' : values['jsonl'] ? 'jsonl' : values['quiet'] === true ? 'text-quiet' : 'text';
        // Batched stdout: one write per 64 KiB instead of one per artifact (not while a
        // progress line is drawn on the terminal, where each line must appear at once).
        let pending = '';
        const write = (s: string): void => {
          if (progress) return io.out(s);
          pending += s;
          if (pending.length >= 65536) {
            io.out(pending);
            pending = '';
          }
        };
        await runBatch(paths, mode, options, pool, render, (i, item) => {
          if (progress) io.err(`\r[${i + 1}/${paths.length}] ${safeText(paths[i]!)}\x1b[K`);
          if (!item.ok) {
            codes.push(EXIT.error);
            counts['error'] = (counts['error'] ?? 0) + 1;
            io.err(`${progress ? '\r\x1b[K' : ''}${formatError(item.message)}`);
            return;
          }
          codes.push(exitOfVerdict(item.verdict));
          counts[item.verdict] = (counts[item.verdict] ?? 0) + 1;
          if (item.report) reports.push(item.report);
          else write((progress ? '\r\x1b[K' : '') + item.text);
        });
        if (pending) io.out(pending);
        if (progress) io.err('\r\x1b[K');
        if (values['json']) {
          const single = positionals.length === 1 && paths.length === 1;
          if (reports.length > 0 || !single) io.out(JSON.stringify(single ? reports[0] : reports, null, 2) + '\n');
        } else if (!values['jsonl'] && paths.length > 1) io.out(formatSummary(counts, paths.length));
        return worstExit(codes);
      } finally {
        await pool?.close();
      }
    },
  };
}

export const verifyCommand = makeCheck('verify');
export const replayCommand = makeCheck('replay');


/**
 * `reprise verify PATH…` and `reprise replay PATH…`: detect, parse, check (and for
 * replay, re-execute) each artifact; directories are walked recursively; `--workers N`
 * spreads a batch over worker threads and still prints results in input order.
 */
import { EXIT, exitOfVerdict, worstExit, type ExitCode, type Report } from '../../../shared/report.js';
import { checkDirectorySync, checkOutputFile, checkRegularFileSync, readFailure } from '../../core/files.js';
import { expandPaths } from '../../engine/paths.js';
import { declaredLimits, declaredOptions } from '../../kinds/registry.js';
import type { Mode } from '../../engine/run.js';
import type { EngineOptions, KindOption } from '../../kinds/types.js';
import { chunkSize, startBatchPool, type BatchPool } from '../../jobs/batch-pool.js';
import type { BatchItem, BatchOutcome, BatchRender } from '../../jobs/protocol.js';
import { intFlag, limitOverrides, parse, type Flags } from '../args.js';
import type { CliIO, Command } from '../io.js';
import { formatSummary } from '../../engine/report-text.js';
import { formatError } from '../output.js';
import { INFO } from './info.js';
import type { CaseCollector, CaseRerun } from './check-case.js';
import { UsageError } from '../../core/errors.js';
import { refuseOutputsOnInputs } from './outputs-on-inputs.js';

/**
 * The flags of `verify` and `replay`: the command's own, then one per option the
 * registry's kinds declare (kinds/registry.ts), then `--limit`.
 */
export function checkFlags(): Flags {
  const flags: Flags = {
    json: { type: 'boolean' },
    jsonl: { type: 'boolean' },
    quiet: { type: 'boolean', short: 'q' },
    workers: { type: 'string' },
    case: { type: 'string' },
  };
  for (const o of declaredOptions())
    flags[o.flag] = o.multiple ? { type: 'string', multiple: true } : { type: 'string' };
  flags['limit'] = { type: 'string', multiple: true };
  return flags;
}

/** The usage line of `verify` / `replay`, built from the declared options. */
export function checkUsage(mode: Mode): string {
  const opts = declaredOptions().filter((o) => mode === 'replay' || !o.replayOnly);
  const flag = (o: KindOption) => `[--${o.flag} ${o.arg}]`;
  const [common, replayOnly] = [opts.filter((o) => !o.replayOnly), opts.filter((o) => o.replayOnly)];
  return [
    `reprise ${mode} PATH... [--json|--jsonl]`,
    ...common.map(flag),
    '[--limit NAME=N] [--workers N] [--quiet] [--case FILE|-]',
    ...replayOnly.map(flag),
  ].join(' ');
}

/** What `reprise verify --help` shows: the usage line, then each option and limit with its help. */
export function checkHelp(mode: Mode): string {
  const opts = declaredOptions().filter((o) => mode === 'replay' || !o.replayOnly);
  const width = Math.max(...opts.map((o) => o.flag.length + o.arg.length + 3));
  const lines = opts.map((o) => `  ${`--${o.flag} ${o.arg}`.padEnd(width)}  ${o.help}`);
  const limits = declaredLimits().map((l) => `  ${l.name}=${l.default}  ${l.help}`);
  return `${checkUsage(mode)}

options:
${lines.join('\n')}

limits (--limit NAME=N; defaults shown):
${limits.join('\n')}`;
}

/**
 * Turns parsed flags into EngineOptions: each declared option by name, checked; `--limit`
 * overrides. `writes`: whether the run may write what an option names (a replay with
 * `--journal DIR --key KEY` anchors in DIR, creating it); a run that only reads is given false.
 */
export function engineOptions(v: Record<string, unknown>, writes = true): EngineOptions {
  const o = Object.create(null) as Record<string, unknown>;
  const declared = declaredOptions();
  for (const d of declared) {
    const value = v[d.flag];
    if (d.multiple ? !Array.isArray(value) : typeof value !== 'string') continue;
    for (const w of d.multiple ? (value as string[]) : [value as string])
      if (d.values && !d.values.pattern.test(w))
        throw new UsageError(`--${d.flag} takes ${d.values.describe}, not "${w}"`);
    o[d.name] = value;
  }
  if (Array.isArray(v['limit']))
    o['limits'] = limitOverrides(
      v['limit'] as string[],
      declaredLimits().map((l) => l.name),
    );
  for (const d of declared) checkPathOption(d, v, writes);
  return o as EngineOptions;
}

/**
 * A path flag that cannot be read is bad usage at once, not a flag silently ignored by the
 * kinds that never read it (cli.md: an unreadable path is exit 3). A file is checked as every
 * read checks it (core/files.ts): a FIFO or /dev/zero is refused here, before any kind would
 * block on it or read it without end. A folder must be one; a missing folder is left only to
 * a run that creates it (KindOption.createdWith).
 */
function checkPathOption(d: KindOption, v: Record<string, unknown>, writes: boolean): void {
  const path = v[d.flag];
  if (!d.path || typeof path !== 'string') return;
  try {
    if (d.path !== 'directory') checkRegularFileSync(path, { allowDirectory: d.path === 'file-or-directory' });
    else checkDirectorySync(path, writes && d.createdWith !== undefined && typeof v[d.createdWith] === 'string');
  } catch (e) {
    throw new UsageError(`cannot read --${d.flag} ${path}: ${readFailure(e)}`, 'path');
  }
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
  rels?: string[],
): Promise<void> {
  if (!pool) {
    const { batchItem } = await import('../../jobs/batch-item.js');
    const job = { paths, mode, options, render, ...(rels ? { rels } : {}) };
    for (let i = 0; i < paths.length; i++) emit(i, await batchItem(job, i));
    return;
  }
  const chunk = chunkSize(paths.length, pool.size);
  const chunks: number[] = [];
  for (let i = 0; i < paths.length; i += chunk) chunks.push(i);
  const results: (BatchOutcome | undefined)[] = new Array(chunks.length);
  let next = 0;
  await Promise.all(
    chunks.map(async (start, ci) => {
      const c = paths.slice(start, start + chunk);
      const r = rels ? { rels: rels.slice(start, start + chunk) } : {};
      let out = await pool.run({ paths: c, mode, options, render, ...r }).promise;
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

/** How each report is rendered: the case report alone on stdout (`--case -`) renders none. */
function renderOf(values: Record<string, unknown>, caseOut: string | null): BatchRender {
  if (caseOut === '-') return 'none';
  if (values['json']) return 'object';
  if (values['jsonl']) return 'jsonl';
  return values['quiet'] === true ? 'text-quiet' : 'text';
}

/** What a batch is run with besides its paths. */
interface BatchRun {
  mode: Mode;
  options: EngineOptions;
  pool: BatchPool | null;
  /** Set for a case (--case): each item's case part is collected. */
  collector: CaseCollector | null;
  caseOut: string | null;
}

/** Runs the batch, prints each outcome as asked and the summary; the worst exit code. */
async function printBatch(
  io: CliIO,
  values: Record<string, unknown>,
  positionals: readonly string[],
  paths: string[],
  b: BatchRun,
): Promise<ExitCode> {
  const codes: ExitCode[] = [];
  const counts: Record<string, number> = Object.create(null) as Record<string, number>;
  const reports: Report[] = [];
  const progress = io.stderrIsTTY && !values['json'] && !values['jsonl'] && paths.length > 1;
  const render = renderOf(values, b.caseOut);
  // Batched stdout: one write per 64 KiB instead of one per artifact (not while a
  // progress line is drawn on the terminal, where each line must appear at once;
  // the printer clears the progress line before each).
  let pending = '';
  const write = (s: string): void => {
    if (progress) return io.out(s);
    pending += s;
    if (pending.length >= 65536) {
      io.out(pending);
      pending = '';
    }
  };
  const emit = (i: number, item: BatchItem): void => {
    if (progress) io.progress(`[${i + 1}/${paths.length}] ${paths[i]!}`);
    b.collector?.add(i, item);
    if (!item.ok) {
      codes.push(EXIT.error);
      counts['error'] = (counts['error'] ?? 0) + 1;
      io.err(formatError(item.message));
      return;
    }
    codes.push(exitOfVerdict(item.verdict));
    counts[item.verdict] = (counts[item.verdict] ?? 0) + 1;
    if (item.report) reports.push(item.report);
    else if (item.text) write(item.text);
  };
  await runBatch(paths, b.mode, b.options, b.pool, render, emit, b.collector?.rels);
  if (pending) io.out(pending);
  io.progress(null);
  if (values['json']) {
    const single = positionals.length === 1 && paths.length === 1;
    if (reports.length > 0 || !single) io.out(JSON.stringify(single ? reports[0] : reports, null, 2) + '\n');
  } else if (!values['jsonl'] && b.caseOut !== '-' && paths.length > 1) io.out(formatSummary(counts, paths.length));
  return worstExit(codes);
}

function makeCheck(mode: Mode): Command {
  return {
    ...INFO[mode],
    usage: checkUsage(mode),
    async run(args: string[], io: CliIO): Promise<ExitCode> {
      const usage = checkUsage(mode);
      const { values, positionals } = parse(args, checkFlags(), usage);
      if (positionals.length === 0) throw new UsageError(`no PATH given\nusage: ${usage}`);
      if (values['json'] && values['jsonl']) throw new UsageError('--json and --jsonl exclude each other');
      const workers = intFlag(values['workers'], 'workers', 0, 64) ?? 0;
      const options = engineOptions(values, mode === 'replay');
      const replayOnly = declaredOptions().filter((o) => o.replayOnly);
      if (mode === 'verify' && replayOnly.some((o) => values[o.flag] !== undefined))
        throw new UsageError(`${replayOnly.map((o) => `--${o.flag}`).join(' and ')} belong to replay`);
      // A case's walk and assembly load only when one is asked for.
      const asCase = values['case'] !== undefined ? await import('./check-case.js') : null;
      const caseOut = asCase ? await asCase.caseTarget(values, positionals) : null;
      // The threads start loading the engine now, while this thread walks the directories;
      // whatever happens next (a usage error from the walk too), the pool is closed.
      const pool = workers > 0 ? startBatchPool(workers) : null;
      try {
        const collector = asCase ? await asCase.CaseCollector.of(positionals[0]!, mode) : null;
        if (asCase && collector) await asCase.refuseWritesInCase(values, mode, positionals[0]!, collector.dirs);
        const paths = collector ? collector.paths : await expandPaths(positionals);
        if (typeof values['out'] === 'string') {
          await checkOutputFile(values['out'], '--out');
          await refuseOutputsOnInputs(values, paths);
        }
        // One file named on its own (not a folder's, not a case's): a flag only another
        // kind reads is refused rather than ignored (EngineOptions.alone, flagsTyped).
        const alone = !collector && positionals.length === 1 && paths.length === 1 && paths[0] === positionals[0];
        const run = {
          mode,
          options: alone ? { ...options, alone, flagsTyped: true } : options,
          pool,
          collector,
          caseOut,
        };
        const code = await printBatch(io, values, positionals, paths, run);
        if (asCase && collector && caseOut !== null) {
          const rerun: CaseRerun = async (file, opts) => {
            let got: BatchItem | undefined;
            await runBatch([file.path], mode, opts, pool, 'none', (_i, item) => (got = item), [file.rel]);
            return got ?? { ok: false, usage: false, message: 'internal error: the batch returned no item' };
          };
          const report = await collector.report(options, rerun);
          await asCase.writeCase(io, caseOut, report);
          if (values['quiet'] !== true) for (const line of asCase.needsLines(report)) io.err(line + '\n');
          // Fail-closed: the case can fail where each artifact alone did not (an exported
          // report checked again against its artifact), and its exit code says so.
          return worstExit([code, exitOfVerdict(report.verdict)]);
        }
        return code;
      } finally {
        await pool?.close();
      }
    },
  };
}

export const verifyCommand = makeCheck('verify');
export const replayCommand = makeCheck('replay');

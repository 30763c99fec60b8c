/**
 * `reprise rejudge`: re-judge an archive past one machine (docs/rejudge.md). A shard of the
 * list judged into a shard file (`--shard I/N`, inline or `--workers N`), or the list put on
 * a BullMQ queue (`--queue`) for `reprise worker`s; `merge` makes the signed record from the
 * shards or the queue; `diff` lists the verdicts one re-judgement changed against another.
 */
import { EXIT, type ExitCode } from '../../../shared/report.js';
import { UsageError } from '../../core/errors.js';
import { checkOutputFile } from '../../core/files.js';
import { optionReads, refuseWriteOnListed, refuseWritesOn, type Read } from './outputs-on-inputs.js';
import { safeText } from '../../core/text.js';
import { loadSigner } from '../../core/keys.js';
import { declaredOptions } from '../../kinds/registry.js';
import { parseShard, RECORD_VERDICTS, type RunSpec } from '../../rejudge/index.js';
import type { EngineOptions } from '../../kinds/types.js';
import { readList } from '../../jobs/rejudge/list.js';
import { judgeShard, optionDigests, runSpec, shardHeader, startJudgePool, writeShard } from '../../jobs/rejudge/run.js';
import { judgedSources, mergeShards } from '../../jobs/rejudge/merge.js';
import { finishMerge, refuseMergeOnArchive } from './rejudge-record.js';
import { intFlag, parse, type Flags } from '../args.js';
import type { CliIO, Command } from '../io.js';
import { formatError } from '../output.js';
import { engineOptions } from './check.js';
import { INFO } from './info.js';
import { RejudgeProgress } from './rejudge-progress.js';
import { diffCommand } from './rejudge-diff.js';

/** Flags of rejudge's own; the engine options of `verify` come after, less those rejudge uses otherwise. */
const OWN: Flags = {
  shard: { type: 'string' },
  out: { type: 'string' },
  workers: { type: 'string' },
  queue: { type: 'string' },
  batch: { type: 'string' },
  detach: { type: 'boolean' },
  replay: { type: 'boolean' },
  json: { type: 'boolean' },
  key: { type: 'string' },
  list: { type: 'string' },
  records: { type: 'string' },
  wait: { type: 'boolean' },
};
/** Engine options that mean something else here (a TG replay's --out, its journal --key) or make no sense (--shards). */
const NOT_ENGINE = new Set(['out', 'key', 'shards']);

export function rejudgeFlags(): Flags {
  const flags: Flags = { ...OWN };
  for (const o of declaredOptions())
    if (!NOT_ENGINE.has(o.flag)) flags[o.flag] = o.multiple ? { type: 'string', multiple: true } : { type: 'string' };
  flags['limit'] = { type: 'string', multiple: true };
  return flags;
}

/** The engine options among the flags (rejudge's own removed), checked as `verify` checks them. */
export function judgeOptions(values: Record<string, unknown>) {
  const engine = Object.fromEntries(Object.entries(values).filter(([k]) => !Object.hasOwn(OWN, k)));
  const options = engineOptions(engine);
  const pathOptions = declaredOptions()
    .filter((o) => o.path !== undefined || o.arg === 'DIR')
    .map((o) => o.name);
  return { options, pathOptions };
}

/** The EngineOptions members judgeOptions can give: all a queued job may carry to a worker's engine (jobs/queue/admit.ts). */
export function judgedOptionNames(): string[] {
  const names = declaredOptions().filter((o) => !NOT_ENGINE.has(o.flag) && !Object.hasOwn(OWN, o.flag));
  return [...names.map((o) => o.name), 'limits'];
}

const usage = (): string => INFO.rejudge.usage;

/**
 * Refuses the shard when an option file changed while it was judged: its header names the
 * digests read at the start, and a trust store replaced during the run (a key revoked) would
 * leave verdicts of other bytes under them, signed as the same run by the merge.
 */
async function sameOptionsAfter(spec: RunSpec, options: EngineOptions, pathOptions: readonly string[]): Promise<void> {
  const after = await optionDigests(options, pathOptions);
  const changed = Object.keys(spec.options).filter((k) => after[k] !== spec.options[k]);
  if (changed.length > 0)
    throw new UsageError(
      `no shard file written: ${changed.map((k) => `the option ${k} changed while the shard was judged (${spec.options[k]}, now ${after[k] ?? 'gone'})`).join('; ')}; judge it again with files nobody changes meanwhile`,
    );
}

async function judgeRun(values: Record<string, unknown>, positionals: string[], io: CliIO): Promise<ExitCode> {
  if (positionals.length !== 1) throw new UsageError(`give one LIST_OR_DIR\nusage: ${usage()}`);
  const { options, pathOptions } = judgeOptions(values);
  const mode = values['replay'] === true ? 'replay' : 'verify';
  if (typeof values['queue'] === 'string') {
    const { enqueueCommand } = await import('./rejudge-queue.js');
    return enqueueCommand(values, positionals[0]!, { options, pathOptions, mode }, io);
  }
  if (typeof values['out'] !== 'string')
    throw new UsageError(`--out FILE names the shard file to write\nusage: ${usage()}`);
  notStdout(values['out'], '--out', 'a shard file');
  await checkOutputFile(values['out'], '--out');
  await refuseWritesOn(
    [['--out', values['out']]],
    [{ path: positionals[0]!, named: 'the list being judged' }, ...optionReads(values)],
  );
  const shard = values['shard'] === undefined ? { index: 0, count: 1 } : parseShard(String(values['shard']));
  if (!shard) throw new UsageError('--shard takes I/N: a whole number I from 0 to N-1, N from 1 to 65536');
  const workers = intFlag(values['workers'], 'workers', 0, 64) ?? 0;
  const pool = workers > 0 ? startJudgePool(workers) : null;
  try {
    const list = await readList(positionals[0]!);
    await refuseWriteOnListed(
      '--out',
      values['out'],
      list.items.map((i) => i.path),
    );
    const spec = runSpec(mode, await optionDigests(options, pathOptions));
    const progress = new RejudgeProgress(io, `shard ${shard.index}/${shard.count}`);
    let done = 0;
    const run = await judgeShard(list, { options, mode, shard }, pool, (n) =>
      progress.show({ done: (done += n), failed: 0, remaining: list.items.length - done }),
    );
    progress.show({ done, failed: run.problems.length, remaining: 0 }, true);
    await sameOptionsAfter(spec, options, pathOptions);
    if (run.problems.length > 0) {
      for (const p of run.problems) io.err(formatError(p));
      io.err(formatError(`no shard file written: ${run.problems.length} artifact(s) could not be placed`));
      return EXIT.error;
    }
    await writeShard(values['out'], shardHeader(list, shard, spec), run.records);
    const counts = Object.fromEntries(
      RECORD_VERDICTS.map((v) => [v, run.records.filter((r) => r.verdict === v).length]),
    );
    // One line of JSON: stdout stays JSON Lines when progress events precede it (a pipe).
    if (values['json'])
      io.out(
        JSON.stringify({
          event: 'written',
          shard,
          out: values['out'],
          listed: list.items.length,
          judged: run.records.length,
          verdicts: counts,
        }) + '\n',
      );
    else
      io.out(
        `shard ${shard.index}/${shard.count}: ${run.records.length} of ${list.items.length} artifacts judged (${RECORD_VERDICTS.map((v) => `${v} ${counts[v]}`).join(', ')}); wrote ${safeText(values['out'])}\n`,
      );
    return EXIT.pass;
  } finally {
    await pool?.close();
  }
}

/** `-` is no file here: what rejudge writes is read again (a shard by merge, a record by verify), and stdout carries the summary. */
function notStdout(path: string, flag: string, what: string): void {
  if (path === '-')
    throw new UsageError(`${flag} names the file ${what} is written to; '-' (standard output) is not one here`);
}

/**
 * Refuses a merge's record or records file on what it reads (a shard merged, the signing
 * key, the list and the archive it covers, given or as the shards' headers name it) or on
 * each other: the record written over its own key destroyed the key.
 */
async function refuseMergeWrites(values: Record<string, unknown>, files: readonly string[]): Promise<void> {
  const reads: Read[] = [
    ...files.map((f) => ({ path: f, named: 'a shard file being merged' })),
    { path: String(values['key']), named: 'the --key file (the signing key)' },
  ];
  const records =
    typeof values['records'] === 'string' ? [{ path: values['records'], named: 'the --records file' }] : [];
  await refuseWritesOn([['--out', values['out']]], [...reads, ...records]);
  await refuseWritesOn([['--records', values['records']]], reads);
  const list = typeof values['list'] === 'string' ? [{ path: values['list'], named: 'the --list being checked' }] : [];
  const judged = (await judgedSources(files)).map((s) => ({ path: s, named: 'the list the shards judged' }));
  await refuseMergeOnArchive(values, [...list, ...judged]);
}

async function mergeRun(values: Record<string, unknown>, files: string[], io: CliIO): Promise<ExitCode> {
  if (typeof values['key'] !== 'string' || typeof values['out'] !== 'string')
    throw new UsageError(`merge needs --key FILE (the signing key) and --out FILE (the record)\nusage: ${usage()}`);
  notStdout(values['out'], '--out', 'the record');
  if (typeof values['records'] === 'string') notStdout(values['records'], '--records', 'the records file');
  await checkOutputFile(values['out'], '--out');
  if (typeof values['records'] === 'string') await checkOutputFile(values['records'], '--records');
  await refuseMergeWrites(values, files);
  const signer = await loadSigner(values['key']);
  if (typeof values['queue'] === 'string') {
    if (files.length > 0) throw new UsageError('merge takes shard files or --queue, not both');
    const { mergeQueueCommand } = await import('./rejudge-queue.js');
    return mergeQueueCommand(values, signer, io);
  }
  if (files.length === 0) throw new UsageError(`merge: no shard file given\nusage: ${usage()}`);
  const m = await mergeShards(files, signer, {
    ...(typeof values['list'] === 'string' ? { list: values['list'] } : {}),
    ...(typeof values['records'] === 'string' ? { recordsOut: values['records'] } : {}),
  });
  return finishMerge(m, values['out'], values['json'] === true, io);
}

export const rejudgeCommand: Command = {
  ...INFO.rejudge,
  async run(args: string[], io: CliIO): Promise<ExitCode> {
    if (args[0] === 'diff') return diffCommand(args.slice(1), io);
    const { values, positionals } = parse(args, rejudgeFlags(), usage());
    if (positionals[0] === 'merge') return mergeRun(values, positionals.slice(1), io);
    return judgeRun(values, positionals, io);
  },
};

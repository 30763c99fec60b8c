/**
 * One shard of a re-judgement (`reprise rejudge LIST_OR_DIR --shard I/N`): the run's
 * statement (engine, mode, options' digests), the list's items judged inline or on batch
 * threads, and the shard file: header, records in record order, trailer. Records are sorted
 * before they are written, so the file does not depend on which thread finished first.
 */
import { hashValue } from '../../core/hash.js';
import { writeOutputFile } from '../../core/files.js';
import { UsageError } from '../../core/errors.js';
import { VERSION } from '../../version.js';
import {
  compareRecords,
  recordLine,
  SHARD_TYPE,
  type JudgedRecord,
  type RunSpec,
  type ShardHeader,
} from '../../rejudge/index.js';
import { hashBytes } from '../../core/hash.js';
import type { EngineOptions } from '../../kinds/types.js';
import { WorkerPool } from '../pool.js';
import type { JudgeJob, JudgeOutcome } from './judge.js';
import { contentDigest } from './digest.js';
import type { ArtifactList, ListItem } from './list.js';

/**
 * The options' digests: each option that names a file or directory by the digest of its
 * content (where it lies differs between machines; what it holds is what judged), any other
 * by the digest of its value's canonical JSON.
 */
export async function optionDigests(
  options: EngineOptions,
  pathOptions: readonly string[],
): Promise<Record<string, string>> {
  const out = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(options).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (value === undefined || name === 'optionWords' || name === 'readRoots') continue;
    if (!pathOptions.includes(name) || typeof value !== 'string') {
      out[name] = hashValue(value);
      continue;
    }
    try {
      out[name] = await contentDigest(value);
    } catch (e) {
      throw new UsageError(
        `cannot read the option ${name} (${value}): ${(e as NodeJS.ErrnoException).code ?? 'error'}`,
        'path',
      );
    }
  }
  return out;
}

export const runSpec = (mode: RunSpec['mode'], options: Record<string, string>): RunSpec => ({
  engine: `reprise ${VERSION}`,
  mode,
  options,
});

export interface ShardRun {
  records: JudgedRecord[];
  /** Artifacts that could not be placed in a shard (unreadable, no listed hash). */
  problems: string[];
}

export type JudgePool = WorkerPool<JudgeJob, JudgeOutcome[]>;

export function startJudgePool(workers: number): JudgePool {
  return new WorkerPool<JudgeJob, JudgeOutcome[]>(workers, new URL('../rejudge-worker.js', import.meta.url), {
    pipeline: 2,
    failure: (message) => [{ problem: message }],
  });
}

/** Gathers outcomes: records kept, problems named, the count of items done reported. */
function gather(into: ShardRun, items: readonly ListItem[], outs: JudgeOutcome[], onDone?: (n: number) => void): void {
  // A crashed thread fails its whole batch with one outcome: it stands for every item.
  const each = outs.length === items.length ? outs : items.map(() => outs[0]!);
  each.forEach((o, i) => {
    if ('record' in o) into.records.push(o.record);
    else if ('problem' in o)
      into.problems.push(o.problem.startsWith('internal error') ? `${items[i]!.name}: ${o.problem}` : o.problem);
  });
  onDone?.(items.length);
}

/** Judges the list's items of one shard, inline (no pool) or on the pool's threads. */
export async function judgeShard(
  list: ArtifactList,
  job: Omit<JudgeJob, 'items'>,
  pool: JudgePool | null,
  onDone?: (n: number) => void,
): Promise<ShardRun> {
  const run: ShardRun = { records: [], problems: [] };
  const items = list.items;
  if (!pool) {
    // Inline: the engine is imported here, and only here (with threads, this one never loads it).
    const { judgeBatch } = await import('./judge.js');
    for (const item of items) gather(run, [item], await judgeBatch({ ...job, items: [item] }), onDone);
  } else {
    const size = Math.max(1, Math.min(64, Math.ceil(items.length / (pool.size * 16))));
    const chunks: ListItem[][] = [];
    for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
    await Promise.all(chunks.map(async (c) => gather(run, c, await pool.run({ ...job, items: c }).promise, onDone)));
  }
  run.records.sort(compareRecords);
  return run;
}

/** A shard file's text: header, records in record order, trailer with their count and digest. */
export function shardFileText(header: ShardHeader, records: readonly JudgedRecord[]): string {
  const lines = records.map((r) => recordLine(r) + '\n').join('');
  const trailer = { end: { records: records.length, digest: hashBytes(lines) } };
  return `${JSON.stringify(header)}\n${lines}${JSON.stringify(trailer)}\n`;
}

export function shardHeader(list: ArtifactList, shard: { index: number; count: number }, run: RunSpec): ShardHeader {
  return { type: SHARD_TYPE, shard, list: { ...list.spec, source: list.source }, run };
}

/** Writes a shard file whole or not at all (a reader never sees half of one). */
export async function writeShard(path: string, header: ShardHeader, records: readonly JudgedRecord[]): Promise<void> {
  await writeOutputFile(path, shardFileText(header, records));
}

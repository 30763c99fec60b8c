/**
 * Shard files into one judgement (docs/rejudge.md): every shard of one N present once, all
 * of one list and one run, each record in its shard's range and in record order, and the
 * records' paths together exactly the list's names (their listDigest is the list's). Shards
 * are ranges of SHA-256 in index order, so reading them in that order reads the records in
 * record order: the Merkle tree grows as they stream, whatever order the files were given in.
 */
import type { Finding } from '../../shared/report.js';
import { fail } from './findings.js';
import { formatHash } from '../core/hash.js';
import { MerkleTree } from '../journal/merkle.js';
import {
  compareRecords,
  listDigest,
  R,
  RECORD_VERDICTS,
  shardOf,
  shardRange,
  sortNames,
  type JudgedRecord,
  type ListSpec,
  type RecordVerdict,
  type RunSpec,
  type ShardHeader,
} from './format.js';
import { readShardFile } from './shard-file.js';
import { canonicalizeValue } from '../core/jcs.js';

export interface Assembly {
  /** The shards' N, list and run (null when no header could be read). */
  count: number | null;
  list: (ListSpec & { source: string }) | null;
  run: RunSpec | null;
  records: number;
  verdicts: Record<RecordVerdict, number>;
  /** RFC 9162 root over the record lines in record order (`sha256:`). */
  root: string;
  /** The records' paths in code-unit order. */
  names: string[];
  problems: Finding[];
}

/** At most this many names in one message; the rest are counted. */
const NAMED = 20;
export function nameSome(names: readonly string[]): string {
  const shown = names
    .slice(0, NAMED)
    .map((n) => JSON.stringify(n))
    .join(', ');
  return names.length > NAMED ? `${shown} and ${names.length - NAMED} more` : shown;
}

/** What shards of one run share: their N, their list and their run (engine, mode, options). */
const runKey = (h: ShardHeader): string =>
  `${h.shard.count} ${h.list.items} ${h.list.digest} ${canonicalizeValue(h.run)}`;
const sameRun = (a: ShardHeader, b: ShardHeader): boolean => runKey(a) === runKey(b);

/**
 * The shard file whose run most of the files given share (the first given of them): the
 * odd file out is then the one named as of another run, whatever order the files came in.
 */
function mostShared<T extends { header: ShardHeader }>(good: readonly T[]): T | null {
  // By key, not pair by pair: a merge may be given thousands of shard files.
  const groups = new Map<string, { first: T; n: number }>();
  for (const g of good) {
    const k = runKey(g.header);
    const e = groups.get(k);
    if (e) e.n++;
    else groups.set(k, { first: g, n: 1 });
  }
  let best: { first: T; n: number } | null = null;
  for (const e of groups.values()) if (!best || e.n > best.n) best = e;
  return best?.first ?? null;
}

/** Reads the shard files in index order; `onRecord` sees every accepted record line in record order. */
export async function assembleShards(paths: readonly string[], onRecord?: (line: string) => void): Promise<Assembly> {
  const problems: Finding[] = [];
  // 1. Headers: one N, one list, one run; each index once.
  const heads = await Promise.all(
    paths.map(async (p) => ({
      path: p,
      read: await readShardFile(
        p,
        () => false,
        () => undefined,
      ),
    })),
  );
  for (const h of heads) if (!h.read.header) problems.push(...h.read.problems);
  const good = heads.filter((h) => h.read.header).map((h) => ({ path: h.path, header: h.read.header! }));
  const reference = mostShared(good);
  const first = reference?.header ?? null;
  const out: Assembly = {
    ...emptyAssembly(first?.list ?? null, first?.run ?? null),
    count: first?.shard.count ?? null,
    problems,
  };
  for (const g of good)
    if (!sameRun(first!, g.header))
      problems.push(
        fail(
          R.disagree,
          `${g.path} is shard ${g.header.shard.index}/${g.header.shard.count} of another run than ${reference!.path}: their N, list or options differ`,
        ),
      );
  const byIndex = new Map<number, string[]>();
  for (const g of good.filter((x) => sameRun(first!, x.header)))
    byIndex.set(g.header.shard.index, [...(byIndex.get(g.header.shard.index) ?? []), g.path]);
  // 2. Records, shard after shard.
  const sink = new RecordSink(out, onRecord);
  for (let i = 0; first && i < first.shard.count; i++) {
    const files = byIndex.get(i);
    if (!files) {
      const r = shardRange(i, first.shard.count);
      problems.push(
        fail(
          R.shards,
          `shard ${i}/${first.shard.count} is missing (the artifacts whose SHA-256 starts from ${r.from} up to ${r.to}): no file of it was given`,
        ),
      );
      continue;
    }
    if (files.length > 1) problems.push(await doubledShard(files, i, first.shard.count));
    const read = await readShardFile(
      files[0]!,
      () => true,
      (r, line, at) => sink.add(r, line, { shard: i, count: first.shard.count, where: `${files[0]} line ${at}` }),
    );
    problems.push(...read.problems);
  }
  sink.finish();
  return out;
}

/** A shard given more than once: the artifacts its other files would count again, named. */
async function doubledShard(files: readonly string[], index: number, count: number): Promise<Finding> {
  const again = new Set<string>();
  for (const f of files.slice(1))
    await readShardFile(
      f,
      () => true,
      (r) => void again.add(r.path),
    );
  return fail(
    R.shards,
    `shard ${index}/${count} is given ${files.length} times (${files.join(', ')}); the first file is read, and the others would judge again: ${nameSome(sortNames([...again]))}`,
  );
}

export function zeroVerdicts(): Record<RecordVerdict, number> {
  return Object.fromEntries(RECORD_VERDICTS.map((v) => [v, 0])) as Record<RecordVerdict, number>;
}

/** Doubled paths, then whether the paths are the list (by its digest): what the records alone can prove. */
export function namesProblems(sortedNames: readonly string[], list: ListSpec): Finding[] {
  const doubled = sortedNames.filter((n, i) => i > 0 && sortedNames[i - 1] === n);
  const out: Finding[] = [];
  if (doubled.length > 0) out.push(fail(R.coverage, `judged more than once: ${nameSome([...new Set(doubled)])}`));
  else if (sortedNames.length !== list.items || listDigest(sortedNames) !== list.digest)
    out.push(
      fail(
        R.coverage,
        `the records judge ${sortedNames.length} artifacts, not exactly the list's ${list.items}: ${sortedNames.length < list.items ? 'some are missing' : 'some are not in the list'}`,
      ),
    );
  return out;
}

/** With the list's names at hand: every missing and every foreign artifact, named. */
export function namedCoverage(sortedNames: readonly string[], sortedList: readonly string[]): Finding[] {
  const have = new Set(sortedNames);
  const want = new Set(sortedList);
  const missing = sortedList.filter((n) => !have.has(n));
  const foreign = [...have].filter((n) => !want.has(n));
  const out: Finding[] = [];
  if (missing.length > 0) out.push(fail(R.coverage, `not judged by any shard: ${nameSome(missing)}`));
  if (foreign.length > 0) out.push(fail(R.coverage, `judged but not in the list: ${nameSome(foreign)}`));
  return out;
}

/**
 * Takes records in record order (from shard files, or a queue's results sorted): checks the
 * order (and each record's shard, when it comes from one), grows the Merkle tree, counts the
 * verdicts and keeps the paths; `finish` checks the paths against the list.
 */
export class RecordSink {
  private readonly tree = new MerkleTree();
  private prev: JudgedRecord | null = null;

  constructor(
    private readonly out: Assembly,
    private readonly onRecord?: (line: string) => void,
  ) {}

  add(r: JudgedRecord, line: string, from: { shard?: number; count?: number; where: string }): void {
    const home = from.count !== undefined ? shardOf(r.sha256, from.count) : undefined;
    if (home !== undefined && home !== from.shard)
      this.out.problems.push(
        fail(
          R.order,
          `${from.where}: ${JSON.stringify(r.path)} (${r.sha256}) belongs to shard ${home}, not ${from.shard}`,
        ),
      );
    else if (this.prev && compareRecords(this.prev, r) >= 0)
      this.out.problems.push(
        fail(
          R.order,
          `${from.where}: ${JSON.stringify(r.path)} ${compareRecords(this.prev, r) === 0 ? 'is recorded twice' : 'is out of record order (SHA-256, then path)'}`,
        ),
      );
    this.prev = r;
    this.tree.appendLeaf(line);
    this.out.verdicts[r.verdict]++;
    this.out.names.push(r.path);
    this.onRecord?.(line);
  }

  /** The root and count, then coverage: the records' paths are the list's names, each once. */
  finish(): void {
    this.out.records = this.tree.size;
    this.out.root = formatHash(this.tree.root().toString('hex'));
    sortNames(this.out.names);
    if (this.out.list) this.out.problems.push(...namesProblems(this.out.names, this.out.list));
  }
}

/** An empty assembly of one list and run, for records that come from elsewhere (a queue). */
export function emptyAssembly(list: Assembly['list'], run: RunSpec | null): Assembly {
  return { count: null, list, run, records: 0, verdicts: zeroVerdicts(), root: '', names: [], problems: [] };
}

/**
 * `reprise rejudge merge`: shard files (or a queue's results) into the signed re-judgement
 * record (docs/rejudge.md). Nothing is written unless the records cover the list exactly
 * once; what is missing or doubled is named, from the list itself when it can be read (the
 * shards name where it was read; `--list` says where it lies on this machine).
 */
import type { Finding } from '../../../shared/report.js';
import { fail } from '../../core/findings.js';
import { writeOutputFile } from '../../core/files.js';
import type { Signer } from '../../core/keys.js';
import { canonicalizeValue } from '../../core/jcs.js';
import {
  assembleShards,
  headerProblem,
  linesOf,
  namedCoverage,
  R,
  REJUDGEMENT_TYPE,
  signRejudgement,
  sortNames,
  type Assembly,
  type RejudgementRecord,
  type ShardHeader,
} from '../../rejudge/index.js';
import { readList } from './list.js';
import { shardFileText } from './run.js';

export interface Merged {
  assembly: Assembly;
  /** Null when the shards do not make a record (the problems say why). */
  record: RejudgementRecord | null;
  problems: Finding[];
}

/**
 * When the records do not cover the list, names what is missing and what is foreign from the
 * list (its digest must be the one the shards judged); without a readable list, says so.
 */
async function nameCoverage(a: Assembly, listArg: string | undefined): Promise<Finding[]> {
  const unnamed = a.problems.filter((p) => p.rule === R.coverage && !p.message.startsWith('judged more than once'));
  if (!a.list) return a.problems;
  if (unnamed.length === 0)
    return listArg === undefined ? a.problems : [...a.problems, ...(await heldToList(a, listArg))];
  const rest = a.problems.filter((p) => !unnamed.includes(p));
  const where = listArg ?? a.list.source;
  try {
    const list = await readList(where);
    if (list.spec.digest !== a.list.digest)
      return [
        ...a.problems,
        fail(
          R.coverage,
          `the list at ${where} is not the one the shards judged (another digest): it cannot name what is missing`,
        ),
      ];
    return [...rest, ...namedCoverage(a.names, sortNames(list.items.map((i) => i.name)))];
  } catch (e) {
    return [
      ...a.problems,
      fail(
        R.coverage,
        `the list at ${where} cannot be read to name them (${e instanceof Error ? e.message : String(e)}); give --list`,
      ),
    ];
  }
}

/**
 * The records, which cover the list their shards name, held to the list given (`--list`):
 * the shards' header is their own word (a shard file is not signed), and a header whose
 * list was made without a failing artifact, with its record, would otherwise be signed as
 * the archive's. Each artifact missing or foreign is named.
 */
async function heldToList(a: Assembly, where: string): Promise<Finding[]> {
  let list: Awaited<ReturnType<typeof readList>>;
  try {
    list = await readList(where);
  } catch (e) {
    return [fail(R.coverage, `the list at ${where} cannot be read (${e instanceof Error ? e.message : String(e)})`)];
  }
  if (list.spec.digest === a.list!.digest) return [];
  const named = namedCoverage(a.names, sortNames(list.items.map((i) => i.name)));
  return [
    fail(R.coverage, `the list at ${where} is not the one the shards say they judged (another digest)`),
    ...named,
  ];
}

/**
 * Where the shards' headers say their list was read, each once: what the merge's outputs must
 * not land in. Read before the merge (a header only); a file without a header names none, and
 * the merge says why.
 */
export async function judgedSources(files: readonly string[]): Promise<string[]> {
  const sources = new Set<string>();
  for (const f of files) {
    const header = await headerOf(f);
    if (header) sources.add(header.list.source);
  }
  return [...sources];
}

async function headerOf(file: string): Promise<ShardHeader | null> {
  try {
    for await (const { text } of linesOf(file)) {
      const v = JSON.parse(text) as unknown;
      return headerProblem(v) === null ? (v as ShardHeader) : null;
    }
  } catch {
    // Unreadable or not JSON: the merge names it.
  }
  return null;
}

/** The signed record of a complete assembly. */
export function recordOf(a: Assembly, signer: Signer): RejudgementRecord {
  return signRejudgement(
    {
      type: REJUDGEMENT_TYPE,
      engine: a.run!.engine,
      mode: a.run!.mode,
      options: a.run!.options,
      list: { items: a.list!.items, digest: a.list!.digest },
      verdicts: a.verdicts,
      records: { count: a.records, root: a.root },
    },
    signer,
  );
}

/**
 * Completes an assembly into a record, or names why it cannot be one. `also`: problems of the
 * records' source (a queue's refused jobs and results), kept beside the coverage the list names.
 */
export async function completeAssembly(
  a: Assembly,
  signer: Signer,
  listArg?: string,
  also: readonly Finding[] = [],
): Promise<Merged> {
  const problems = [...also, ...(await nameCoverage(a, listArg))];
  if (!a.run || !a.list) problems.push(fail(R.shards, 'no shard could be read: there is nothing to merge'));
  return { assembly: a, record: problems.length === 0 ? recordOf(a, signer) : null, problems };
}

/** Merges shard files; with `recordsOut`, also writes every record as one shard file of 0/1. */
export async function mergeShards(
  files: readonly string[],
  signer: Signer,
  opts: { list?: string; recordsOut?: string } = {},
): Promise<Merged> {
  const lines: string[] = [];
  const a = await assembleShards(files, opts.recordsOut ? (l) => lines.push(l) : undefined);
  const merged = await completeAssembly(a, signer, opts.list);
  if (merged.record && opts.recordsOut) await writeRecordsFile(opts.recordsOut, a, lines);
  return merged;
}

/** Every record as shard 0 of 1: the same file `rejudge LIST --shard 0/1` writes. */
export async function writeRecordsFile(path: string, a: Assembly, lines: readonly string[]): Promise<void> {
  const header = {
    type: 'reprise.rejudge-shard/v1' as const,
    shard: { index: 0, count: 1 },
    list: a.list!,
    run: a.run!,
  };
  await writeOutputFile(
    path,
    shardFileText(
      header,
      lines.map((l) => JSON.parse(l) as never),
    ),
  );
}

/** The record file's bytes: canonical JSON and a line feed (byte-identical wherever it is made). */
export const recordText = (r: RejudgementRecord): string => canonicalizeValue(r) + '\n';

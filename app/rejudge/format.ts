/**
 * The re-judgement formats (docs/rejudge.md): the JSON Lines record of one judged artifact,
 * the shard file that holds a shard's records between a header and a trailer, and the
 * signed re-judgement record (`reprise.rejudgement/v1`) that `rejudge merge` writes.
 *
 * Everything here is deterministic: a record line is its RFC 8785 canonical JSON, records
 * are ordered by SHA-256 then path (code units), shards are ranges of SHA-256 values, so the
 * signed record depends on what was judged and how, never on the number of shards, workers
 * or machines, nor on the order in which jobs finished.
 */
import { isPlainObject as isObj } from '../core/closed.js';
import { verdictOf } from '../../shared/report.js';
import { REJUDGEMENT_TYPE, SHARD_TYPE } from './constants.js';
import { canonicalizeValue } from '../core/jcs.js';
import { isHashString, newHasher, formatHash } from '../core/hash.js';

/** The rule ids of the kind's findings and of the merge's refusals (docs/rules/rejudge.md). */
export const R = {
  shardFile: 'RPR-REJUDGE-010',
  disagree: 'RPR-REJUDGE-011',
  shards: 'RPR-REJUDGE-012',
  order: 'RPR-REJUDGE-013',
  coverage: 'RPR-REJUDGE-014',
  record: 'RPR-REJUDGE-015',
  structure: 'RPR-REJUDGE-001',
  signature: 'RPR-REJUDGE-002',
  trust: 'RPR-REJUDGE-003',
  counts: 'RPR-REJUDGE-004',
  summary: 'RPR-REJUDGE-000',
} as const;

export { REJUDGEMENT_TYPE, SHARD_TYPE };

/** A record's verdict: the report's, or `error` when the artifact could not be judged at all. */
export const RECORD_VERDICTS = ['error', 'fail', 'pass', 'unavailable'] as const;
export type RecordVerdict = (typeof RECORD_VERDICTS)[number];
/** The severities a record lists: every one above info. */
export const LISTED_SEVERITIES = ['fail', 'unavailable', 'warning'] as const;
export type ListedSeverity = (typeof LISTED_SEVERITIES)[number];

export interface RuleHit {
  rule: string;
  severity: ListedSeverity;
}

/** One judged artifact: one line of a shard file, one leaf of the record's Merkle tree. */
export interface JudgedRecord {
  /** The artifact's content: `sha256:` of a file's bytes, or of a directory artifact's tree (docs/rejudge.md). */
  sha256: string;
  /** Its name in the list: relative to the listed directory, or as the list file wrote it. */
  path: string;
  kind: string | null;
  verdict: RecordVerdict;
  /** Each rule with a finding above info, once per severity, in the report's order. */
  rules: RuleHit[];
  /** app/journal/judgement.ts reportDigest of the report; null when there is no report (`error`). */
  reportDigest: string | null;
  /** Why the artifact could not be judged (verdict `error` only). */
  error?: string;
}

/** How the artifacts were judged: what a shard's header and the record both state. */
export interface RunSpec {
  /** `reprise VERSION`: another engine may judge otherwise. */
  engine: string;
  mode: 'verify' | 'replay';
  /** Each engine option given, by name: `sha256:` of the file it names, or of the value's canonical JSON. */
  options: Record<string, string>;
}

export interface ListSpec {
  items: number;
  /** listDigest of the list's names. */
  digest: string;
}

export interface ShardHeader {
  type: typeof SHARD_TYPE;
  shard: { index: number; count: number };
  /** `source`: where the list was read (absolute), so that a merge can name what is missing. */
  list: ListSpec & { source: string };
  run: RunSpec;
}

export interface ShardTrailer {
  end: { records: number; digest: string };
}

/** The signed re-judgement record. */
export interface RejudgementRecord {
  type: typeof REJUDGEMENT_TYPE;
  engine: string;
  mode: RunSpec['mode'];
  options: Record<string, string>;
  list: ListSpec;
  verdicts: Record<RecordVerdict, number>;
  records: { count: number; root: string };
  /** `ed25519:<hex>` key id of the signing key. */
  signer: string;
  /** Ed25519 signature (base64) over the canonical JSON of the record without `sig`. */
  sig: string;
}

/** The bytes of one record: its canonical JSON (a shard file's line without its newline; the Merkle leaf). */
export function recordLine(r: JudgedRecord): string {
  return canonicalizeValue(r);
}

/** The record order: SHA-256, then path in code units (two paths may hold the same bytes). */
export function compareRecords(
  a: Pick<JudgedRecord, 'sha256' | 'path'>,
  b: Pick<JudgedRecord, 'sha256' | 'path'>,
): number {
  if (a.sha256 !== b.sha256) return a.sha256 < b.sha256 ? -1 : 1;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * The digest of a list: SHA-256 over each name's JSON string and a line feed, names in code
 * unit order. The same for a directory and for a list of its files, whatever the order of
 * the lines; computed again from the records' paths, it proves they cover the list.
 */
export function listDigest(sortedNames: readonly string[]): string {
  const h = newHasher();
  for (const n of sortedNames) h.update(JSON.stringify(n) + '\n');
  return formatHash(h.digest('hex'));
}

/** Names in code-unit order (the order listDigest reads them in). */
export function sortNames(names: string[]): string[] {
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

// ---------------------------------------------------------------------------
// Shards: contiguous ranges of the first 64 bits of the SHA-256.

const TWO_64 = 1n << 64n;

/** The first 64 bits of a `sha256:` hash string, as an unsigned integer. */
function top64(sha256: string): bigint {
  return BigInt(`0x${sha256.slice(7, 23)}`);
}

/**
 * The shard of `count` that holds a hash: floor(top64 · count / 2^64). Shard i is the range
 * [ceil(i·2^64/count), ceil((i+1)·2^64/count)) of the hash's first 64 bits, so shards in
 * index order are the records in SHA-256 order, and shard i of N is shards 2i and 2i+1 of 2N.
 */
export function shardOf(sha256: string, count: number): number {
  return Number((top64(sha256) * BigInt(count)) / TWO_64);
}

/** The first 64 bits a shard starts at, and the first past it, as 16 hex digits (`10000000000000000` for the end). */
export function shardRange(index: number, count: number): { from: string; to: string } {
  const at = (i: number) => ((BigInt(i) * TWO_64 + BigInt(count) - 1n) / BigInt(count)).toString(16).padStart(16, '0');
  return { from: at(index), to: at(index + 1) };
}

/** `I/N` as the numbers, or null when it is not one (0 <= I < N <= 65536). */
export function parseShard(s: string): { index: number; count: number } | null {
  const m = /^(0|[1-9]\d*)\/([1-9]\d*)$/.exec(s);
  if (!m) return null;
  const [index, count] = [Number(m[1]), Number(m[2])];
  return index < count && count <= MAX_SHARDS ? { index, count } : null;
}
export const MAX_SHARDS = 65536;

// ---------------------------------------------------------------------------
// Shapes: what a reader accepts (a shard file is input like any other).

const onlyMembers = (o: Record<string, unknown>, names: readonly string[]): boolean =>
  Object.keys(o).every((k) => names.includes(k));

/** Why a value is not a JudgedRecord, or null. */
export function recordProblem(v: unknown): string | null {
  if (!isObj(v)) return 'a record is a JSON object';
  if (!onlyMembers(v, ['sha256', 'path', 'kind', 'verdict', 'rules', 'reportDigest', 'error']))
    return 'a record has a member no record has';
  if (!isHashString(v['sha256'])) return 'sha256 is not a sha256:<64 hex> hash string';
  if (typeof v['path'] !== 'string' || v['path'] === '') return 'path is not a non-empty string';
  if (v['kind'] !== null && typeof v['kind'] !== 'string') return 'kind is neither a string nor null';
  if (!RECORD_VERDICTS.includes(v['verdict'] as RecordVerdict))
    return `verdict is not one of ${RECORD_VERDICTS.join(', ')}`;
  if (
    !Array.isArray(v['rules']) ||
    !v['rules'].every(
      (h) =>
        isObj(h) &&
        onlyMembers(h, ['rule', 'severity']) &&
        typeof h['rule'] === 'string' &&
        LISTED_SEVERITIES.includes(h['severity'] as ListedSeverity),
    )
  )
    return 'rules is not a list of {rule, severity} above info';
  if (v['reportDigest'] !== null && !isHashString(v['reportDigest']))
    return 'reportDigest is neither a hash string nor null';
  if ((v['verdict'] === 'error') !== (typeof v['error'] === 'string'))
    return 'an error record (and only one) says why in error';
  return verdictProblem(v);
}

/**
 * A judged record's verdict is the one its rules make (verdictOf: any fail, else any
 * unavailable, else pass), and it names its report; an error record names neither. A shard
 * file is not signed: a verdict edited to PASS beside its failing rules would otherwise be
 * counted, and signed by the merge, as a pass.
 */
function verdictProblem(v: Record<string, unknown>): string | null {
  const rules = v['rules'] as { severity: ListedSeverity }[];
  if (v['verdict'] === 'error')
    return v['kind'] === null && v['reportDigest'] === null && rules.length === 0
      ? null
      : 'an error record has no kind, rules or reportDigest';
  if (typeof v['kind'] !== 'string' || v['reportDigest'] === null)
    return 'a judged record names its kind and reportDigest';
  const made = verdictOf(rules);
  return v['verdict'] === made ? null : `verdict ${String(v['verdict'])} is not the one its rules make (${made})`;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isStringMap = (v: unknown): v is Record<string, string> =>
  isObj(v) && Object.values(v).every((x) => typeof x === 'string');

/** Why a value is not a RunSpec, or null. */
export function runProblem(v: unknown): string | null {
  if (!isObj(v) || !onlyMembers(v, ['engine', 'mode', 'options'])) return 'run is not {engine, mode, options}';
  if (typeof v['engine'] !== 'string') return 'run.engine is not a string';
  if (v['mode'] !== 'verify' && v['mode'] !== 'replay') return 'run.mode is neither verify nor replay';
  if (!isStringMap(v['options']) || !Object.values(v['options']).every(isHashString))
    return 'run.options is not a map of hash strings';
  return null;
}

/** Why a value is not a ShardHeader, or null. */
export function headerProblem(v: unknown): string | null {
  if (!isObj(v) || v['type'] !== SHARD_TYPE) return `the first line is not a ${SHARD_TYPE} header`;
  if (!onlyMembers(v, ['type', 'shard', 'list', 'run'])) return 'the header has a member no header has';
  const s = v['shard'];
  if (
    !isObj(s) ||
    !isCount(s['index']) ||
    !isCount(s['count']) ||
    s['count'] < 1 ||
    s['index'] >= s['count'] ||
    s['count'] > MAX_SHARDS
  )
    return 'header.shard is not {index, count} with 0 <= index < count';
  const l = v['list'];
  if (!isObj(l) || !isCount(l['items']) || !isHashString(l['digest']) || typeof l['source'] !== 'string')
    return 'header.list is not {items, digest, source}';
  return runProblem(v['run']);
}

/** Why a value is not a ShardTrailer, or null. */
export function trailerProblem(v: unknown): string | null {
  if (!isObj(v) || !onlyMembers(v, ['end']) || !isObj(v['end'])) return 'the last line is not the trailer {"end": …}';
  const e = v['end'];
  if (!isCount(e['records']) || !isHashString(e['digest'])) return 'the trailer is not {end: {records, digest}}';
  return null;
}

/** Why a value is not a RejudgementRecord (signature aside), or null. */
export function rejudgementProblem(v: unknown): string | null {
  const members = ['type', 'engine', 'mode', 'options', 'list', 'verdicts', 'records', 'signer', 'sig'];
  if (!isObj(v) || v['type'] !== REJUDGEMENT_TYPE) return `not a ${REJUDGEMENT_TYPE} record`;
  const extra = Object.keys(v).find((k) => !members.includes(k));
  if (extra !== undefined) return `the record has a member no record has: ${extra}`;
  const run = runProblem({ engine: v['engine'], mode: v['mode'], options: v['options'] });
  if (run) return run.replace(/run\./g, '');
  const l = v['list'];
  if (!isObj(l) || !onlyMembers(l, ['items', 'digest']) || !isCount(l['items']) || !isHashString(l['digest']))
    return 'list is not {items, digest}';
  const t = v['verdicts'];
  if (!isObj(t) || Object.keys(t).length !== RECORD_VERDICTS.length || !RECORD_VERDICTS.every((k) => isCount(t[k])))
    return `verdicts is not a count for each of ${RECORD_VERDICTS.join(', ')}`;
  const r = v['records'];
  if (!isObj(r) || !onlyMembers(r, ['count', 'root']) || !isCount(r['count']) || !isHashString(r['root']))
    return 'records is not {count, root}';
  if (typeof v['signer'] !== 'string' || typeof v['sig'] !== 'string') return 'signer and sig are not strings';
  return null;
}

/** The bytes a record's signature covers: its canonical JSON without `sig`. */
export function signedBytes(r: Omit<RejudgementRecord, 'sig'> & { sig?: string }): Buffer {
  const { sig: _sig, ...rest } = r;
  return Buffer.from(canonicalizeValue(rest), 'utf8');
}

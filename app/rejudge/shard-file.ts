/**
 * Reading a shard file (docs/rejudge.md): a header line, one canonical record per line in
 * record order, a trailer with the count and digest of the record lines. Read in chunks with
 * a bounded line, so a shard of millions of records, or a hostile file with no line feed,
 * costs bounded memory; every departure from the format is a problem naming the file and line.
 */
import type { Finding } from '../../shared/report.js';
import { fail } from './findings.js';
import { newHasher, formatHash } from '../core/hash.js';
import { openRegular, readFailure } from '../core/files.js';
import {
  R,
  headerProblem,
  recordLine,
  recordProblem,
  trailerProblem,
  type JudgedRecord,
  type ShardHeader,
  type ShardTrailer,
} from './format.js';

/** The longest line a shard file may hold: a record is a few hundred bytes. */
export const MAX_SHARD_LINE = 1024 * 1024;
const CHUNK = 4 * 1024 * 1024;

/** Lines of a file, each with its number, in chunks; a line longer than MAX_SHARD_LINE throws. */
export async function* linesOf(path: string): AsyncGenerator<{ text: string; line: number }> {
  const opened = await openRegular(path);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let pending = '';
    let line = 0;
    for (let pos = 0; ;) {
      const { bytesRead } = await opened.fh.read(buf, 0, CHUNK, pos);
      pos += bytesRead;
      pending += decodedLine(decoder, buf.subarray(0, bytesRead), line);
      const parts = pending.split('\n');
      pending = parts.pop()!;
      for (const text of parts) yield { text, line: ++line };
      if (pending.length > MAX_SHARD_LINE) throw new Error(`line ${line + 1} is longer than ${MAX_SHARD_LINE} bytes`);
      if (bytesRead === 0) break;
    }
    if (pending !== '') throw new Error(`line ${line + 1} does not end with a line feed (the file is cut short)`);
  } finally {
    await opened.fh.close().catch(() => undefined);
  }
}

/** A chunk decoded (the last, empty, ends the stream); bytes that are not UTF-8 are said so, near the line they are on. */
function decodedLine(decoder: InstanceType<typeof TextDecoder>, bytes: Uint8Array, linesBefore: number): string {
  try {
    return decoder.decode(bytes, { stream: bytes.length > 0 });
  } catch {
    throw new Error(`line ${linesBefore + 1} or after it is not UTF-8 text (a shard file is JSON Lines)`);
  }
}

const parseLine = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

export interface ShardRead {
  path: string;
  header: ShardHeader | null;
  records: number;
  problems: Finding[];
}

/**
 * Reads one shard file: its header first (null with a problem when it has none), then each
 * record through `onRecord` (which checks order and range), then the trailer against the
 * lines seen. A record line must be the record's own canonical JSON (the Merkle leaf).
 */
export async function readShardFile(
  path: string,
  onHeader: (h: ShardHeader) => boolean,
  onRecord: (r: JudgedRecord, line: string, at: number) => void,
): Promise<ShardRead> {
  const out: ShardRead = { path, header: null, records: 0, problems: [] };
  const problem = (message: string, line?: number) =>
    out.problems.push(
      fail(R.shardFile, `${path}${line ? ` line ${line}` : ''}: ${message}`, { pointer: line ? `line:${line}` : '' }),
    );
  const digest = newHasher();
  let trailer: { value: ShardTrailer; line: number } | null = null;
  try {
    for await (const { text, line } of linesOf(path)) {
      if (trailer) return (problem('a line follows the trailer', line), out);
      const v = parseLine(text);
      if (line === 1) {
        const p = headerProblem(v);
        if (p) return (problem(p, 1), out);
        out.header = v as ShardHeader;
        if (!onHeader(out.header)) return out;
        continue;
      }
      if (v !== null && typeof v === 'object' && 'end' in v) {
        const p = trailerProblem(v);
        if (p) return (problem(p, line), out);
        trailer = { value: v as ShardTrailer, line };
        continue;
      }
      const p = v === undefined ? 'not JSON' : recordProblem(v);
      if (p) return (problem(p, line), out);
      if (recordLine(v as JudgedRecord) !== text)
        return (
          problem('the record is not written as its canonical JSON (RFC 8785), the bytes its leaf hashes', line),
          out
        );
      digest.update(text + '\n');
      out.records++;
      onRecord(v as JudgedRecord, text, line);
    }
  } catch (e) {
    return (
      problem(e instanceof Error && /^line /.test(e.message) ? e.message : `cannot be read: ${readFailure(e)}`),
      out
    );
  }
  if (!out.header) return (problem('the file is empty: no header'), out);
  if (!trailer) return (problem('no trailer: the file is cut short, or still being written'), out);
  const want = trailer.value.end;
  if (want.records !== out.records)
    problem(`the trailer counts ${want.records} records; the file holds ${out.records}`, trailer.line);
  else if (want.digest !== formatHash(digest.digest('hex')))
    problem("the trailer's digest is not that of the record lines: a record was changed", trailer.line);
  return out;
}

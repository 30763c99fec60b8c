/**
 * Reading a journal's files into lines, byte-exact: a line is the bytes between two `\n`
 * (its Merkle leaf); bytes after the last `\n` are a torn tail (a write cut short), kept
 * aside and never parsed as a line.
 */
import { createHash, type Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { openJournalFile } from './frontier.js';
import { isMissing, MAX_WHOLE_FILE_BYTES, readFailure, readOpened, readRegularFile } from '../core/files.js';
import { CHECKPOINTS_FILE, ENTRIES_FILE } from './format.js';
import { JournalError } from './errors.js';
import { leafHash } from './merkle.js';

export interface RawLine {
  /** 1-based line number in its file. */
  line: number;
  /** Byte offset of the line's first byte. */
  offset: number;
  bytes: Buffer;
}

export interface TornTail {
  file: string;
  /** Offset where the torn bytes start (the length the file has after a repair). */
  offset: number;
  /** How many bytes follow the last newline. */
  length: number;
  /**
   * The torn bytes, when they were held: a streamed tail longer than MAX_LINE_BYTES is not
   * (memory stays bounded), and then this is empty while `length` says how long it is.
   */
  bytes: Buffer;
}

export interface RawFile {
  name: string;
  exists: boolean;
  lines: RawLine[];
  torn: TornTail | null;
  size: number;
  /** The whole file (lines are views into it). */
  data?: Buffer;
}

export function splitLines(name: string, buf: Buffer): Omit<RawFile, 'exists'> {
  const lines: RawLine[] = [];
  let pos = 0;
  let n = 0;
  for (;;) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl === -1) break;
    lines.push({ line: ++n, offset: pos, bytes: buf.subarray(pos, nl) });
    pos = nl + 1;
  }
  const torn =
    pos < buf.length ? { file: name, offset: pos, length: buf.length - pos, bytes: buf.subarray(pos) } : null;
  return { name, lines, torn, size: buf.length, data: buf };
}

export async function readJournalFile(dir: string, name: string): Promise<RawFile> {
  let buf: Buffer;
  try {
    buf = await readRegularFile(join(dir, name), MAX_WHOLE_FILE_BYTES);
  } catch (e) {
    if (isMissing(e)) return { name, exists: false, lines: [], torn: null, size: 0 };
    throw new JournalError(`cannot read ${join(dir, name)}: ${readFailure(e)}`, 'IO');
  }
  return { ...splitLines(name, buf), exists: true };
}

export async function readJournalFiles(dir: string): Promise<{ entries: RawFile; checkpoints: RawFile }> {
  const [entries, checkpoints] = await Promise.all([
    readJournalFile(dir, ENTRIES_FILE),
    readJournalFile(dir, CHECKPOINTS_FILE),
  ]);
  return { entries, checkpoints };
}

/** The longest line a journal reader holds whole; a longer one is hashed as it streams (its Merkle leaf) and reported. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
const CHUNK_BYTES = 8 * 1024 * 1024;
const MIN_CHUNK_BYTES = 64 * 1024;

export interface StreamedFile {
  name: string;
  exists: boolean;
  /** Complete lines seen. */
  lines: number;
  torn: TornTail | null;
  /** Bytes of complete lines (where a torn tail starts). */
  size: number;
}

/** A line too long to hold: its number, offset, length and Merkle leaf hash. */
export interface OverlongLine {
  line: number;
  offset: number;
  length: number;
  leaf: Buffer;
}

/**
 * Reads a journal file from `from` in chunks and hands over its complete lines a chunk at a
 * time, so memory stays bounded whatever the journal's size: the lines of one chunk, and
 * (when the chunk is UTF-8) their texts from one decode. A line longer than MAX_LINE_BYTES is
 * not held: its leaf hash is computed as it streams and it is handed over as `overlong`.
 * `hash`, when given, takes every byte read (from `start`): the file's SHA-256 on the same read.
 */
export async function streamLines(
  dir: string,
  name: string,
  onLines: (lines: RawLine[], texts: string[] | undefined) => void,
  onOverlong: (l: OverlongLine) => void,
  start: { offset: number; line: number } = { offset: 0, line: 0 },
  hash?: Hash,
): Promise<StreamedFile> {
  let fh;
  try {
    fh = await openJournalFile(dir, name, 'read');
  } catch (e) {
    if (isMissing(e) || (e as { code?: string }).code === 'ENOENT')
      return { name, exists: false, lines: 0, torn: null, size: 0 };
    throw new JournalError(`cannot read ${join(dir, name)}: ${readFailure(e)}`, 'IO');
  }
  try {
    return await streamOpened(fh, name, onLines, onOverlong, start, hash);
  } catch (e) {
    if (e instanceof JournalError) throw e;
    throw new JournalError(`cannot read ${join(dir, name)}: ${readFailure(e)}`, 'IO');
  } finally {
    await fh.close().catch(() => undefined);
  }
}

const STREAM_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

async function streamOpened(
  fh: FileHandle,
  name: string,
  onLines: (lines: RawLine[], texts: string[] | undefined) => void,
  onOverlong: (l: OverlongLine) => void,
  start: { offset: number; line: number },
  hash: Hash | undefined,
): Promise<StreamedFile> {
  let pending = Buffer.alloc(0); // bytes after the last newline seen
  let pendingAt = start.offset; // file offset of pending[0]
  let n = start.line;
  let pos = start.offset;
  let long: { hash: Hash; length: number } | null = null;
  // A small file (most journals, and every checkpoints file) is read into a buffer of its
  // size and a little more, not a whole chunk, whose allocation alone cost more than reading
  // it: one read takes it all, the next sees its end. A file that grows meanwhile is still
  // read whole, in pieces of at least MIN_CHUNK_BYTES.
  const { size } = await fh.stat();
  const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, size - start.offset + 1)));
  for (;;) {
    const { bytesRead } = await fh.read(chunk, 0, chunk.length, pos);
    if (bytesRead === 0) break;
    pos += bytesRead;
    let data = chunk.subarray(0, bytesRead);
    hash?.update(data);
    if (long) {
      // Inside an overlong line: hash up to its newline, then go on with the rest.
      const nl = data.indexOf(0x0a);
      long.hash.update(nl === -1 ? data : data.subarray(0, nl));
      long.length += nl === -1 ? data.length : nl;
      if (nl === -1) continue;
      onOverlong({ line: ++n, offset: pendingAt, length: long.length, leaf: long.hash.digest() });
      long = null;
      data = data.subarray(nl + 1);
      pendingAt = pos - data.length;
      pending = Buffer.alloc(0);
    }
    const buf = pending.length > 0 ? Buffer.concat([pending, data]) : Buffer.from(data);
    const last = buf.lastIndexOf(0x0a);
    if (last === -1) {
      if (buf.length > MAX_LINE_BYTES) {
        long = { hash: createHash('sha256').update(Buffer.of(0)).update(buf), length: buf.length };
        pending = Buffer.alloc(0);
      } else pending = buf;
      continue;
    }
    const whole = buf.subarray(0, last + 1);
    const split = splitLines(name, whole);
    const lines = split.lines.map((l) => ({ line: l.line + n, offset: l.offset + pendingAt, bytes: l.bytes }));
    n += lines.length;
    let texts: string[] | undefined;
    try {
      texts = STREAM_UTF8.decode(whole).split('\n');
    } catch {
      texts = undefined;
    }
    handOver(lines, texts, onLines, onOverlong);
    pending = buf.subarray(last + 1);
    pendingAt += last + 1;
    if (pending.length > MAX_LINE_BYTES) {
      long = { hash: createHash('sha256').update(Buffer.of(0)).update(pending), length: pending.length };
      pending = Buffer.alloc(0);
    } else pending = Buffer.from(pending);
  }
  if (long)
    return {
      name,
      exists: true,
      lines: n,
      torn: { file: name, offset: pendingAt, length: long.length, bytes: Buffer.alloc(0) },
      size: pendingAt,
    };
  const torn = pending.length > 0 ? { file: name, offset: pendingAt, length: pending.length, bytes: pending } : null;
  return { name, exists: true, lines: n, torn, size: pendingAt };
}

/**
 * Hands over one chunk's complete lines, each line longer than MAX_LINE_BYTES as `overlong`
 * (in file order with the others). The limit is a property of the line, not of where the
 * chunks fall: a line that began in the bytes kept from the chunk before (up to
 * MAX_LINE_BYTES of them) and ends in this one is up to MAX_LINE_BYTES + CHUNK_BYTES long,
 * held here once, and is reported like one that never fitted (its leaf hash is the same).
 */
function handOver(
  lines: RawLine[],
  texts: string[] | undefined,
  onLines: (lines: RawLine[], texts: string[] | undefined) => void,
  onOverlong: (l: OverlongLine) => void,
): void {
  let from = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.bytes.length <= MAX_LINE_BYTES) continue;
    if (i > from) onLines(lines.slice(from, i), texts?.slice(from, i));
    onOverlong({ line: l.line, offset: l.offset, length: l.bytes.length, leaf: leafHash(l.bytes) });
    from = i + 1;
  }
  if (from === 0) onLines(lines, texts);
  else if (from < lines.length) onLines(lines.slice(from), texts?.slice(from));
}

/** One of a journal's files as the workbench's editor shows it: its bytes, or why not. */
export interface ShownJournalFile {
  name: string;
  bytes: Buffer | null;
  note: string | null;
}

/**
 * A journal's entries and checkpoints files for showing (the editor of a journal opened as
 * an artifact: a case's journal event selects its line there), each opened as the journal's
 * readers open them (no link, a regular file) and read only when at most `max` bytes. A
 * file the journal does not have is left out.
 */
export async function journalFilesToShow(dir: string, max: number): Promise<ShownJournalFile[]> {
  const out: ShownJournalFile[] = [];
  for (const name of [ENTRIES_FILE, CHECKPOINTS_FILE]) {
    let fh: FileHandle;
    try {
      fh = await openJournalFile(dir, name, 'read');
    } catch (e) {
      if (!isMissing(e)) out.push({ name, bytes: null, note: `cannot be read: ${readFailure(e)}` });
      continue;
    }
    try {
      const stat = await fh.stat();
      out.push(
        stat.size > max
          ? { name, bytes: null, note: `larger than ${max / 1048576} MiB: not shown in the editor` }
          : { name, bytes: await readOpened(join(dir, name), { fh, stat }, max), note: null },
      );
    } catch (e) {
      out.push({ name, bytes: null, note: `cannot be read: ${readFailure(e)}` });
    } finally {
      await fh.close().catch(() => undefined);
    }
  }
  return out;
}

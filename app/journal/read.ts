/**
 * Reading a journal's files into lines, byte-exact: a line is the bytes between two `\n`
 * (its Merkle leaf); bytes after the last `\n` are a torn tail (a write cut short), kept
 * aside and never parsed as a line.
 */
import { join } from 'node:path';
import { isMissing, MAX_WHOLE_FILE_BYTES, readFailure, readRegularFile } from '../core/files.js';
import { CHECKPOINTS_FILE, ENTRIES_FILE } from './format.js';
import { JournalError } from './errors.js';

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
  const torn = pos < buf.length ? { file: name, offset: pos, bytes: buf.subarray(pos) } : null;
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
  const [entries, checkpoints] = await Promise.all([readJournalFile(dir, ENTRIES_FILE), readJournalFile(dir, CHECKPOINTS_FILE)]);
  return { entries, checkpoints };
}

/**
 * Where the strict reader takes an archive's bytes from: a buffer already in memory (the
 * web host's uploads, runBytes) or a file descriptor read by position (runPath), so that
 * verifying a package on disk never holds the whole archive. Both give the reader the
 * same bytes through the same calls, so every check and every finding is the same
 * whichever the archive came from.
 */
import { readSync } from 'node:fs';

export interface ZipSource {
  /** The archive's length in bytes. */
  readonly size: number;
  /** An open descriptor that worker threads of this process may read by position, or null. */
  readonly fd: number | null;
  /**
   * Exactly the bytes [start, end) (callers keep 0 <= start <= end <= size). A buffer
   * source returns a view; a file source a fresh buffer. Throws SourceError when the file
   * gives fewer bytes than its size promised (it shrank while being read) or cannot be read.
   */
  read(start: number, end: number): Buffer;
  /**
   * The same bytes, possibly in a buffer reused by the next call: only for data consumed
   * before then (a synchronous inflate or digest), never kept.
   */
  readTemp(start: number, end: number): Buffer;
}

/** The archive file changed or failed while it was read: not a finding about the archive. */
export class SourceError extends Error {}

export function bufferSource(buf: Uint8Array): ZipSource {
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const read = (start: number, end: number) => b.subarray(start, end);
  return { size: b.length, fd: null, read, readTemp: read };
}

export function isSource(x: Uint8Array | ZipSource): x is ZipSource {
  return !(x instanceof Uint8Array);
}

export function toSource(x: Uint8Array | ZipSource): ZipSource {
  return isSource(x) ? x : bufferSource(x);
}

/** Small reads (headers, descriptors) are served from one window read ahead of them. */
const WINDOW = 8 * 1024;
/** Largest reusable buffer for readTemp (the sync inflate path reads at most 8 MiB). */
const TEMP_MAX = 8 * 1024 * 1024;

/** Positional reads through `fd` (never closed here: its owner closes it). */
export function fileSource(fd: number, size: number): ZipSource {
  let winStart = 0;
  let win: Buffer = Buffer.alloc(0);
  let temp: Buffer = Buffer.alloc(0);
  const readExact = (into: Buffer, position: number): void => {
    let done = 0;
    while (done < into.length) {
      let n: number;
      try {
        n = readSync(fd, into, done, into.length - done, position + done);
      } catch (e) {
        throw new SourceError(
          `the archive could not be read at offset ${position + done}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
        );
      }
      if (n === 0)
        throw new SourceError(
          `the archive ended at ${position + done} bytes, though it was ${size} bytes long when opened (it changed while being read)`,
        );
      done += n;
    }
  };
  return {
    size,
    fd,
    read(start, end) {
      const len = end - start;
      if (len > WINDOW / 2) {
        const out = Buffer.allocUnsafe(len);
        readExact(out, start);
        return out;
      }
      if (start < winStart || end > winStart + win.length) {
        const n = Math.min(WINDOW, size - start);
        if (win.length !== n) win = Buffer.allocUnsafe(n);
        readExact(win, start);
        winStart = start;
      }
      return Buffer.from(win.subarray(start - winStart, end - winStart));
    },
    readTemp(start, end) {
      const len = end - start;
      if (len > TEMP_MAX) return this.read(start, end);
      if (temp.length < len) temp = Buffer.allocUnsafe(Math.min(TEMP_MAX, Math.max(len, 2 * temp.length)));
      const out = temp.subarray(0, len);
      readExact(out, start);
      return out;
    },
  };
}

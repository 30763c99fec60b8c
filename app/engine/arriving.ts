/**
 * A file still being written: a picked file the web host is writing to its private upload
 * file while the browser sends it (main/webhost/upload-files.ts). The job reads it as it
 * grows and decodes its text as it comes, so the largest single cost of a big JSON artifact
 * after its bytes (turning 100 MiB of UTF-8 into a string: about as long as the parse) is
 * paid while the browser is still sending; the verification proper starts at the last
 * byte with the bytes in memory and their text ready (Sniffed's `arrived`).
 *
 * The writer's signals are the file itself, so nothing else has to cross between the
 * shell's process and this worker: the file is complete when the writer has made it
 * read-only, which it does once the body has ended within the announced size (holding that
 * size is not enough: a longer body is refused only when its next piece comes); it was
 * abandoned (the sending failed, or a newer upload replaced it) when the writer unlinked
 * it (no link is left); it stalled when it has not changed for STALL_MS.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import { UsageError } from '../core/errors.js';
import { READ_FLAGS } from '../core/files.js';
import { Progress } from '../core/progress.js';
import { startsWithLocalHeader } from '../zip/sniff.js';
import { strippedWhenParsed } from '../kinds/sniff.js';
import { canonicalStripWanted } from '../kinds/registry.js';
import { stripWhileArriving, type ArrivingStripJob } from '../threads/canonical.js';

/** The whole file once it has arrived, and its text when it is decodable as a JSON text is. */
export interface Arrived {
  /** Shared memory, as Sniffed reads a large file (a worker thread reads it without a copy). */
  bytes: Buffer;
  /** The UTF-8 text (no byte-order mark, valid UTF-8), or null: the reader then decodes (and refuses) as usual. */
  text: string | null;
  /**
   * A large JSON document's stripping thread, which has stripped and hashed the bytes as
   * they came (app/threads/canonical.ts, stripWhileArriving); null when none was started.
   * The run takes it (Sniffed.json finishes it); the job drops it when the run did not.
   */
  strip: ArrivingStripJob | null;
}

export interface FollowOptions {
  /** Shown in messages: the picked file's name, not the private file's path. */
  shown: string;
  onProgress?: (fraction: number, label?: string) => void;
  /** No growth for this long ends the wait (the window went away mid-send). */
  stallMs?: number;
  /** Decode text only above this size: smaller files take the ordinary path, which is quick. */
  decodeMin?: number;
}

const STALL_MS = 60_000;
/** Longest pause between looks at the file while it does not grow. */
const MAX_NAP_MS = 16;
/** Smallest read worth a decode step (fewer, larger string pieces). */
const STEP = 1 << 20;

const nap = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Waits for the file at `path` to reach `size` bytes. A large text artifact is read and
 * decoded as it grows (its bytes and text are returned); anything else (small, a ZIP, a
 * byte-order mark) is only waited for, and null returned: the job then reads the
 * complete file as it reads any file opened by path.
 */
export async function followArriving(path: string, size: number, o: FollowOptions): Promise<Arrived | null> {
  const fd = openSync(path, READ_FLAGS);
  const arrival = new Arrival(size, o.decodeMin ?? 0);
  try {
    let have = 0;
    let quietSince = Date.now();
    let napMs = 1;
    // Told at most every PROGRESS_INTERVAL_MS: each message crosses to the window, which shares the cores with the sending.
    const progress = o.onProgress ? new Progress(o.onProgress).stage(0, 100, 'receiving') : null;
    for (;;) {
      const st = fstatSync(fd);
      if (arrival.got === size && st.size === size && (st.mode & 0o222) === 0) break; // written whole, and marked so
      if (st.size > have) quietSince = Date.now();
      have = st.size;
      if (st.nlink === 0)
        throw new UsageError(
          `the upload of ${o.shown} stopped before its last byte (${have} of ${size} bytes): the sending failed or a newer file replaced it`,
          'refused',
        );
      if (st.size > size)
        throw new UsageError(`the upload of ${o.shown} is longer than announced (${size} bytes)`, 'refused');
      if (arrival.got < size && st.size - arrival.got >= Math.min(STEP, size - arrival.got)) {
        arrival.take(fd, st.size);
        napMs = 1;
        progress?.at(arrival.got, size);
        continue;
      }
      if (Date.now() - quietSince > (o.stallMs ?? STALL_MS))
        throw new UsageError(`the upload of ${o.shown} stopped arriving (${have} of ${size} bytes)`, 'refused');
      await nap(napMs);
      napMs = Math.min(MAX_NAP_MS, napMs * 2);
    }
    progress?.done();
    return arrival.end();
  } catch (e) {
    arrival.drop();
    throw e;
  } finally {
    closeSync(fd);
  }
}

/**
 * What is done with the bytes as they come: a large text artifact is read into shared
 * memory and decoded piece by piece, and a large JSON document is stripped on another
 * thread as well; anything else is only counted.
 */
class Arrival {
  got = 0;
  private bytes: Buffer | null = null;
  private text: TextFollower | null = null;
  private strip: ArrivingStripJob | null = null;

  constructor(
    private readonly size: number,
    private readonly decodeMin: number,
  ) {}

  /** Reads (or counts) the bytes from `got` up to `length`, which are in the file. */
  take(fd: number, length: number): void {
    const got = this.got;
    if (got === 0 && this.size > this.decodeMin) this.bytes = Buffer.from(new SharedArrayBuffer(this.size));
    const n = this.bytes ? readSync(fd, this.bytes, got, length - got, got) : length - got;
    if (this.bytes && got === 0) this.first(this.bytes.subarray(0, n));
    this.text?.feed(this.bytes!.subarray(got, got + n));
    this.got += n;
    this.strip?.more(this.got);
  }

  /** The first piece decides what is done with the rest. */
  private first(head: Buffer): void {
    if (!textWanted(head)) {
      this.bytes = null; // only waited for from here
      return;
    }
    this.text = new TextFollower();
    if (strippedWhenParsed(head, this.size) && canonicalStripWanted(head)) this.strip = stripWhileArriving(this.bytes!);
  }

  end(): Arrived | null {
    if (this.bytes && this.text) return { bytes: this.bytes, text: this.text.end(this.bytes), strip: this.strip };
    this.drop();
    return null;
  }

  drop(): void {
    this.strip?.drop();
    this.strip = null;
  }
}

/** A text the reader would decode whole: not a ZIP, no byte-order mark (decodeJsonBytes refuses one). */
function textWanted(head: Buffer): boolean {
  return !startsWithLocalHeader(head) && !(head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf);
}

/**
 * The text of the bytes so far, decoded piece by piece (a piece may end inside a
 * character: StringDecoder carries it over). Null at the end unless all the bytes are
 * valid UTF-8 (checked over the whole, as decodeJsonBytes does): the reader then decodes,
 * and refuses, as usual.
 */
class TextFollower {
  private readonly parts: string[] = [];
  private readonly decoder = new StringDecoder('utf8');

  feed(piece: Buffer): void {
    this.parts.push(this.decoder.write(piece));
  }

  end(bytes: Buffer): string | null {
    if (!isUtf8(bytes)) return null;
    this.parts.push(this.decoder.end());
    return this.parts.join('');
  }
}

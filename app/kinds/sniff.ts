/**
 * What a kind's `detect` sees: the bytes, and lazily (computed once, shared by detection
 * and verification) the strict UTF-8 text and the strict JSON parse. A document is
 * parsed once per run however many kinds look at it.
 */
import { readSync } from 'node:fs';
import {
  decodeJsonBytes,
  firstLineEndBeforeValue,
  JcsError,
  nestsDeeperThan,
  parseCanonical,
  type JsonLimits,
  type StrictParse,
  type Stripped,
} from '../core/jcs.js';
import { hashBytes } from '../core/hash.js';
import { isPlainObject } from '../core/closed.js';
import {
  stripInWorker,
  type ArrivingStripJob,
  type StripResult,
  type StripWork,
  type StripWorkDone,
} from '../threads/canonical.js';

/** Documents at least this large have their canonical bytes stripped on another thread. */
export const STRIP_IN_WORKER_MIN = 8 * 1024 * 1024;

/** The first non-whitespace character within the first 64 KiB of `b`, or '' (no full decode). */
function firstChar(b: Uint8Array): string {
  for (let i = 0; i < b.length && i < 65536; i++) {
    const c = b[i]!;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return String.fromCharCode(c);
  }
  return '';
}

/** Whether the strict parse of a document of `size` bytes that starts with `head` strips it on another thread too (see Sniffed.json). */
export function strippedWhenParsed(head: Uint8Array, size: number): boolean {
  const c = firstChar(head);
  return size >= STRIP_IN_WORKER_MIN && (c === '{' || c === '[');
}

/** A document refused for its depth is parsed loosely (to tell its kind) up to this depth. */
const LOOSE_MAX_DEPTH = 65536;

export type ParsedJson =
  | ({ ok: true } & StrictParse)
  | {
      ok: false;
      error: JcsError;
      /** The value plain JSON.parse gives, when it gives one: lets a kind recognise a
       * malformed document of its own (say, a dump with a duplicate member) and report it. */
      loose: unknown;
    };

/**
 * An accepted parse; `canonical` is still serialized only when read. A class: an object
 * literal with a getter costs a hidden class per document that keeps it alive (see
 * app/core/jcs.ts, Parsed).
 */
class ParsedOk {
  readonly ok = true;
  readonly value: unknown;
  readonly warnings: StrictParse['warnings'];
  readonly inOrder: boolean;
  constructor(private readonly parse: StrictParse) {
    this.value = parse.value;
    this.warnings = parse.warnings;
    this.inOrder = parse.inOrder;
  }
  get canonical(): string {
    return this.parse.canonical;
  }
  canonicalWithout(member: string): string {
    return this.parse.canonicalWithout(member);
  }
}

/** A large artifact on disk, open for the run (runPath): kinds may read it by position. */
export interface SniffedFile {
  /** Open descriptor, closed by the engine when the run ends. */
  readonly fd: number;
  readonly size: number;
}

/**
 * What a large document's stripping thread gives a kind (see takeStrippedCanonical): the
 * stripped bytes, and what it did of the work the kind handed it (handStrippingThread).
 */
export type StrippedDocument = Stripped & StripWorkDone;

export class Sniffed {
  private textCache: string | null | undefined;
  private work: StripWork | undefined;
  private jsonCache: ParsedJson | null | undefined;
  private stripped: Promise<StripResult> | undefined;
  private workerHash: Promise<string | null> | undefined;
  private whole: Buffer | undefined;
  private arrivingStrip: ArrivingStripJob | undefined;
  /** `--limit` overrides of the bounds the strict parse checks first (ERR_LIMIT: app/core/jcs/bounds.ts). */
  limits: JsonLimits;
  /**
   * Whether a large document is stripped to canonical bytes on another thread while it is
   * parsed, or only hashed there: the engine asks the kinds (canonicalStripWanted), since
   * only a kind that uses the stripped bytes is worth their copy.
   */
  stripCanonical = true;
  /**
   * `head` is the whole artifact, or with `file` its first bytes (all of them up to 64 KiB).
   * `arrived`: the whole file's bytes, and its text, already read and decoded while it was
   * being written (app/engine/arriving.ts), and their stripping already under way; the same
   * as reading, decoding and stripping them here.
   */
  constructor(
    readonly path: string,
    private readonly head: Buffer,
    readonly file?: SniffedFile,
    arrived?: { bytes: Buffer; text: string | null; strip: ArrivingStripJob | null },
  ) {
    if (!file) this.whole = head;
    if (arrived) {
      this.whole = arrived.bytes;
      if (arrived.text !== null) this.textCache = arrived.text;
      this.arrivingStrip = arrived.strip ?? undefined;
    }
  }

  /** The artifact's first bytes (all of it up to 64 KiB). */
  get start(): Uint8Array {
    return this.head;
  }

  /** The artifact's size in bytes. */
  get size(): number {
    return this.file ? this.file.size : this.head.length;
  }

  /** True when a JSON parse of this artifact would strip it on another thread too. */
  get stripsInWorker(): boolean {
    return this.size >= STRIP_IN_WORKER_MIN && this.jsonCache === undefined;
  }

  /** True while this document's stripped canonical bytes wait to be taken (a large JSON
   * document, parsed: see takeStrippedCanonical). */
  get stripping(): boolean {
    return this.stripped !== undefined;
  }

  /**
   * Hands the stripping thread more work on the same bytes (only before the parse: see
   * stripsInWorker), the work a kind declared in `beforeParse`. The kind uses the result
   * (takeStrippedCanonical) only after checking it against the parsed document.
   */
  handStrippingThread(work: StripWork): void {
    if (this.jsonCache === undefined) this.work = work;
  }

  /** The whole artifact; with `file`, read once on first use (a ZIP package never asks). */
  get bytes(): Buffer {
    return (this.whole ??= readWhole(this.file!));
  }

  /** True when the whole artifact is in memory. */
  get loaded(): boolean {
    return this.whole !== undefined;
  }

  /** Strict UTF-8 text, or null when the bytes are not UTF-8 (or start with a BOM). */
  text(): string | null {
    if (this.textCache === undefined) {
      try {
        this.textCache = decodeJsonBytes(this.bytes);
      } catch {
        this.textCache = null;
      }
    }
    return this.textCache;
  }

  /** The first non-whitespace character within the first 64 KiB, cheaply (no full decode). */
  firstChar(): string {
    return firstChar(this.head);
  }

  /** Strict JSON parse of the whole file; null when the file does not look like JSON. */
  json(): ParsedJson | null {
    if (this.jsonCache !== undefined) return this.jsonCache;
    const c = this.firstChar();
    if (c !== '{' && c !== '[') return (this.jsonCache = null);
    // A large document's canonical bytes are computed on another thread while this one
    // parses it (only usable if the parse finds its members in order: see takeStrippedCanonical).
    let proven: (() => boolean) | undefined;
    // A refused document's stripped bytes are never taken: the thread stops copying them.
    let cancel = (): void => {};
    // Without stripping, the thread only hashes, and only bytes it can read in place.
    const hashOnly = !this.stripCanonical;
    if (
      strippedWhenParsed(this.head, this.bytes.length) &&
      (!hashOnly || this.bytes.buffer instanceof SharedArrayBuffer)
    ) {
      // Stripped while it arrived: only the declared work is left for the thread.
      const job = this.arrivingStrip?.finish(this.work) ?? stripInWorker(this.bytes, this.work, hashOnly);
      this.arrivingStrip = undefined;
      this.stripped = job.result;
      this.workerHash = this.stripped.then((r) => r.sha256);
      proven = job.proven;
      cancel = job.cancel;
    }
    let text: string;
    try {
      text = typeof this.textCache === 'string' ? this.textCache : decodeJsonBytes(this.bytes);
    } catch (e) {
      cancel();
      return (this.jsonCache = { ok: false, error: e as JcsError, loose: undefined });
    }
    this.textCache = text;
    try {
      // Lazy: the canonical text of a large document is serialized only if a kind asks.
      // When the stripping thread has already proven the member order (it usually has by the
      // end of JSON.parse), the walk that would find the same is skipped.
      this.jsonCache = new ParsedOk(parseCanonical(text, { lazy: true, proven, limits: this.limits }));
    } catch (e) {
      if (!(e instanceof JcsError)) throw e;
      cancel();
      this.jsonCache = { ok: false, error: e, loose: looseParse(text, e) };
    }
    return this.jsonCache;
  }

  /**
   * The canonical UTF-8 bytes of a large document the strict parse accepted with every
   * member in order, with the spans of its top-level members: stripped on another thread
   * while this one parsed it. Null when not available (small, refused, out of order, not
   * written canonically, no thread): the caller then serializes the parsed value.
   * Long string values carry their hash (MemberSpan.stringHash); with the work a kind
   * handed the thread, what it did of it (StripWorkDone).
   * The caller takes the bytes (it may cut them in place): a second call returns null.
   */
  async takeStrippedCanonical(): Promise<StrippedDocument | null> {
    const j = this.json();
    const stripped = this.stripped;
    this.stripped = undefined;
    if (!j?.ok || !j.inOrder || !stripped) return null;
    const { stripped: st, sha256: _sha256, ...done } = await stripped;
    return st ? { ...st, ...done } : null;
  }

  /**
   * `H_bytes` of the whole artifact: computed by the stripping thread when there was one
   * (same bytes, off this thread), else here.
   */
  async sha256(): Promise<string> {
    return (await this.workerHash) ?? hashBytes(this.bytes);
  }

  /** The parsed value (strict or loose) when it is a JSON object, else null. */
  jsonObject(): Record<string, unknown> | null {
    const j = this.json();
    if (!j) return null;
    const v = j.ok ? j.value : j.loose;
    return isPlainObject(v) ? v : null;
  }

  startsWith(magic: readonly number[]): boolean {
    if (this.head.length < magic.length) return false;
    return magic.every((m, i) => this.head[i] === m);
  }
}

/**
 * Plain JSON.parse of text the strict parse refused, or undefined. Not for a syntax error,
 * which JSON.parse refuses too, nor for JSON Lines (however long its first line: lines.ts);
 * nor for thousands of levels (V8 takes seconds over them: 64 MiB of `[`, 20 s); nor for
 * text beyond a bound (ERR_LIMIT), refused so that it is never parsed.
 */
function looseParse(text: string, e: JcsError): unknown {
  if (
    e.code === 'ERR_SYNTAX' ||
    e.code === 'ERR_LIMIT' ||
    firstLineEndBeforeValue(text) !== -1 ||
    (e.code === 'ERR_DEPTH' && nestsDeeperThan(text, LOOSE_MAX_DEPTH))
  )
    return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function readWhole(f: SniffedFile): Buffer {
  // Shared memory: a worker thread (app/threads/canonical.ts) can read it without a copy.
  const b = Buffer.from(new SharedArrayBuffer(f.size));
  let n = 0;
  for (let r = 1; n < f.size && r > 0; n += r) r = readSync(f.fd, b, n, f.size - n, n);
  return n === f.size ? b : b.subarray(0, n);
}

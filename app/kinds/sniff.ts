/**
 * What a kind's `detect` sees: the bytes, and lazily (computed once, shared by detection
 * and verification) the strict UTF-8 text and the strict JSON parse. A document is
 * parsed once per run however many kinds look at it. A JSON object neither parse reads
 * can still be told by a bounded scan for its top-level members (topLevelString).
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

/** The member scan (topLevelString) reads this much of each end of a document: all of it up to twice this. */
export const MEMBER_SCAN_BYTES = 4 * 1024 * 1024;

const BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * Refusals that leave a document unread by either parse though the rest of it may be well
 * formed, so that a scan can still tell its kind. Not a syntax error (a copy cut short says
 * so instead) nor a bound (such a document is refused before any reading: engine/run.ts).
 */
const UNREAD_REFUSALS: ReadonlySet<string> = new Set(['ERR_DEPTH', 'ERR_UTF8']);

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
  private scanned: Map<string, string | null> | undefined;
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

  /**
   * The value of the top-level object's string member `name`, for a JSON object neither
   * parse read (behind a byte-order mark, not UTF-8, nested deeper than the loose parse
   * goes): lets a kind recognise a malformed document of its own and refuse it as such.
   * Read by a linear scan of each end of the text (topLevelStringOf), never parsed. Null
   * for any other document: its parse (jsonObject) answers, and this scans nothing.
   */
  topLevelString(name: string): string | null {
    if (!this.unreadObject()) return null;
    const scanned = (this.scanned ??= new Map());
    let v = scanned.get(name);
    if (v === undefined) scanned.set(name, (v = topLevelStringOf(this.bytes, name)));
    return v;
  }

  /** Whether this looks like a JSON object that neither parse read (see topLevelString). */
  private unreadObject(): boolean {
    if (this.startsWith(BOM)) return firstChar(this.head.subarray(BOM.length)) === '{';
    if (this.firstChar() !== '{') return false;
    const j = this.json();
    return j !== null && !j.ok && j.loose === undefined && UNREAD_REFUSALS.has(j.error.code);
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

/**
 * The value of the string member `name` of the JSON object `bytes` holds, found without
 * parsing: the text (a byte-order mark skipped, bytes that are not UTF-8 replaced) is scanned
 * once, tracking only strings and depth, so nesting costs nothing. A document larger than
 * twice `bound` is scanned for `bound` bytes from its start and backwards from its end (a
 * member may come last: "type" does in canonical order). Null when not found there, or when
 * the text seen is not one whole object (an array, JSON Lines, data after the object, an
 * object left open: a copy cut short is said to be one, not claimed: engine/run.ts).
 */
export function topLevelStringOf(bytes: Uint8Array, name: string, bound = MEMBER_SCAN_BYTES): string | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const from = BOM.every((m, i) => b[i] === m) ? BOM.length : 0;
  if (b.length - from <= 2 * bound) {
    const whole = scanEnd(b.toString('utf8', from), name, 1);
    return whole.bad || !whole.closed ? null : whole.found;
  }
  const head = scanEnd(b.toString('utf8', from, from + bound), name, 1);
  const tail = scanEnd(b.toString('utf8', b.length - bound), name, -1);
  // Closed within the first bytes, the object is one document only if nothing but blanks ends the text.
  if (head.bad || tail.bad || (head.closed && !tail.blank)) return null;
  return head.found ?? tail.found;
}

interface EndScan {
  found: string | null;
  /** The text is not (the start or the end of) one object. */
  bad: boolean;
  /** Reading forwards, the object closed. */
  closed: boolean;
  /** Only blanks were seen. */
  blank: boolean;
}

const isBlank = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const opens = (c: number): boolean => c === 0x7b || c === 0x5b;
const closes = (c: number): boolean => c === 0x7d || c === 0x5d;

/**
 * Scans `t` from its start (`dir` 1) or backwards from its end (-1), for topLevelStringOf.
 * Backwards, the scan ends at the first opening quote it cannot be sure of (the first
 * character of `t`, cut from what precedes it), and reaching the object's opening brace
 * means more than one value (the text is larger than what is scanned).
 */
function scanEnd(t: string, name: string, dir: 1 | -1): EndScan {
  const members = new MemberPairs(name, dir === 1);
  const outer = dir === 1 ? 0x7b : 0x7d;
  let depth = 0;
  let closed = false;
  let blank = true;
  for (let i = dir === 1 ? 0 : t.length - 1; i >= 0 && i < t.length; i += dir) {
    const c = t.charCodeAt(i);
    if (isBlank(c)) continue;
    blank = false;
    if (depth === 0 && (closed || c !== outer)) return { found: null, bad: true, closed, blank };
    if (c === 0x22) {
      const j = dir === 1 ? stringEnd(t, i) : stringStart(t, i);
      if (j === -1) break;
      if (depth === 1) members.string(t, Math.min(i, j), Math.max(i, j));
      i = j;
    } else if (dir === 1 ? opens(c) : closes(c)) {
      if (depth++ === 1) members.other();
    } else if (dir === 1 ? closes(c) : opens(c)) {
      if (--depth === 0 && dir === -1) return { found: null, bad: true, closed, blank };
      closed = depth === 0;
    } else if (depth === 1) members.punctuation(c);
  }
  return { found: members.found, bad: false, closed, blank };
}

/**
 * Pairs the top-level object's member names with their string values as a scan meets them
 * (reading backwards, a value comes before its name); keeps the first value of `name` met.
 */
class MemberPairs {
  found: string | null = null;
  /** Where the first string of a pair is (its quotes), once met. */
  private first: [number, number] | null = null;
  private colon = false;
  constructor(
    private readonly name: string,
    private readonly forwards: boolean,
  ) {}
  string(t: string, open: number, close: number): void {
    if (!this.colon || !this.first) {
      this.first = [open, close];
      this.colon = false;
      return;
    }
    const [n, v] = this.forwards ? [this.first, [open, close] as const] : [[open, close] as const, this.first];
    if (this.found === null && jsonString(t, n[0], n[1]) === this.name) this.found = jsonString(t, v[0], v[1]);
    this.other();
  }
  punctuation(c: number): void {
    if (c === 0x3a && this.first) this.colon = true;
    else this.other();
  }
  other(): void {
    this.first = null;
    this.colon = false;
  }
}

/** The string between the quotes at `open` and `close`, its escapes decoded; null when they do not decode. */
function jsonString(t: string, open: number, close: number): string | null {
  const raw = t.slice(open + 1, close);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(t.slice(open, close + 1)) as string;
  } catch {
    return null;
  }
}

/** Backslashes right before `i`: an odd run escapes the quote at `i`. */
function backslashesBefore(t: string, i: number): number {
  let k = i - 1;
  while (k >= 0 && t.charCodeAt(k) === 0x5c) k--;
  return i - 1 - k;
}

/** The quote that closes the string opened at `open`, or -1. */
function stringEnd(t: string, open: number): number {
  for (let j = t.indexOf('"', open + 1); j !== -1; j = t.indexOf('"', j + 1))
    if ((backslashesBefore(t, j) & 1) === 0) return j;
  return -1;
}

/** The quote that opens the string closed at `close`, or -1 (also when it is the first character: see scanEnd). */
function stringStart(t: string, close: number): number {
  for (let j = t.lastIndexOf('"', close - 1); j > 0; j = t.lastIndexOf('"', j - 1))
    if ((backslashesBefore(t, j) & 1) === 0) return j;
  return -1;
}

function readWhole(f: SniffedFile): Buffer {
  // Shared memory: a worker thread (app/threads/canonical.ts) can read it without a copy.
  const b = Buffer.from(new SharedArrayBuffer(f.size));
  let n = 0;
  for (let r = 1; n < f.size && r > 0; n += r) r = readSync(f.fd, b, n, f.size - n, n);
  return n === f.size ? b : b.subarray(0, n);
}

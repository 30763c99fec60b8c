import { MAX_DEPTH } from './errors.js';
import { firstLineEndBeforeValue } from './lines.js';
import { MAX_NAME_CHARS } from '../json-limits.js';

/** A top-level member's place in the bytes `stripToCanonical` returns. */
export interface MemberSpan {
  name: string;
  /** Offset of the member name's opening quote. */
  start: number;
  /** Offset of the member's value. */
  value: number;
  /** Offset just past the member's value. */
  end: number;
  /** When the value is an object within SPAN_DEPTH levels: its members. */
  members?: MemberSpan[];
  /** `H_bytes` of the UTF-8 of a long string value, when the stripping thread computed it. */
  stringHash?: string;
}

/** Members are spanned in objects nested this deep (1: the top level's members only). */
export const SPAN_DEPTH = 3;
/**
 * At most this many spans are recorded (bounded memory): objects below the top level opened
 * after that many are not spanned, and a spanned object holding more members ends the scan
 * with no result (the caller serializes). Two million spans of a wide object held 300 MB
 * and 4 s of the stripping thread while the parse held as much again.
 */
const MAX_SPANS = 65536;

export interface Stripped {
  /** The input without insignificant whitespace. */
  bytes: Uint8Array;
  /** The top-level object's members, in order (empty when the top level is not an object). */
  members: MemberSpan[];
  /**
   * Every object's member names are ASCII, written without escapes, do not start with a
   * digit (JS would reorder array-index names), and are strictly increasing; nesting is
   * at most MAX_DEPTH. For text `JSON.parse` accepted, this (with the canonical strings and
   * numbers a non-null result already proves) is everything the lazy parse's walk would
   * find out: members in order, no duplicates, no lossy or non-finite numbers, no escaped
   * surrogates or colons (see parseCanonical's `proven`).
   */
  ordered: boolean;
}

/** True when the bytes from s1 to e1 sort strictly after those from s0 to e0. */
function bytesAfter(b: Uint8Array, s1: number, e1: number, s0: number, e0: number): boolean {
  const l1 = e1 - s1;
  const l0 = e0 - s0;
  const l = l1 < l0 ? l1 : l0;
  for (let k = 0; k < l; k++) {
    const x = b[s1 + k]!;
    const y = b[s0 + k]!;
    if (x !== y) return x > y;
  }
  return l1 > l0;
}

const NAME_DECODER = new TextDecoder();

/** `\u00xx` at `i`: lower-case hex, a control character without a short form. */
function isCanonicalUnicodeEscape(b: Uint8Array, i: number): boolean {
  if (b[i + 2] !== 0x30 || b[i + 3] !== 0x30) return false;
  const h1 = b[i + 4]!;
  const h2 = b[i + 5]!;
  if (h1 !== 0x30 && h1 !== 0x31) return false;
  const lo = h2 >= 0x30 && h2 <= 0x39 ? h2 - 0x30 : h2 >= 0x61 && h2 <= 0x66 ? h2 - 0x57 : -1;
  if (lo < 0) return false;
  const v = (h1 - 0x30) * 16 + lo;
  return v !== 8 && v !== 9 && v !== 10 && v !== 12 && v !== 13;
}

/**
 * For a document that `parseCanonical` accepted with `inOrder` true (members in JCS order,
 * no duplicates), its canonical UTF-8 bytes are its own bytes without insignificant
 * whitespace, provided every string and number is *written* canonically: escapes only
 * for `"`, `\`, and control characters (the short forms, else `\u00xx` in lower case),
 * everything else raw; numbers exactly as ECMAScript prints them. This scan checks that,
 * drops the whitespace, and returns null at the first non-canonical token, after which
 * the caller serializes the parsed value instead. It never decides validity: its result
 * may be used only for bytes the strict parse accepted. On any other input it still ends,
 * in one pass, with some result or null (it runs on another thread before the parse).
 *
 * Why: a signature over a 100 MiB document needs its canonical bytes; serializing the
 * parsed value and encoding it as UTF-8 costs more than parsing it, while this scan is one
 * pass over bytes with no allocation but the output, and can run in another thread while
 * the document is parsed (app/threads/canonical.ts).
 */
export function stripToCanonical(input: Uint8Array, cancelled?: () => boolean): Stripped | null {
  // JSON Lines is no one document: nothing to copy (its first line may be 100 MB).
  if (firstLineEndBeforeValue(input) !== -1) return null;
  const s = new Stripper(input);
  if (!cancelled) return s.advance(input.length) ? s.end() : null;
  // Asked between steps whether it is still wanted (the parse refused the document): the
  // scan over steps is the one over arriving bytes, tested equal to the whole scan.
  for (let at = CANCEL_STEP; at < input.length + CANCEL_STEP; at += CANCEL_STEP) {
    if (cancelled() || !s.advance(Math.min(at, input.length))) return null;
  }
  return s.end();
}

/** Bytes stripped between two looks at whether the stripping is still wanted. */
const CANCEL_STEP = 8 * 1024 * 1024;

/**
 * The same scan over bytes that are still arriving (a picked file the window is sending:
 * app/engine/arriving.ts), so that little is left to strip at the last byte. `advance`
 * strips every token that lies wholly within the bytes in place (a string cut by the end
 * of them is resumed where its scan stopped, not scanned again), and copies what it
 * stripped to the output, so a member whose `end` is set lies in `written` bytes.
 */
export interface ArrivingStrip {
  /** The first `available` bytes are in place (never fewer than before); false at the first non-canonical token (stop: the result is null). */
  advance(available: number): boolean;
  /** After `advance` of every byte returned true: the result (null when it was not canonical). */
  end(): Stripped | null;
  /** The members spanned so far (their `end` is -1 until complete). */
  readonly members: MemberSpan[];
  /** The output so far: `written` bytes of it are final. */
  readonly out: Uint8Array;
  readonly written: number;
}

export function stripArriving(input: Uint8Array): ArrivingStrip {
  return new Stripper(input);
}

/**
 * A byte that starts a JSON value: a bracket, a quote, a number's first byte, or a
 * literal's (literals are read a byte at a time, and no other byte of theirs is one).
 */
const startsValue = (c: number): boolean =>
  c === 0x7b ||
  c === 0x5b ||
  c === 0x22 ||
  c === 0x2d ||
  (c >= 0x30 && c <= 0x39) ||
  c === 0x74 ||
  c === 0x66 ||
  c === 0x6e;

/** A token method's answer: done (the scan moves past it), not canonical, or cut by the end of the bytes in place. */
const DONE = 1;
const NOT_CANONICAL = 0;
const CUT = -1;
type Step = typeof DONE | typeof NOT_CANONICAL | typeof CUT;

/**
 * The scan's state. One method per token class; the loop in `advance` dispatches on the
 * byte at `i`. A method answers NOT_CANONICAL at the first non-canonical token (the result
 * is null), CUT when the bytes in place end inside the token (while more are to come).
 */
class Stripper implements ArrivingStrip {
  /** Bytes in place: the input's length once it has all arrived. */
  n = 0;
  readonly total: number;
  readonly out: Uint8Array;
  readonly members: MemberSpan[] = [];
  o = 0; // bytes written
  start = 0; // start of the pending span of input to copy
  i = 0;
  /** Where the scan of a string cut by the end of the bytes stopped (-1: none is). */
  resumeAt = -1;
  depth = 0;
  /** Where the top-level value starts (-1: not yet). */
  topStart = -1;
  spans = 0;
  // Per open container (index depth - 1): its member list when spanned, else null; the
  // member being read; whether a member name comes next.
  readonly lists: (MemberSpan[] | null)[] = [];
  readonly current: (MemberSpan | null)[] = [];
  readonly expectName: boolean[] = [];
  readonly isObject: boolean[] = [];
  // Per open object: where its previous member name's bytes start (-1: none yet) and end.
  readonly prevName: number[] = [];
  readonly prevNameEnd: number[] = [];
  ordered = true;
  // Numbers that need printing to be sure (most numbers in model outputs have 16-17
  // digits) are collected into one JSON array text and checked together: one native parse
  // and one native print of the whole batch instead of a string and a Number per number.
  readonly batch = new NumberBatch();
  // Inside strings, four bytes at a time: the aligned 32-bit words of the input (word w
  // holds bytes 4w - off … 4w - off + 3), tested for a '"' or '\\' byte in one go.
  readonly off: number;
  readonly words: Int32Array;

  constructor(readonly b: Uint8Array) {
    this.total = b.length;
    this.out = new Uint8Array(b.length);
    this.off = b.byteOffset & 3;
    this.words = new Int32Array(b.buffer, b.byteOffset - this.off, (b.length + this.off) >> 2);
  }

  get written(): number {
    return this.o;
  }

  /** More bytes cut a token only while the input has not all arrived. */
  get partial(): boolean {
    return this.n < this.total;
  }

  advance(available: number): boolean {
    const b = this.b;
    const n = (this.n = Math.min(available, this.total));
    while (this.i < n) {
      const c = b[this.i]!;
      if (this.depth === 0 && startsValue(c)) {
        // A second top-level value (JSON Lines, data after a document): the parse refuses
        // the text, so the scan stops rather than copy the rest (a token cut by the end of
        // the bytes in place is read again from the same start).
        if (this.topStart >= 0 && this.topStart !== this.i) return false;
        this.topStart = this.i;
      }
      if (c === 0x22) {
        const q = this.i;
        const r = this.string();
        if (r !== DONE) return r === CUT;
        if (this.depth > 0 && this.expectName[this.depth - 1] && !this.memberName(q)) return false;
      } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.whitespace();
      else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        const r = this.number(c);
        if (r !== DONE) return r === CUT;
      } else {
        this.structural(c);
        this.i++;
      }
    }
    this.copyPending(this.i);
    return true;
  }

  end(): Stripped | null {
    if (this.partial || this.i < this.n || !this.batch.flush()) return null;
    return { bytes: this.out.subarray(0, this.o), members: this.members, ordered: this.ordered };
  }

  /** Copies the input from the pending span's start to `to` into the output. */
  copyPending(to: number): void {
    if (to > this.start) {
      this.out.set(this.b.subarray(this.start, to), this.o);
      this.o += to - this.start;
      this.start = to;
    }
  }

  /**
   * A string token from its opening quote at `i`; `i` ends just past its closing quote.
   * Cut by the end of the bytes in place, it is resumed at `resumeAt` by the next call.
   */
  string(): Step {
    const b = this.b;
    const n = this.n;
    const off = this.off;
    const words = this.words;
    // Whole words within the bytes in place only (the rest of the buffer may still be zeros).
    const wEnd = (n + off) >> 2;
    let i = this.resumeAt >= 0 ? this.resumeAt : this.i + 1;
    this.resumeAt = -1;
    for (;;) {
      let d = b[i]!;
      while (d !== 0x22 && d !== 0x5c && i < n) {
        i++;
        if (((i + off) & 3) === 0) {
          let w = (i + off) >> 2;
          while (w < wEnd) {
            const x = words[w]!;
            const y = x ^ 0x22222222;
            const z = x ^ 0x5c5c5c5c;
            if ((((y - 0x01010101) & ~y) | ((z - 0x01010101) & ~z)) & 0x80808080) break;
            w++;
          }
          i = (w << 2) - off;
        }
        d = b[i]!;
      }
      // An escape needs up to six bytes: wait for them rather than judge the part in place.
      if (this.partial && (i >= n || (d === 0x5c && i + 6 > n))) {
        this.resumeAt = i;
        return CUT;
      }
      // Unterminated: the parse will refuse the text (this runs before it, on another thread).
      if (i >= n) return NOT_CANONICAL;
      if (d === 0x22) break;
      const e = b[i + 1]!;
      if (e === 0x75) {
        if (!isCanonicalUnicodeEscape(b, i)) return NOT_CANONICAL;
        i += 6;
      } else if (e === 0x2f)
        return NOT_CANONICAL; // \/ is written raw
      else i += 2;
    }
    this.i = i + 1;
    return DONE;
  }

  /** The string from `q` to `i` is a member name: checks its order, spans its member. */
  memberName(q: number): boolean {
    const b = this.b;
    const i = this.i;
    // A name the parse refuses for its length (bounds.ts) is neither decoded nor copied.
    if (i - q - 2 > MAX_NAME_CHARS) return false;
    const at = this.depth - 1;
    this.expectName[at] = false;
    if (this.ordered) {
      const s1 = q + 1;
      const e1 = i - 1;
      if (e1 > s1 && b[s1]! >= 0x30 && b[s1]! <= 0x39) this.ordered = false;
      for (let k = s1; k < e1 && this.ordered; k++) if (b[k]! >= 0x80 || b[k] === 0x5c) this.ordered = false;
      const ps = this.prevName[at]!;
      if (this.ordered && ps >= 0 && !bytesAfter(b, s1, e1, ps, this.prevNameEnd[at]!)) this.ordered = false;
      this.prevName[at] = s1;
      this.prevNameEnd[at] = e1;
    }
    const list = this.lists[at];
    if (!list) return true;
    if (this.spans >= MAX_SPANS) return false;
    let name = NAME_DECODER.decode(b.subarray(q + 1, i - 1));
    if (name.includes('\\')) {
      try {
        name = JSON.parse(NAME_DECODER.decode(b.subarray(q, i))) as string;
      } catch {
        return false; // not JSON: the parse will say why
      }
    }
    const m: MemberSpan = { name, start: this.o + (q - this.start), value: -1, end: -1 };
    list.push(m);
    this.current[at] = m;
    this.spans++;
    return true;
  }

  /** Insignificant whitespace at `i`: the pending input before it is copied, it is skipped. */
  whitespace(): void {
    const b = this.b;
    this.copyPending(this.i);
    let i = this.i + 1;
    while (i < this.n && (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09)) i++;
    this.start = i;
    this.i = i;
  }

  /** A number token starting with `c` at `i`; cut when it reaches the end of the bytes in place (more digits may follow). */
  number(c: number): Step {
    const b = this.b;
    const n = this.n;
    let i = this.i;
    const s = i;
    if (c === 0x2d) i++;
    const intStart = i;
    while (i < n && b[i]! >= 0x30 && b[i]! <= 0x39) i++;
    const intLen = i - intStart;
    let fracLen = 0;
    let zeros = 0; // leading zeros of the fraction
    let last = 0;
    if (b[i] === 0x2e) {
      i++;
      const fracStart = i;
      while (i < n && b[i]! >= 0x30 && b[i]! <= 0x39) i++;
      fracLen = i - fracStart;
      last = b[i - 1]!;
      while (zeros < fracLen && b[fracStart + zeros] === 0x30) zeros++;
    }
    let exponent = false;
    if (b[i] === 0x65 || b[i] === 0x45) {
      exponent = true;
      i++;
      while (i < n && ((b[i]! >= 0x30 && b[i]! <= 0x39) || b[i] === 0x2b || b[i] === 0x2d)) i++;
    }
    if (i >= n && this.partial) return CUT;
    this.i = i;
    // Written as ECMAScript writes it, for sure: an integer of at most 15 digits (not
    // -0), or a fraction without trailing zeros of at most 15 significant digits and at
    // least 1e-6 (any such decimal is the shortest that round-trips its double). Other
    // numbers are printed and compared.
    const zeroInt = intLen === 1 && b[intStart] === 0x30;
    const plain =
      !exponent &&
      !(b[intStart] === 0x30 && intLen > 1) &&
      (fracLen === 0
        ? intLen <= 15 && !(zeroInt && c === 0x2d)
        : last !== 0x30 && (zeroInt ? zeros <= 5 && fracLen - zeros <= 15 : intLen + fracLen <= 15));
    return plain || this.batch.add(b, s, i) ? DONE : NOT_CANONICAL;
  }

  /**
   * A structural byte (or any other: the parse judges those). Past MAX_DEPTH only the depth
   * is counted: the text is not `ordered` (the parse refuses it), and the per-level state
   * stays bounded on 64 MiB of `[`.
   */
  structural(c: number): void {
    const depth = this.depth;
    const i = this.i;
    if (depth > MAX_DEPTH || (depth === MAX_DEPTH && (c === 0x7b || c === 0x5b))) {
      this.ordered = false;
      if (c === 0x7b || c === 0x5b) {
        // A run of openers in one go (the usual shape of such text).
        const b = this.b;
        let j = i + 1;
        while (j < this.n && (b[j] === 0x5b || b[j] === 0x7b)) j++;
        this.depth += j - i;
        this.i = j - 1;
      } else if (c === 0x7d || c === 0x5d) this.depth--;
      return;
    }
    if (c === 0x7b || c === 0x5b) {
      // The member this container is the value of (when its parent is spanned).
      const parent = depth > 0 ? this.current[depth - 1] : null;
      let list: MemberSpan[] | null = null;
      if (c === 0x7b && depth < SPAN_DEPTH && (depth === 0 || (parent && this.spans < MAX_SPANS))) {
        list = depth === 0 ? this.members : (parent!.members = []);
      }
      this.lists[depth] = list;
      this.current[depth] = null;
      this.isObject[depth] = c === 0x7b;
      this.expectName[depth] = c === 0x7b;
      this.prevName[depth] = -1;
      this.depth++;
    } else if (c === 0x7d || c === 0x5d) {
      this.depth--;
      const m = this.current[this.depth];
      if (m) m.end = this.o + (i - this.start);
    } else if (c === 0x3a) {
      const m = depth > 0 ? this.current[depth - 1] : null;
      if (m) m.value = this.o + (i - this.start) + 1;
    } else if (c === 0x2c && depth > 0) {
      const m = this.current[depth - 1];
      if (m) {
        m.end = this.o + (i - this.start);
        this.current[depth - 1] = null;
      }
      if (this.isObject[depth - 1]) this.expectName[depth - 1] = true;
    }
  }
}

/**
 * Number tokens checked in batches: `[t1,t2,…]` as text, parsed and printed back by V8;
 * every token is written as ECMAScript prints it exactly when the printed text equals the
 * batch (a token that is not a number makes the parse throw: also "not canonical").
 */
class NumberBatch {
  private static readonly SIZE = 1 << 16;
  private readonly buf = Buffer.allocUnsafe(NumberBatch.SIZE);
  private o = 0;

  /** False when the batch had to be checked and was not canonical. */
  add(b: Uint8Array, s: number, e: number): boolean {
    if (e - s > 64) {
      // A long token alone (an over-long fraction): printed and compared by itself.
      const t = Buffer.from(b.buffer, b.byteOffset + s, e - s).toString('latin1');
      return String(Number(t)) === t;
    }
    if (this.o + (e - s) + 2 > NumberBatch.SIZE && !this.flush()) return false;
    const buf = this.buf;
    let o = this.o;
    buf[o++] = this.o === 0 ? 0x5b : 0x2c;
    for (let k = s; k < e; k++) buf[o++] = b[k]!;
    this.o = o;
    return true;
  }

  flush(): boolean {
    if (this.o === 0) return true;
    this.buf[this.o++] = 0x5d;
    const text = this.buf.toString('latin1', 0, this.o);
    this.o = 0;
    try {
      return JSON.stringify(JSON.parse(text)) === text;
    } catch {
      return false;
    }
  }
}

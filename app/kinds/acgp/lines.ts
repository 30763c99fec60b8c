/**
 * JSON Lines over bytes, strictly: lines split at LF (a CR before it is dropped), each
 * line decoded as strict UTF-8 and parsed with the one canonicalizer's strict parser. Works
 * on one buffer or on a stream of chunks, so a trace of any length is checked in memory
 * bounded by its longest line.
 */
import { decodeJsonBytes, JcsError, MAX_DEPTH, mayUnderflow, parseCanonical, refusedAsCutShort, type JcsWarning } from '../../core/jcs.js';

const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;
const ESCAPED_COLON = /\\u003[aA]/;
const LONG_DIGITS = /\d{16,}/;

interface Tally {
  members: number;
  colons: number;
  ok: boolean;
  /** A number parsed as 0: its text may be a non-zero literal that underflows (`1E-400`). */
  zero: boolean;
}

function colonsIn(s: string): number {
  let n = 0;
  for (let i = s.indexOf(':'); i !== -1; i = s.indexOf(':', i + 1)) n++;
  return n;
}

function tally(v: unknown, depth: number, t: Tally): void {
  if (typeof v === 'string') {
    if (v.includes(':')) t.colons += colonsIn(v);
    return;
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) t.ok = false;
    else if (v === 0) t.zero = true;
    return;
  }
  if (typeof v !== 'object' || v === null) return;
  if (depth >= MAX_DEPTH) {
    t.ok = false;
    return;
  }
  if (Array.isArray(v)) {
    for (const e of v) tally(e, depth + 1, t);
    return;
  }
  for (const k in v as Record<string, unknown>) {
    t.members++;
    if (k.includes(':')) t.colons += colonsIn(k);
    tally((v as Record<string, unknown>)[k], depth + 1, t);
  }
}

/**
 * Strict parse of one line without building its canonical text (a trace line is checked,
 * never hashed): JSON.parse, then proof that nothing was silently repaired (every colon of
 * the text is a member or inside a string, so no duplicate member collapsed; no escaped
 * surrogate or colon; every number finite, no zero that may be an underflow; depth bounded). On any doubt the one
 * canonicalizer's parser decides, and names the problem.
 */
export function strictParseLine(text: string): { value: unknown; warnings: JcsWarning[] } {
  if (!text.isWellFormed() || ESCAPED_SURROGATE.test(text) || ESCAPED_COLON.test(text) || LONG_DIGITS.test(text)) return parseCanonical(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return parseCanonical(text);
  }
  const t: Tally = { members: 0, colons: 0, ok: true, zero: false };
  tally(value, 0, t);
  if (!t.ok || t.members + t.colons !== colonsIn(text) || (t.zero && mayUnderflow(text))) return parseCanonical(text);
  return { value, warnings: [] };
}
import type { AcgpChecker } from './checker.js';

export class LineFeeder {
  private rest: Buffer | null = null;
  private index = 0;
  private pendingBlank = -1;
  /** Bytes of the lines read so far, their newlines included. */
  private read = 0;
  /** `onLine` hears how many bytes have been read after each line (progress). */
  constructor(
    private readonly checker: AcgpChecker,
    private readonly onLine?: (bytesRead: number) => void,
  ) {}

  get lines(): number {
    return this.index;
  }

  push(chunk: Buffer): void {
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = null;
    let start = 0;
    for (let nl = buf.indexOf(0x0a, start); nl !== -1; nl = buf.indexOf(0x0a, start)) {
      this.line(buf.subarray(start, nl > start && buf[nl - 1] === 0x0d ? nl - 1 : nl), false);
      this.read += nl + 1 - start;
      this.onLine?.(this.read);
      start = nl + 1;
    }
    if (start < buf.length) this.rest = Buffer.from(buf.subarray(start));
  }

  end(): void {
    // The last line has no newline after it: a trace cut short ends so.
    if (this.rest && this.rest.length > 0) this.line(this.rest, true);
    this.rest = null;
    // A final newline is allowed; a blank line before the end is not.
    this.pendingBlank = -1;
  }

  private line(bytes: Buffer, unterminated: boolean): void {
    if (this.pendingBlank >= 0) {
      this.checker.parseError(this.pendingBlank, 'a blank line inside a JSON Lines trace');
      this.pendingBlank = -1;
    }
    const i = this.index++;
    if (bytes.length === 0) {
      this.pendingBlank = i;
      return;
    }
    let text: string;
    try {
      text = decodeJsonBytes(bytes);
      const parsed = strictParseLine(text);
      if (parsed.warnings.length > 0) this.checker.precision(i, parsed.warnings);
      this.checker.add(i, parsed.value);
    } catch (e) {
      if (!(e instanceof JcsError)) throw e;
      // Cut short: the trace ends, with no newline, inside a JSON value the line began well
      // (not a bad line in the middle, nor a last line broken before its end).
      if (unterminated && refusedAsCutShort(e, bytes)) this.checker.parseError(i, e.message, undefined, 'the trace ends inside this line, with no newline after it');
      else this.checker.parseError(i, e.message);
    }
  }
}

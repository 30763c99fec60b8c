/**
 * JSON Lines over bytes, strictly: lines split at LF (a CR before it is dropped), each
 * line decoded as strict UTF-8 and parsed with the one canonicalizer's strict parser. Works
 * on one buffer or on a stream of chunks, so a trace of any length is checked in memory
 * bounded by the line limit (acgp-line-bytes): a longer line is refused unread, and only
 * its length is kept while the rest of it streams past.
 */
import {
  checkBounds,
  countChar,
  decodeJsonBytes,
  JcsError,
  MAX_DEPTH,
  mayUnderflow,
  parseCanonical,
  refusedAsCutShort,
  type JcsWarning,
  type JsonLimits,
} from '../../core/jcs.js';
import { ACGP_LIMITS, LINE_LIMIT } from './limits.js';

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

function tally(v: unknown, depth: number, t: Tally): void {
  if (typeof v === 'string') {
    if (v.includes(':')) t.colons += countChar(v, ':');
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
    if (k.includes(':')) t.colons += countChar(k, ':');
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
export function strictParseLine(text: string, limits?: JsonLimits): { value: unknown; warnings: JcsWarning[] } {
  // Before JSON.parse, as parseCanonical does: a parse spends its memory per value (bounds.ts).
  const colons = checkBounds(text, limits);
  const strict = () => parseCanonical(text, { limits });
  if (!text.isWellFormed() || ESCAPED_SURROGATE.test(text) || ESCAPED_COLON.test(text) || LONG_DIGITS.test(text))
    return strict();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return strict();
  }
  const t: Tally = { members: 0, colons: 0, ok: true, zero: false };
  tally(value, 0, t);
  if (!t.ok || t.members + t.colons !== colons || (t.zero && mayUnderflow(text))) return strict();
  return { value, warnings: [] };
}
import type { AcgpChecker } from './checker.js';

export class LineFeeder {
  /** The start of the line whose end has not come yet (within the line limit). */
  private rest: Buffer | null = null;
  /** That line's length so far, once past the line limit (its bytes are dropped); -1 before. */
  private overLong = -1;
  private index = 0;
  /** The blank lines since the last line that was not (the first one's index, and how many): said when a line follows them. */
  private blankFrom = -1;
  private blanks = 0;
  /** Bytes of the lines read so far, their newlines included. */
  private read = 0;
  private readonly maxLine: number;
  /** `onLine` hears how many bytes have been read after each line (progress); `limits` are the `--limit` overrides. */
  constructor(
    private readonly checker: AcgpChecker,
    private readonly onLine?: (bytesRead: number) => void,
    private readonly limits?: JsonLimits,
  ) {
    this.maxLine = limits?.[LINE_LIMIT] ?? ACGP_LIMITS[LINE_LIMIT];
  }

  get lines(): number {
    return this.index;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.lineEnds(chunk.subarray(start, nl), false);
      this.read += nl + 1 - start;
      this.onLine?.(this.read);
      start = nl + 1;
    }
    if (start < chunk.length) this.hold(chunk.subarray(start));
  }

  end(): void {
    // The last line has no newline after it: a trace cut short ends so.
    if (this.rest || this.overLong >= 0) this.lineEnds(Buffer.alloc(0), true);
    // Blank lines at the end are allowed, however many (an editor's trailing newlines); one
    // before a line that is not blank is not, and says so (checker.blankLines).
    this.blankFrom = -1;
    this.blanks = 0;
  }

  /** A line's start whose end is in a later chunk: kept (copied) while within the limit, else only counted. */
  private hold(piece: Buffer): void {
    const length = (this.overLong >= 0 ? this.overLong : (this.rest?.length ?? 0)) + piece.length;
    if (this.overLong >= 0 || length > this.maxLine + 1) {
      this.overLong = length;
      this.rest = null;
    } else this.rest = this.rest ? Buffer.concat([this.rest, piece]) : Buffer.from(piece);
  }

  /** The line's last piece has come: the line is what was held plus it, without a final CR. */
  private lineEnds(piece: Buffer, unterminated: boolean): void {
    const { rest, overLong } = this;
    this.rest = null;
    this.overLong = -1;
    const length = (overLong >= 0 ? overLong : (rest?.length ?? 0)) + piece.length;
    const last = piece.length > 0 ? piece[piece.length - 1] : rest?.[rest.length - 1];
    const cr = !unterminated && last === 0x0d ? 1 : 0;
    if (overLong >= 0 || length - cr > this.maxLine) this.line(null, unterminated, length - cr);
    else this.line((rest ? Buffer.concat([rest, piece]) : piece).subarray(0, length - cr), unterminated);
  }

  /** One line: its bytes, or null and its length when it is longer than the limit. */
  private line(bytes: Buffer | null, unterminated: boolean, length = 0): void {
    const i = this.index++;
    if (bytes !== null && bytes.length === 0) {
      if (this.blanks++ === 0) this.blankFrom = i;
      return;
    }
    if (this.blanks > 0) {
      this.checker.blankLines(this.blankFrom, this.blanks);
      this.blankFrom = -1;
      this.blanks = 0;
    }
    if (bytes === null) this.checker.lineTooLong(i, length, this.maxLine);
    else this.parsed(i, bytes, unterminated);
  }

  private parsed(i: number, bytes: Buffer, unterminated: boolean): void {
    let text: string;
    try {
      text = decodeJsonBytes(bytes);
      const parsed = strictParseLine(text, this.limits);
      if (parsed.warnings.length > 0) this.checker.precision(i, parsed.warnings);
      this.checker.add(i, parsed.value);
    } catch (e) {
      if (!(e instanceof JcsError)) throw e;
      const message = inFile(e, i);
      // Cut short: the trace ends, with no newline, inside a JSON value the line began well
      // (not a bad line in the middle, nor a last line broken before its end).
      if (unterminated && refusedAsCutShort(e, bytes))
        this.checker.parseError(i, message, undefined, 'the trace ends inside this line, with no newline after it');
      else this.checker.parseError(i, message);
    }
  }
}

/**
 * The parser's message with its position in the file: it parsed the line alone, so it says
 * "line 1, column 4" of the line, beside a finding naming line 4 of the file. The column is
 * the line's own (a line holds no newline).
 */
function inFile(e: JcsError, i: number): string {
  if (e.line === undefined || e.column === undefined) return e.message;
  const own = ` (line ${e.line}, column ${e.column})`;
  if (!e.message.endsWith(own)) return e.message;
  return `${e.message.slice(0, -own.length)} (line ${i + 1}, column ${e.column})`;
}

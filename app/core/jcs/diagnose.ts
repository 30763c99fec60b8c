/**
 * The precise validator: a position-tracking JSON reader (RFC 8259 grammar) that returns
 * the first I-JSON violation with its pointer. Only used when the fast path is suspicious.
 */
import { escapePointerToken } from '../closed.js';
import { JcsError, MAX_DEPTH, type JcsErrorCode, type JcsWarning } from './errors.js';
import { SAFE } from './serialize.js';
import { decimalKey } from '../../../shared/decimal-key.js';
import { cutIndex } from '../../../shared/text-cut.js';

/** A number token that writes a non-zero value (a digit 1-9 before any exponent). */
function nonZeroLiteral(token: string): boolean {
  const e = token.search(/[eE]/);
  return /[1-9]/.test(e === -1 ? token : token.slice(0, e));
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** Characters a string holds as they are: anything but a quote, a backslash or a control character. */
const PLAIN = /[^"\\\u0000-\u001f]*/y;
/** The letters after a backslash that make a short escape: `" \ / b f n r t`. */
const SIMPLE_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const HEX4 = /^[0-9a-fA-F]{4}$/;
/** A number token as messages quote it: at most 40 characters (a token may be 100 MB long). */
const shortToken = (token: string): string => (token.length > 40 ? token.slice(0, 37) + '...' : token);
/** A member name as messages quote it: JSON, at most 80 characters of it (a name may be 64 KiB long). */
const shortName = (name: string): string =>
  name.length > 80
    ? `${JSON.stringify(name.slice(0, cutIndex(name, 77)))}... (${name.length} characters)`
    : JSON.stringify(name);

/**
 * The longest pointer a warning or an error names: 512 levels of 64 KiB names make a pointer
 * of 32 MB, and a warning for each of a thousand numbers under it held gigabytes (an
 * internal error). Past it, a place is named by its deepest ancestor whose pointer fits.
 */
export const MAX_POINTER_CHARS = 4096;
const UNDER = ` (in a member under this pointer, whose own pointer is longer than ${MAX_POINTER_CHARS} characters)`;

class Reader {
  pos = 0;
  /** How many levels the reader is below the pointer it names (0: the pointer is the place's own). */
  private under = 0;
  constructor(readonly text: string) {}
  err(code: JcsErrorCode, msg: string, pointer?: string, at = this.pos): JcsError {
    return new JcsError(code, this.under > 0 ? msg + UNDER : msg, pointer, at, this.text);
  }
  private warn(warnings: JcsWarning[], w: JcsWarning): void {
    warnings.push(this.under > 0 ? { ...w, message: w.message + UNDER } : w);
  }
  /** A child's pointer, or its parent's when the child's would pass MAX_POINTER_CHARS; `read` runs under it. */
  private child(ptr: string, token: string, read: (childPtr: string) => void): void {
    const next = ptr.length + 1 + token.length > MAX_POINTER_CHARS ? null : `${ptr}/${escapePointerToken(token)}`;
    if (next !== null && next.length <= MAX_POINTER_CHARS) return read(next);
    this.under++;
    read(ptr);
    this.under--;
  }
  ws(): void {
    const t = this.text;
    while (this.pos < t.length && WS.has(t.charCodeAt(this.pos))) this.pos++;
  }
  /**
   * Reads a string token, returns its value; `ptr` names where it stands. The token is
   * checked by runs (a native regex skips plain characters) and its value is decoded once,
   * natively, by JSON.parse of the checked token: decoding escape by escape built a string
   * of millions of pieces (a 64 MiB string of `\"`: 4 s, and 8 s of garbage collection).
   */
  str(ptr: string, isKey: boolean): string {
    const t = this.text;
    const start = this.pos;
    this.pos++; // opening quote
    let escapes = false;
    for (;;) {
      PLAIN.lastIndex = this.pos;
      PLAIN.test(t);
      this.pos = PLAIN.lastIndex;
      if (this.pos >= t.length) throw this.err('ERR_SYNTAX', 'unterminated string', ptr, start);
      const c = t.charCodeAt(this.pos);
      if (c === 0x22) {
        this.pos++;
        break;
      }
      if (c < 0x20) throw this.err('ERR_SYNTAX', 'unescaped control character in a string', ptr);
      // A backslash: the escapes JSON has, `\uXXXX` with four hex digits.
      escapes = true;
      const e = t.charCodeAt(this.pos + 1);
      if (SIMPLE_ESCAPES.has(e)) this.pos += 2;
      else if (e === 0x75) {
        if (!HEX4.test(t.slice(this.pos + 2, this.pos + 6))) throw this.err('ERR_SYNTAX', 'bad \\u escape', ptr);
        this.pos += 6;
      } else throw this.err('ERR_SYNTAX', 'bad escape in a string', ptr);
    }
    // Without escapes the value is the token's inside: a slice, not a copy (a line may be 100 MB).
    const out = escapes ? (JSON.parse(t.slice(start, this.pos)) as string) : t.slice(start + 1, this.pos - 1);
    if (!out.isWellFormed()) {
      throw this.err(
        'ERR_LONE_SURROGATE',
        `${isKey ? 'a member name' : 'a string'} holds a lone surrogate`,
        ptr,
        start,
      );
    }
    return out;
  }
  num(ptr: string, warnings: JcsWarning[] | null): void {
    const t = this.text;
    const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    m.lastIndex = this.pos;
    const r = m.exec(t);
    if (!r) throw this.err('ERR_SYNTAX', 'bad number', ptr);
    const n = Number(r[0]);
    if (!Number.isFinite(n))
      throw this.err('ERR_NONFINITE', `the number ${shortToken(r[0])} is not a finite double`, ptr);
    if (warnings && n === 0 && nonZeroLiteral(r[0])) {
      this.warn(warnings, {
        code: 'WARN_UNDERFLOW',
        message: `the number ${shortToken(r[0])} is not zero, but its nearest double is (it underflows); RFC 8785 writes 0`,
        pointer: ptr,
      });
    }
    if (warnings && !(n < SAFE && n > -SAFE) && losesPrecision(r[0], n)) {
      const what = /[.eE]/.test(r[0]) ? 'number' : 'integer';
      this.warn(warnings, {
        code: 'WARN_PRECISION',
        message: `the ${what} ${shortToken(r[0])} is not exactly representable (beyond 2^53 a double holds only some integers); RFC 8785 writes ${String(n)}`,
        pointer: ptr,
      });
    }
    this.pos += r[0].length;
  }
  value(ptr: string, depth: number, warnings: JcsWarning[] | null): void {
    this.ws();
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (c === 0x7b || c === 0x5b) {
      if (depth >= MAX_DEPTH) throw this.err('ERR_DEPTH', `nesting deeper than ${MAX_DEPTH}`, ptr);
    }
    if (c === 0x7b) return this.object(ptr, depth, warnings);
    if (c === 0x5b) return this.array(ptr, depth, warnings);
    if (c === 0x22) {
      this.str(ptr, false);
      return;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      this.num(ptr, warnings);
      return;
    }
    for (const lit of ['true', 'false', 'null']) {
      if (t.startsWith(lit, this.pos)) {
        this.pos += lit.length;
        return;
      }
    }
    if (this.pos >= t.length) throw this.err('ERR_SYNTAX', 'unexpected end of input', ptr);
    throw this.err('ERR_SYNTAX', `unexpected character ${JSON.stringify(t[this.pos])}`, ptr);
  }

  /** An object, from its '{': member names unique, each value read in turn. */
  private object(ptr: string, depth: number, warnings: JcsWarning[] | null): void {
    const t = this.text;
    this.pos++;
    const seen = new Set<string>();
    this.ws();
    if (t.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return;
    }
    for (;;) {
      this.ws();
      if (t.charCodeAt(this.pos) !== 0x22) throw this.err('ERR_SYNTAX', 'expected a member name', ptr);
      const keyAt = this.pos;
      const key = this.str(ptr, true);
      this.child(ptr, key, (childPtr) => {
        if (seen.has(key))
          throw this.err('ERR_DUPLICATE_KEY', `duplicate member name ${shortName(key)}`, childPtr, keyAt);
        seen.add(key);
        this.ws();
        if (t.charCodeAt(this.pos) !== 0x3a) throw this.err('ERR_SYNTAX', "expected ':'", childPtr);
        this.pos++;
        this.value(childPtr, depth + 1, warnings);
      });
      this.ws();
      const d = t.charCodeAt(this.pos);
      if (d === 0x2c) {
        this.pos++;
        continue;
      }
      if (d === 0x7d) {
        this.pos++;
        return;
      }
      throw this.err('ERR_SYNTAX', "expected ',' or '}'", ptr);
    }
  }

  /** An array, from its '[': each element read in turn. */
  private array(ptr: string, depth: number, warnings: JcsWarning[] | null): void {
    const t = this.text;
    this.pos++;
    this.ws();
    if (t.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return;
    }
    for (let i = 0; ; i++) {
      this.child(ptr, String(i), (childPtr) => this.value(childPtr, depth + 1, warnings));
      this.ws();
      const d = t.charCodeAt(this.pos);
      if (d === 0x2c) {
        this.pos++;
        continue;
      }
      if (d === 0x5d) {
        this.pos++;
        return;
      }
      throw this.err('ERR_SYNTAX', "expected ',' or ']'", ptr);
    }
  }
}

/** Returns the first reason the text must be refused, or null when it is acceptable. */
export function diagnose(text: string): JcsError | null {
  if (text.charCodeAt(0) === 0xfeff) return new JcsError('ERR_BOM', 'a byte-order mark precedes the JSON text');
  if (!text.isWellFormed()) return new JcsError('ERR_LONE_SURROGATE', 'the text holds a lone surrogate code unit');
  const r = new Reader(text);
  try {
    r.value('', 0, null);
    r.ws();
    if (r.pos !== text.length) return r.err('ERR_SYNTAX', 'unexpected data after the JSON value');
  } catch (e) {
    if (e instanceof JcsError) return e;
    if (e instanceof RangeError) return new JcsError('ERR_DEPTH', `nesting deeper than ${MAX_DEPTH}`);
    throw e;
  }
  return null;
}

/**
 * True when the value a number token writes is not its double `n` (|n| >= 2^53, where
 * doubles are integers), in any notation: `9007199254740993`, `9007199254740993.0`,
 * `9.007199254740993e15`, `9007199254740992.5`. A token that spells the shortest form of
 * its double (`1e300`, the text RFC 8785 itself writes) is not flagged, though its decimal
 * value is not the double's exact binary value. Values are compared as shared/diff.ts's
 * decimalKey spells them (one spelling per decimal value), which the diff compares
 * literals by too.
 */
function losesPrecision(token: string, n: number): boolean {
  const written = decimalKey(token.replace(/^-/, ''));
  const abs = Math.abs(n);
  return written !== decimalKey(String(abs).replace('e+', 'e')) && written !== decimalKey(BigInt(abs).toString());
}

export function precisionWarnings(text: string): JcsWarning[] {
  const warnings: JcsWarning[] = [];
  const r = new Reader(text);
  r.value('', 0, warnings);
  return warnings;
}

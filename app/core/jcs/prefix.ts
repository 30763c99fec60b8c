/**
 * Whether refused JSON text is the beginning of a JSON value that stops before its end: the
 * evidence that a file was cut short (a copy truncated, a download interrupted), as opposed
 * to a document broken in its middle or followed by other data. Every character read must
 * fit the JSON grammar (RFC 8259), and the text must end inside a string, a number, a
 * literal, an object or an array. Reads the text once, without recursion; used only on
 * input already refused, never on the accepting path.
 */
import type { JcsError } from './errors.js';

/** The scan ran out of text inside a token. */
const RAN_OUT = -1;
/** A character no JSON text could hold there. */
const INVALID = -2;

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NUMBER_CHARS = /[-+.eE0-9]*/y;
const PLAIN_CHARS = /[^"\\\u0000-\u001f]*/y;
const HEX = /^[0-9a-fA-F]*$/;
const SIMPLE_ESCAPES = '"\\/bfnrt';
const LITERALS = ['true', 'false', 'null'] as const;

/**
 * True when the strict parse refused `input` (text, or bytes as UTF-8) with `error` because
 * it stops inside a JSON value it has begun well. Only a syntax or encoding error can be
 * that; a refusal the whole text would get too (nesting too deep, a duplicate member) is
 * not looked into (64 MiB of `[` is refused for its depth, not read again here).
 */
export function refusedAsCutShort(error: JcsError, input: string | Uint8Array): boolean {
  return (error.code === 'ERR_SYNTAX' || error.code === 'ERR_UTF8') && endsInsideJsonValue(input);
}

/**
 * True when `input` (text, or bytes as UTF-8) stops inside a JSON value it has begun well.
 * Bytes may end in the middle of a character: a cut falls anywhere; any other byte that is
 * not UTF-8 is no such evidence.
 */
export function endsInsideJsonValue(input: string | Uint8Array): boolean {
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    try {
      // `stream`: an incomplete character at the end is held back, not refused (a decoder
      // of its own, which keeps what it held back).
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(input, { stream: true });
    } catch {
      return false;
    }
  }
  return scan(text);
}

function skipBlanks(t: string, i: number): number {
  while (i < t.length) {
    const c = t.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    i++;
  }
  return i;
}

/** One pass with a stack of the open objects and arrays; see endsInsideJsonValue. */
function scan(t: string): boolean {
  const stack: number[] = [];
  let expect: 'value' | 'key' | 'colon' | 'after' = 'value';
  let opened = false;
  let i = skipBlanks(t, 0);
  if (i >= t.length) return false;
  while (i < t.length) {
    const c = t.charCodeAt(i);
    const justOpened = opened;
    opened = false;
    const top = stack[stack.length - 1];
    const closer = top === 0x7b ? 0x7d : 0x5d;
    let next = i + 1;
    if (expect === 'after') {
      if (stack.length === 0) return false; // data after a complete value
      if (c === 0x2c) expect = top === 0x7b ? 'key' : 'value';
      else if (c === closer) stack.pop();
      else return false;
    } else if (expect === 'colon') {
      if (c !== 0x3a) return false;
      expect = 'value';
    } else if (justOpened && c === closer) {
      stack.pop();
      expect = 'after';
    } else if (c === 0x7b || c === 0x5b) {
      if (expect === 'key') return false;
      stack.push(c);
      expect = c === 0x7b ? 'key' : 'value';
      opened = true;
    } else {
      if (expect === 'key' && c !== 0x22) return false;
      next = c === 0x22 ? stringEnd(t, i) : scalarEnd(t, i);
      if (next < 0) return next === RAN_OUT;
      expect = expect === 'key' ? 'colon' : 'after';
    }
    i = skipBlanks(t, next);
  }
  return stack.length > 0;
}

/** For the string opening at `i`: the index after its closing quote, RAN_OUT or INVALID. */
function stringEnd(t: string, i: number): number {
  let p = i + 1;
  for (;;) {
    PLAIN_CHARS.lastIndex = p;
    PLAIN_CHARS.exec(t);
    p = PLAIN_CHARS.lastIndex;
    if (p >= t.length) return RAN_OUT;
    const c = t.charCodeAt(p);
    if (c === 0x22) return p + 1;
    if (c !== 0x5c) return INVALID; // a control character
    if (p + 1 >= t.length) return RAN_OUT;
    const e = t[p + 1]!;
    if (e === 'u') {
      const hex = t.slice(p + 2, p + 6);
      if (!HEX.test(hex)) return INVALID;
      if (hex.length < 4) return RAN_OUT;
      p += 6;
    } else if (SIMPLE_ESCAPES.includes(e)) p += 2;
    else return INVALID;
  }
}

/** For a number or a literal at `i`: the index after it, RAN_OUT (it may go on) or INVALID. */
function scalarEnd(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
    NUMBER_CHARS.lastIndex = i;
    NUMBER_CHARS.exec(t);
    const end = NUMBER_CHARS.lastIndex;
    const token = t.slice(i, end);
    if (NUMBER.test(token)) return end;
    // Cut after a sign, a point or an exponent mark: one more digit would complete it.
    return end === t.length && /[-+.eE]$/.test(token) && NUMBER.test(token + '0') ? RAN_OUT : INVALID;
  }
  for (const lit of LITERALS) {
    if (t.startsWith(lit, i)) return i + lit.length;
    if (i + lit.length > t.length && lit.startsWith(t.slice(i))) return RAN_OUT;
  }
  return INVALID;
}

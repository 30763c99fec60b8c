/**
 * The numbers of a JSON text whose doubles do not keep the literals written
 * (`9007199254740993`, `1e21` against `1000000000000000000001`, `1e-400`): found in the
 * text, held by NumberLiterals beside the parsed value, so the diff (shared/diff.ts)
 * compares each by its literal. One reader, used by `reprise diff` on a file's text and by
 * the window's Compare view on an artifact's raw text (ArtifactContent.raw), so the two
 * list the same differences.
 */
import type { JsonValue } from './report.js';
import { decimalKey, LONG_MANTISSA, mayUnderflow } from './decimal-key.js';

/**
 * The numbers of parsed JSON whose doubles do not keep the literals written (beyond 2^53,
 * more digits than a double holds, an underflow to 0): the literal of each, by the container
 * holding it and its key there (a number has no identity of its own), and every container
 * holding one at any depth. The diff compares such a number by its literal (decimalKey), so
 * `9007199254740993` against `9007199254740992` is a difference though their doubles are one.
 */
export class NumberLiterals {
  private readonly byHolder = new WeakMap<object, Map<string, string>>();
  private readonly holders = new WeakSet<object>();
  /** Whether it holds none (then the diff never looks a number up). */
  empty = true;

  set(holder: object, key: string, literal: string): void {
    const m = this.byHolder.get(holder) ?? new Map<string, string>();
    this.byHolder.set(holder, m.set(key, literal));
    this.holders.add(holder);
    this.empty = false;
  }

  /** The literal of `holder[key]`, when its double does not keep it. */
  get(holder: object, key: string | number): string | undefined {
    return this.byHolder.get(holder)?.get(String(key));
  }

  /**
   * The literals of `from`'s members named `keys`, now held by `to` too, and `from`'s mark
   * (`holds`): `to` is an object rebuilt from `from`'s members (reportSide builds a report's
   * side anew), whose numbers are the same numbers, so their literals must go with them.
   * Without this, a number beyond double precision directly in a rebuilt object would be
   * compared as its double, and two reports differing only there would read as identical.
   */
  carry(from: object, to: object, keys: Iterable<string>): void {
    const m = this.byHolder.get(from);
    if (m !== undefined)
      for (const k of keys) {
        const literal = m.get(k);
        if (literal !== undefined) this.set(to, k, literal);
      }
    if (this.holders.has(from)) this.mark(to);
  }

  /** Says that `container` holds such a number somewhere within it. */
  mark(container: object): void {
    this.holders.add(container);
  }

  /** Whether `container` holds such a number at any depth (its arrays are never aligned on equality). */
  holds(container: object): boolean {
    return this.holders.has(container);
  }

  /**
   * The JSON text of `value` (JSON.stringify's, compact, members in its order) with each
   * number this holds written as its literal, as the file writes it: `[3,9007199254740993]`,
   * where JSON.stringify writes the double, `[3,9007199254740992]`, a value in neither file.
   * Undefined when `value` is not an array or object holding such a number (its text is then
   * JSON.stringify's). Each such number is written as a marker string by JSON.stringify's
   * replacer, which is given each value's container and key, and the markers are then swapped
   * for the literals: where a number stands comes from JSON.stringify, as in the parse.
   */
  json(value: JsonValue): string | undefined {
    if (typeof value !== 'object' || value === null || !this.holders.has(value)) return undefined;
    const marker = `reprise-literal-${randomHex()}:`;
    const byHolder = this.byHolder;
    const text = JSON.stringify(value, function (this: object, key: string, v: unknown) {
      if (typeof v !== 'number') return v;
      const literal = byHolder.get(this)?.get(key);
      return literal === undefined ? v : `${marker}${literal}`;
    });
    // A literal is a JSON number token: its characters need no escape in a JSON string.
    return text.replace(new RegExp(`"${marker}([-+.0-9eE]+)"`, 'g'), '$1');
  }
}

/** A JSON number token: in text the strict parse accepted, one starts at each `-` or digit outside a string. */
const NUMBER_TOKEN = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Index just past the string token whose opening quote is at `i`. */
function pastString(t: string, i: number): number {
  for (let j = i; ;) {
    j = t.indexOf('"', j + 1);
    if (j === -1) return t.length;
    let k = j;
    while (t.charCodeAt(k - 1) === 0x5c) k--;
    // An even run of backslashes escapes itself, not the quote.
    if ((j - k) % 2 === 0) return j + 1;
  }
}

/** The number tokens of JSON text whose doubles do not keep them (decimalKey), with their offsets. */
function lossyNumbers(t: string): { at: number; token: string }[] {
  const found: { at: number; token: string }[] = [];
  for (let i = 0; i < t.length;) {
    const c = t.charCodeAt(i);
    if (c === 0x22) i = pastString(t, i);
    else if (c !== 0x2d && (c < 0x30 || c > 0x39)) i++;
    else {
      NUMBER_TOKEN.lastIndex = i;
      const token = NUMBER_TOKEN.exec(t)![0];
      // 15 characters without an exponent hold at most 15 digits: kept (LONG_MANTISSA).
      const suspect = token.length > 15 || /[eE]/.test(token);
      if (suspect && decimalKey(token) !== decimalKey(String(Number(token)))) found.push({ at: i, token });
      i += token.length;
    }
  }
  return found;
}

/** 128 random bits in hex (Web Crypto: in Node and in any browser page, secure or not). */
function randomHex(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A parse with its lossy numbers' literals: the value, and the whole text's literal when it is one such number. */
export interface LiteralParse {
  value: JsonValue;
  /** The literal of a text that is one such number (it has no container: the caller places it, reportSide). */
  root?: string;
}

/**
 * The parse of `text` (which the strict parse accepted) with each number whose double does
 * not keep its literal recorded in `literals`; null when it holds none (most texts: one
 * cheap test, LONG_MANTISSA and mayUnderflow). Each such number is swapped for a marker
 * string, and JSON.parse's reviver, which is given each value's container and key, puts the
 * number back and records its literal there: where a number stands comes from JSON.parse,
 * not from a second reader.
 */
export function parseKeepingLiterals(text: string, literals: NumberLiterals): LiteralParse | null {
  if (!LONG_MANTISSA.test(text) && !mayUnderflow(text)) return null;
  const lossy = lossyNumbers(text);
  if (lossy.length === 0) return null;
  const marker = `\u0000reprise-number-${randomHex()}:`;
  const parts: string[] = [];
  let from = 0;
  lossy.forEach(({ at, token }, i) => {
    parts.push(text.slice(from, at), JSON.stringify(`${marker}${i}`));
    from = at + token.length;
  });
  parts.push(text.slice(from));
  // In an array, so that a whole text that is one such number has a container too.
  const wrapped = JSON.parse(`[${parts.join('')}]`, function (this: object, key: string, v: unknown) {
    if (typeof v === 'string' && v.startsWith(marker)) {
      const token = lossy[Number(v.slice(marker.length))]!.token;
      literals.set(this, key, token);
      return Number(token);
    }
    if (typeof v === 'object' && v !== null && literals.holds(v)) literals.mark(this);
    return v;
  }) as JsonValue[];
  const root = literals.get(wrapped, 0);
  return { value: wrapped[0]!, ...(root !== undefined && { root }) };
}

/**
 * The bounds checked on JSON text before it is parsed (ERR_LIMIT), so that no input makes
 * the parse itself take gigabytes: V8's JSON.parse spends memory per value, not per byte.
 *
 * - Distinct member names: about 1.4 µs and 250 bytes of peak memory each (V8 internalizes
 *   every name and, for objects of distinct shapes, builds a hidden class or a dictionary
 *   per object), while names that repeat (rows of one shape) cost next to nothing. A 32 MB
 *   object of two million names took 5 s and 1.2 GB to verify as an unknown kind. Counted
 *   as written: an escaped and a raw spelling of one name count twice, so the count is
 *   never below the parse's.
 * - Items (commas and opening brackets outside strings, about one per value): 30 to 100
 *   bytes each (a `{}` is a whole object), so 100 MB of `[1,1,…]` took 1.5 GB.
 * - The length of one member name (MAX_NAME_CHARS, like MAX_DEPTH a fixed bound): a name
 *   is internalized, hashed and echoed in findings and pointers, so a 64 MiB name took
 *   1.2 GB and made a 200 MB report. Found while counting colons: a name that long has
 *   its closing colon that far after the previous name's, so only such colons are looked at.
 *
 * The counts are cheap where it matters: text with no more colons (commas and brackets)
 * than the limit, nearly every document, is never scanned; otherwise one pass with native
 * searches reads each name (each string) once, and a small cache of recent names spares
 * the set the repeats (a 109 MiB dump of 1.4 million members of 62 names: 50-90 ms in all).
 * Text that is not JSON is only counted here, never refused for its syntax: the parse says
 * what is wrong with it.
 */
import { JcsError } from './errors.js';
import { ITEMS_LIMIT, MAX_ITEMS, MAX_MEMBER_NAMES, MAX_NAME_CHARS, MEMBER_NAMES_LIMIT } from '../json-limits.js';

/** `--limit` overrides by name (EngineOptions.limits); absent ones take the defaults. */
export type JsonLimits = Readonly<Record<string, number>> | undefined;

/** How many times `ch` occurs in `s`, counting no further than `max` (one native search per occurrence). */
export function countChar(s: string, ch: string, max = Infinity): number {
  let n = 0;
  for (let i = s.indexOf(ch); i !== -1 && n < max; i = s.indexOf(ch, i + 1)) n++;
  return n;
}

const isBlank = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Whether the quote at `q` is escaped (preceded by an odd run of backslashes). */
function escaped(text: string, q: number): boolean {
  let k = q - 1;
  while (k >= 0 && text.charCodeAt(k) === 0x5c) k--;
  return ((q - k) & 1) === 0;
}

/** The opening quote of the string whose closing quote is at `q`, not before `from`; -1 when there is none. */
function openingQuote(text: string, q: number, from: number): number {
  let s = q;
  do s = text.lastIndexOf('"', s - 1);
  while (s >= from && escaped(text, s));
  return s >= from ? s : -1;
}

/** The closing quote of the string opened at `q`; -1 when the text ends inside it. */
function closingQuote(text: string, q: number): number {
  let e = q;
  do e = text.indexOf('"', e + 1);
  while (e !== -1 && escaped(text, e));
  return e;
}

/**
 * Whether `text` holds more than `limit` distinct member names. In JSON text every quote
 * inside a string is escaped, so an unescaped quote followed (after blanks) by a colon
 * closes a member name, and the unescaped quote before it opens that name. Each name's
 * span starts after the previous one's, so the backward searches read each character at
 * most once.
 */
export function moreMemberNamesThan(text: string, limit: number): boolean {
  const names = new Set<string>();
  const recent: (string | undefined)[] = new Array<string | undefined>(1024);
  let from = 0;
  for (let c = text.indexOf(':'); c !== -1; c = text.indexOf(':', c + 1)) {
    let q = c - 1;
    while (q >= from && isBlank(text.charCodeAt(q))) q--;
    if (q < from || text.charCodeAt(q) !== 0x22 || escaped(text, q)) continue;
    // A name seen lately, ending here: compared in place, nothing sliced or hashed.
    const slot = (text.charCodeAt(q - 1) * 31 + text.charCodeAt(q - 2)) & 1023;
    const hit = recent[slot];
    if (hit !== undefined) {
      const s = q - hit.length - 1;
      if (s >= from && text.charCodeAt(s) === 0x22 && !escaped(text, s) && text.startsWith(hit, s + 1)) {
        from = q + 1;
        continue;
      }
    }
    const s = openingQuote(text, q, from);
    from = q + 1;
    if (s === -1) continue;
    const name = text.slice(s + 1, q);
    recent[slot] = name;
    names.add(name);
    if (names.size > limit) return true;
  }
  return false;
}

/** The next occurrence of any of the item characters (`,`, `{`, `[`) at or after `i`: one native search each, kept until passed. */
class ItemChars {
  private readonly next = [-1, -1, -1];
  constructor(private readonly text: string) {}
  /** Items (outside strings) from `from` up to `to`, counting no further than `max`. */
  count(from: number, to: number, max: number): number {
    let n = 0;
    for (let k = 0; k < 3; k++) {
      let at = this.next[k]!;
      if (at < from && at !== Infinity) at = this.find(k, from);
      while (at < to && n < max) {
        n++;
        at = this.find(k, at + 1);
      }
      this.next[k] = at;
    }
    return n;
  }
  private find(k: number, from: number): number {
    const at = this.text.indexOf(',{['[k]!, from);
    return at === -1 ? Infinity : at;
  }
}

/**
 * Whether `text` holds more than `limit` items outside strings: from string to string
 * with native searches (each string is skipped whole), the item characters in each gap
 * counted by their own native searches.
 */
export function moreItemsThan(text: string, limit: number): boolean {
  const items = new ItemChars(text);
  let n = 0;
  for (let i = 0; i < text.length;) {
    const q = text.indexOf('"', i);
    const gapEnd = q === -1 ? text.length : q;
    n += items.count(i, gapEnd, limit + 1 - n);
    if (n > limit) return true;
    if (q === -1) break;
    const e = closingQuote(text, q);
    if (e === -1) break;
    i = e + 1;
  }
  return false;
}

/** Whether the text holds more than `limit` item characters, inside strings or not (a cheap superset). */
function rawItemsOver(text: string, limit: number): boolean {
  let n = 0;
  for (const ch of [',', '{', '[']) {
    n += countChar(text, ch, limit + 1 - n);
    if (n > limit) return true;
  }
  return false;
}

/**
 * The colons of `text` (every member has one, and the parse's duplicate proof counts them),
 * refusing on the way a member name longer than MAX_NAME_CHARS. Only a colon further than
 * that from the end of the last name looked at can close such a name; each name looked at
 * is read back once to its opening quote.
 */
function colonsWithShortNames(text: string): number {
  let n = 0;
  let lastName = 0;
  for (let c = text.indexOf(':'); c !== -1; c = text.indexOf(':', c + 1)) {
    n++;
    if (c - lastName <= MAX_NAME_CHARS) continue;
    let q = c - 1;
    while (q > lastName && isBlank(text.charCodeAt(q))) q--;
    if (text.charCodeAt(q) !== 0x22 || escaped(text, q)) continue;
    const s = openingQuote(text, q, lastName);
    lastName = q;
    if (s !== -1 && q - s - 1 > MAX_NAME_CHARS) {
      throw new JcsError(
        'ERR_LIMIT',
        `a member name of ${q - s - 1} characters, longer than the ${MAX_NAME_CHARS} Reprise reads (names are identifiers, echoed in findings and pointers)`,
      );
    }
  }
  return n;
}

/**
 * Throws ERR_LIMIT when `text` holds a member name longer than MAX_NAME_CHARS, or more
 * distinct member names or items than its limits allow; returns its colons.
 */
export function checkBounds(text: string, limits: JsonLimits): number {
  const colons = colonsWithShortNames(text);
  const names = limits?.[MEMBER_NAMES_LIMIT] ?? MAX_MEMBER_NAMES;
  if (colons > names && moreMemberNamesThan(text, names)) {
    throw new JcsError(
      'ERR_LIMIT',
      `more than ${names} distinct member names (limit ${MEMBER_NAMES_LIMIT}), counted before parsing: millions of distinct names take seconds and hundreds of MB to parse`,
    );
  }
  const items = limits?.[ITEMS_LIMIT] ?? MAX_ITEMS;
  if (rawItemsOver(text, items) && moreItemsThan(text, items)) {
    throw new JcsError(
      'ERR_LIMIT',
      `more than ${items} items, array elements and object members (limit ${ITEMS_LIMIT}), counted before parsing: a parse holds 30 to 100 bytes per item`,
    );
  }
  return colons;
}

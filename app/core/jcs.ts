/**
 * Canonical JSON (RFC 8785, JCS) from JSON *text*, the one canonicalizer of Reprise.
 *
 * Why hand-written around JSON.parse/JSON.stringify rather than the `canonicalize`
 * package: that package takes an already-parsed value, so it cannot see what JSON.parse
 * silently repairs (duplicate members, lone surrogates escaped as \uD800, 1e400 becoming
 * Infinity) and it is slower (see bench/). ECMAScript's own number and string
 * serialization *is* the JCS serialization, so we reuse V8's native code for the leaves
 * and only sort members when they are out of order.
 *
 * Design: a fast path does cheap global checks and records suspicion; anything suspicious
 * is re-examined by a precise, position-tracking validator (`diagnose`) that names the
 * member (RFC 6901 pointer) of the first violation. The fast path never accepts input the
 * precise validator would refuse.
 */
import { isUtf8 } from 'node:buffer';

export type JcsErrorCode =
  | 'ERR_SYNTAX'
  | 'ERR_UTF8'
  | 'ERR_BOM'
  | 'ERR_DUPLICATE_KEY'
  | 'ERR_LONE_SURROGATE'
  | 'ERR_NONFINITE'
  | 'ERR_DEPTH';

/** Nesting deeper than this (arrays and objects) is refused with ERR_DEPTH. */
export const MAX_DEPTH = 512;

export class JcsError extends Error {
  readonly code: JcsErrorCode;
  /** RFC 6901 pointer of the offending member or value, when known. */
  readonly pointer: string | undefined;
  /** 1-based line and column in the input text, when known. */
  readonly line: number | undefined;
  readonly column: number | undefined;
  constructor(code: JcsErrorCode, message: string, pointer?: string, offset?: number, text?: string) {
    let line: number | undefined;
    let column: number | undefined;
    if (offset !== undefined && text !== undefined) {
      line = 1;
      let lineStart = 0;
      for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
        line++;
        lineStart = i + 1;
      }
      column = offset - lineStart + 1;
    }
    const where = [pointer !== undefined ? `at ${pointer === '' ? '(root)' : pointer}` : '', line ? `(line ${line}, column ${column})` : '']
      .filter(Boolean)
      .join(' ');
    super(`${code}: ${message}${where ? ' ' + where : ''}`);
    this.name = 'JcsError';
    this.code = code;
    this.pointer = pointer;
    this.line = line;
    this.column = column;
  }
}

/** A warning that does not refuse the input (RFC 8785 rounds, I-JSON frowns). */
export interface JcsWarning {
  /** WARN_PRECISION: beyond 2^53 the double is not the text's integer; WARN_UNDERFLOW: a non-zero number whose double is 0. */
  code: 'WARN_PRECISION' | 'WARN_UNDERFLOW';
  message: string;
  pointer: string;
}

export function escapePointerToken(token: string): string {
  if (token.indexOf('~') === -1 && token.indexOf('/') === -1) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

// ---------------------------------------------------------------------------
// Decoding bytes

/**
 * Decode UTF-8 strictly. A byte-order mark or invalid UTF-8 is refused. Validation is
 * node:buffer's `isUtf8` (simdutf, strict: no overlongs, no encoded surrogates), then the
 * native decoder, which is faster than a fatal TextDecoder on non-ASCII text.
 */
export function decodeJsonBytes(bytes: Uint8Array): string {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new JcsError('ERR_BOM', 'a byte-order mark precedes the JSON text', undefined);
  }
  if (!isUtf8(bytes)) throw new JcsError('ERR_UTF8', 'the input is not valid UTF-8');
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

// ---------------------------------------------------------------------------
// Fast path

const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;
const ESCAPED_COLON = /\\u003[aA]/;
// 16 or more digits in a row, a decimal point allowed among them: a number beyond 2^53
// whose text differs from its double has at least 16 significant digits (any decimal of 15
// or fewer round-trips, so its text is the shortest form of its double). A cheap filter
// before the precise pass; a match inside a string only costs that pass.
const LONG_MANTISSA = /\d(?:\.?\d){15}/;

function countChar(s: string, ch: string): number {
  let n = 0;
  for (let i = s.indexOf(ch); i !== -1; i = s.indexOf(ch, i + 1)) n++;
  return n;
}

interface WalkState {
  nonFinite: boolean;
  /** A number is 0 (or -0): only then can a non-zero literal have underflowed to it. */
  zero?: boolean;
  /** A number of magnitude 2^53 or more was seen: only then can an integer have lost precision. */
  big: boolean;
  /** An object has an array-index member name (JS puts those first: text order is lost). */
  indexNames?: boolean;
}

/** Sorts member names by UTF-16 code units; insertion sort wins for the usual handful. */
function sortKeys(keys: string[]): void {
  if (keys.length > 24) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > k) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = k;
  }
}

const SAFE = 9007199254740992; // 2^53
/** Names JS orders before all others (and numerically): their text order is lost. */
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;

function checkNumber(n: number, st: WalkState): void {
  if (!(n < SAFE && n > -SAFE)) {
    if (Number.isFinite(n)) st.big = true;
    else st.nonFinite = true;
  } else if (n === 0) st.zero = true;
}

/**
 * Whether the text may hold a non-zero number literal that underflows to 0 (`1E-400`,
 * `0.000…0001` with 330 zeros): the number in the file is not the number hashed, signed
 * and replayed. RFC 8785 rounds it to 0 (the shared JCS vectors say so: num-underflow), so
 * canonicalization keeps it, with WARN_UNDERFLOW, which kinds turn into a finding as they
 * do WARN_PRECISION (a loss of value in either direction). The smallest double is about
 * 4.9e-324, so such a literal has an exponent of -100 or below or a fraction with 16 or
 * more leading zeros (with an exponent above -100, it needs over 200 of them). A cheap
 * superset found with indexOf; a hit is confirmed token by token by the precise reader.
 */
function mayUnderflow(text: string): boolean {
  if (text.indexOf('.0000000000000000') !== -1) return true;
  for (const e of ['e-', 'E-']) {
    for (let i = text.indexOf(e); i !== -1; i = text.indexOf(e, i + 2)) {
      const d = (k: number) => {
        const c = text.charCodeAt(i + k);
        return c >= 0x30 && c <= 0x39;
      };
      if (d(2) && d(3) && d(4)) return true;
    }
  }
  return false;
}

/** A number token that writes a non-zero value (a digit 1-9 before any exponent). */
function nonZeroLiteral(token: string): boolean {
  const e = token.search(/[eE]/);
  return /[1-9]/.test(e === -1 ? token : token.slice(0, e));
}

/**
 * The canonical text of an object or array, or `undefined` when V8's own JSON.stringify of
 * it already is canonical (every object in its subtree has its members in JCS order).
 * Only the out-of-order parts are serialized here, and of those the objects without
 * nested objects (most of them) still go through native JSON.stringify, with the sorted
 * member list as its property list, which fixes the output order (array-index keys
 * included, which JS itself would always put first). Checks depth and numbers on the way.
 */
function canon(v: object, depth: number, st: WalkState): string | undefined {
  if (depth >= MAX_DEPTH) throw new JcsError('ERR_DEPTH', `nesting deeper than ${MAX_DEPTH}`);
  if (Array.isArray(v)) {
    let parts: string[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const e: unknown = v[i];
      let s: string | undefined;
      if (typeof e === 'object' && e !== null) s = canon(e, depth + 1, st);
      else if (typeof e === 'number') checkNumber(e, st);
      if (s !== undefined && parts === undefined) {
        parts = new Array<string>(v.length);
        for (let j = 0; j < i; j++) parts[j] = JSON.stringify(v[j]);
      }
      if (parts !== undefined) parts[i] = s ?? JSON.stringify(e);
    }
    return parts === undefined ? undefined : '[' + parts.join(',') + ']';
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  let sorted = true;
  let leaf = true;
  let dirty: Map<string, string> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (i > 0 && !(keys[i - 1]! < k)) sorted = false;
    const c0 = k.charCodeAt(0);
    if (c0 >= 0x30 && c0 <= 0x39 && ARRAY_INDEX.test(k)) st.indexNames = true;
    const e = o[k];
    if (typeof e === 'object' && e !== null) {
      leaf = false;
      const s = canon(e, depth + 1, st);
      if (s !== undefined) (dirty ??= new Map()).set(k, s);
    } else if (typeof e === 'number') checkNumber(e, st);
  }
  if (sorted && dirty === undefined) return undefined;
  if (!sorted) sortKeys(keys);
  if (leaf) return JSON.stringify(o, keys);
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (i > 0) out += ',';
    out += JSON.stringify(k) + ':' + (dirty?.get(k) ?? JSON.stringify(o[k]));
  }
  return out + '}';
}

/** Checks and serializes a value (throws ERR_DEPTH; reports non-finite numbers in `st`). */
function serialize(value: unknown, st: WalkState): string {
  if (typeof value === 'object' && value !== null) return canon(value, 0, st) ?? JSON.stringify(value);
  if (typeof value === 'number') checkNumber(value, st);
  return JSON.stringify(value);
}

export interface StrictParse {
  value: unknown;
  /** The canonical text; with `{ lazy: true }` computed on first access (and kept). */
  readonly canonical: string;
  warnings: JcsWarning[];
  /**
   * Every object's members appear in the *text* in JCS order (no array-index names, whose
   * order JS does not keep). Then the canonical text is the input without insignificant
   * whitespace, provided strings and numbers are written canonically too.
   */
  inOrder: boolean;
  /**
   * The canonical text of the parsed top-level object without one of its members (a
   * signed document's payload without its signature). The whole document is never
   * serialized for it. A value that is not an object has nothing to omit: its canonical
   * text.
   */
  canonicalWithout(member: string): string;
}

export interface ParseOptions {
  /**
   * Do not serialize the canonical text unless `canonical` is read. Duplicate members are
   * then found by counting (member names plus colons inside strings of the value, against
   * colons of the text) instead of against the canonical text. For large documents whose
   * canonical text is needed only in parts, or in another form.
   */
  lazy?: boolean;
  /**
   * With `lazy`: asked once, right after JSON.parse accepted the text; true means that
   * `stripToCanonical` of the same bytes returned a result with `ordered` (from another
   * thread: app/workers/canonical.ts). Then the walk is skipped: that result already
   * proves members in order without duplicates, canonical (finite, exact) numbers and
   * strings without escaped surrogates or colons.
   */
  proven?: () => boolean;
}

/** What one walk over a parsed value learns without serializing it. */
interface Inspection extends WalkState {
  inOrder: boolean;
  /** Member names plus colons inside member names and string values. */
  colons: number;
}

function stringColons(s: string, ins: Inspection): void {
  if (s.length > 0 && s.indexOf(':') !== -1) ins.colons += countChar(s, ':');
}

function inspect(v: object, depth: number, ins: Inspection): void {
  if (depth >= MAX_DEPTH) throw new JcsError('ERR_DEPTH', `nesting deeper than ${MAX_DEPTH}`);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const e: unknown = v[i];
      if (typeof e === 'object' && e !== null) inspect(e, depth + 1, ins);
      else if (typeof e === 'number') checkNumber(e, ins);
      else if (typeof e === 'string') stringColons(e, ins);
    }
    return;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  ins.colons += keys.length;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (i > 0 && !(keys[i - 1]! < k)) ins.inOrder = false;
    const c0 = k.charCodeAt(0);
    if (c0 >= 0x30 && c0 <= 0x39 && ARRAY_INDEX.test(k)) ins.inOrder = false;
    stringColons(k, ins);
    const e = o[k];
    if (typeof e === 'object' && e !== null) inspect(e, depth + 1, ins);
    else if (typeof e === 'number') checkNumber(e, ins);
    else if (typeof e === 'string') stringColons(e, ins);
  }
}

/**
 * Parses JSON text with every I-JSON check and returns the value and its canonical text.
 * Throws JcsError (with a pointer) when the text must be refused.
 */
export function parseCanonical(text: string, options: ParseOptions = {}): StrictParse {
  if (text.charCodeAt(0) === 0xfeff) throw new JcsError('ERR_BOM', 'a byte-order mark precedes the JSON text');
  if (!text.isWellFormed()) return fail(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail(text);
  }
  // Both escape checks below look for \u escapes; most documents have none at all.
  const escapes = text.indexOf('\\u') !== -1;
  if (escapes && ESCAPED_SURROGATE.test(text)) {
    // Escaped surrogates are legal only in pairs; let the precise validator decide.
    const err = diagnose(text);
    if (err) throw err;
  }
  // Duplicate members collapse in JSON.parse. Every member has exactly one colon in the
  // input, and the value keeps every colon inside the strings that survive. JSON.stringify
  // never escapes a colon; with no \u003a escapes in the input, equal counts prove that no
  // member was lost (a lost member takes at least its own colon with it).
  const escapedColon = escapes && ESCAPED_COLON.test(text);
  let canonical: string | undefined;
  let inOrder: boolean;
  let big: boolean;
  let zero = false;
  try {
    if (options.lazy && options.proven?.()) {
      inOrder = true;
      big = false;
    } else if (options.lazy) {
      const colonsText = countChar(text, ':');
      const ins: Inspection = { nonFinite: false, big: false, inOrder: true, colons: 0 };
      if (typeof value === 'object' && value !== null) inspect(value, 0, ins);
      else if (typeof value === 'number') checkNumber(value, ins);
      else if (typeof value === 'string') stringColons(value, ins);
      if (ins.nonFinite) return fail(text);
      if (colonsText !== ins.colons || escapedColon) {
        const err = diagnose(text);
        if (err) throw err;
      }
      inOrder = ins.inOrder;
      big = ins.big;
      zero = ins.zero === true;
    } else {
      const colonsText = countChar(text, ':');
      const st: WalkState = { nonFinite: false, big: false };
      const c = typeof value === 'object' && value !== null ? canon(value, 0, st) : undefined;
      if (st.nonFinite) return fail(text);
      canonical = c ?? serialize(value, st);
      if (st.nonFinite) return fail(text);
      if (colonsText !== countChar(canonical, ':') || escapedColon) {
        const err = diagnose(text);
        if (err) throw err;
      }
      inOrder = c === undefined && !st.indexNames;
      big = st.big;
      zero = st.zero === true;
    }
  } catch (e) {
    if (e instanceof JcsError) return fail(text);
    throw e;
  }
  const warnings = (big && LONG_MANTISSA.test(text)) || (zero && mayUnderflow(text)) ? precisionWarnings(text) : [];
  return new Parsed(value, canonical, warnings, inOrder);
}

/**
 * A parse result whose canonical text is serialized on first read. A class, not an object
 * literal with `get canonical()`: V8 gives every such literal its own hidden class in old
 * space, whose getter closure then keeps the text and the parsed value alive through
 * young-generation collections (measured: ~9 KB promoted per small dump, and twice the
 * scavenge time, in a batch of 10,000).
 */
class Parsed implements StrictParse {
  constructor(
    readonly value: unknown,
    private text: string | undefined,
    readonly warnings: JcsWarning[],
    readonly inOrder: boolean,
  ) {}

  // With every member in order (and no array-index names), JSON.stringify of the parsed
  // value already is the canonical text: ES number and string forms are JCS's, the parse
  // refused non-finite numbers and lone surrogates, and JSON.parse kept the text's order.
  get canonical(): string {
    if (this.text === undefined) this.text = this.inOrder ? JSON.stringify(this.value) : serialize(this.value, { nonFinite: false, big: false });
    return this.text;
  }

  canonicalWithout(member: string): string {
    const v = this.value;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return this.canonical;
    const { [member]: _omitted, ...rest } = v as Record<string, unknown>;
    return this.inOrder ? JSON.stringify(rest) : serialize(rest, { nonFinite: false, big: false });
  }
}

function fail(text: string): never {
  const err = diagnose(text);
  if (err) throw err;
  // The fast path saw a problem the precise validator does not confirm: never guess.
  throw new JcsError('ERR_SYNTAX', 'the JSON text was refused (internal disagreement between validators)');
}

/** Canonical text of JSON text (throws JcsError). */
export function canonicalizeText(text: string): string {
  return parseCanonical(text).canonical;
}

/** Canonical UTF-8 bytes of JSON bytes (throws JcsError). */
export function canonicalizeBytes(bytes: Uint8Array): Buffer {
  return Buffer.from(canonicalizeText(decodeJsonBytes(bytes)), 'utf8');
}

// ---------------------------------------------------------------------------
// Canonical bytes straight from canonically written bytes

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
/** At most this many spans are recorded below the top level (bounded memory). */
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
 * the document is parsed (app/workers/canonical.ts).
 */
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

export function stripToCanonical(input: Uint8Array): Stripped | null {
  const b = input;
  const n = b.length;
  const out = new Uint8Array(n);
  const members: MemberSpan[] = [];
  let o = 0; // bytes written
  let start = 0; // start of the pending span of input to copy
  let i = 0;
  let depth = 0;
  let spans = 0;
  // Per open container (index depth - 1): its member list when spanned, else null; the
  // member being read; whether a member name comes next.
  const lists: (MemberSpan[] | null)[] = [];
  const current: (MemberSpan | null)[] = [];
  const expectName: boolean[] = [];
  const isObject: boolean[] = [];
  // Per open object: where its previous member name's bytes start (-1: none yet) and end.
  const prevName: number[] = [];
  const prevNameEnd: number[] = [];
  let ordered = true;
  // Numbers that need printing to be sure (most numbers in model outputs have 16-17
  // digits) are collected into one JSON array text and checked together: one native parse
  // and one native print of the whole batch instead of a string and a Number per number.
  const batch = new NumberBatch();
  // Inside strings, four bytes at a time: the aligned 32-bit words of the input (word w
  // holds bytes 4w - off … 4w - off + 3), tested for a '"' or '\\' byte in one go.
  const off = b.byteOffset & 3;
  const words = new Int32Array(b.buffer, b.byteOffset - off, (n + off) >> 2);
  const wEnd = words.length;
  while (i < n) {
    const c = b[i]!;
    if (c === 0x22) {
      const q = i;
      i++;
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
        // Unterminated: the parse will refuse the text (this runs before it, on another thread).
        if (i >= n) return null;
        if (d === 0x22) break;
        const e = b[i + 1]!;
        if (e === 0x75) {
          if (!isCanonicalUnicodeEscape(b, i)) return null;
          i += 6;
        } else if (e === 0x2f) return null; // \/ is written raw
        else i += 2;
      }
      i++;
      if (depth > 0 && expectName[depth - 1]) {
        expectName[depth - 1] = false;
        if (ordered) {
          const s1 = q + 1;
          const e1 = i - 1;
          if (e1 > s1 && b[s1]! >= 0x30 && b[s1]! <= 0x39) ordered = false;
          for (let k = s1; k < e1 && ordered; k++) if (b[k]! >= 0x80 || b[k] === 0x5c) ordered = false;
          const ps = prevName[depth - 1]!;
          if (ordered && ps >= 0 && !bytesAfter(b, s1, e1, ps, prevNameEnd[depth - 1]!)) ordered = false;
          prevName[depth - 1] = s1;
          prevNameEnd[depth - 1] = e1;
        }
        const list = lists[depth - 1];
        if (list) {
          let name = NAME_DECODER.decode(b.subarray(q + 1, i - 1));
          if (name.includes('\\')) {
            try {
              name = JSON.parse(NAME_DECODER.decode(b.subarray(q, i))) as string;
            } catch {
              return null; // not JSON: the parse will say why
            }
          }
          const m: MemberSpan = { name, start: o + (q - start), value: -1, end: -1 };
          list.push(m);
          current[depth - 1] = m;
          spans++;
        }
      }
    } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      if (i > start) {
        out.set(b.subarray(start, i), o);
        o += i - start;
      }
      i++;
      while (i < n && (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09)) i++;
      start = i;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
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
      if (!plain && !batch.add(b, s, i)) return null;
    } else {
      if (c === 0x7b || c === 0x5b) {
        // The member this container is the value of (when its parent is spanned).
        const parent = depth > 0 ? current[depth - 1] : null;
        let list: MemberSpan[] | null = null;
        if (c === 0x7b && depth < SPAN_DEPTH && (depth === 0 || (parent && spans < MAX_SPANS))) {
          list = depth === 0 ? members : (parent!.members = []);
        }
        lists[depth] = list;
        current[depth] = null;
        isObject[depth] = c === 0x7b;
        expectName[depth] = c === 0x7b;
        prevName[depth] = -1;
        if (depth >= MAX_DEPTH) ordered = false;
        depth++;
      } else if (c === 0x7d || c === 0x5d) {
        depth--;
        const m = current[depth];
        if (m) m.end = o + (i - start);
      } else if (c === 0x3a) {
        const m = depth > 0 ? current[depth - 1] : null;
        if (m) m.value = o + (i - start) + 1;
      } else if (c === 0x2c && depth > 0) {
        const m = current[depth - 1];
        if (m) {
          m.end = o + (i - start);
          current[depth - 1] = null;
        }
        if (isObject[depth - 1]) expectName[depth - 1] = true;
      }
      i++;
    }
  }
  if (n > start) {
    out.set(b.subarray(start, n), o);
    o += n - start;
  }
  if (!batch.flush()) return null;
  return { bytes: out.subarray(0, o), members, ordered };
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

/**
 * Canonical text of an in-memory value (for values Reprise builds itself, or parts of a
 * value that `parseCanonical` already checked). Refuses non-finite numbers, lone
 * surrogates, excessive depth, and anything that is not JSON data.
 */
export function canonicalizeValue(value: unknown): string {
  checkJsonData(value);
  const st: WalkState = { nonFinite: false, big: false };
  const out = serialize(value, st);
  if (st.nonFinite) throw new JcsError('ERR_NONFINITE', 'a number is not a finite double');
  return out;
}

/**
 * Throws JcsError (with a pointer) unless an in-memory value is I-JSON data: finite numbers,
 * well-formed strings, plain objects and arrays nested at most MAX_DEPTH deep. For a value
 * assembled from parts parsed one by one (a ROM dump), whose depth no single parse saw.
 */
export function checkJsonData(value: unknown): void {
  // A fast check first; only when it finds a problem is the value walked again to name it.
  if (!isPlainData(value, 0)) checkPlainData(value, 0, '');
}

/**
 * Canonical text of a value that came out of `parseCanonical` (or a part of one): it is
 * already known to be I-JSON, so only member order is looked at. When every object is
 * already in JCS order this is one JSON.stringify. Never use it on values of other origin.
 */
export function canonicalizeParsed(value: unknown): string {
  const st: WalkState = { nonFinite: false, big: false };
  const out = serialize(value, st);
  if (st.nonFinite) throw new JcsError('ERR_NONFINITE', 'a number is not a finite double');
  return out;
}

function isPlainData(v: unknown, depth: number): boolean {
  switch (typeof v) {
    case 'string':
      return v.isWellFormed();
    case 'number':
      return Number.isFinite(v);
    case 'boolean':
      return true;
    case 'object': {
      if (v === null) return true;
      if (depth >= MAX_DEPTH) return false;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!isPlainData(v[i], depth + 1)) return false;
        return true;
      }
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const k in v) {
        if (!Object.hasOwn(v, k)) return false;
        if (!k.isWellFormed() || !isPlainData((v as Record<string, unknown>)[k], depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

function checkPlainData(v: unknown, depth: number, ptr: string): void {
  switch (typeof v) {
    case 'string':
      if (!v.isWellFormed()) throw new JcsError('ERR_LONE_SURROGATE', 'a string holds a lone surrogate', ptr);
      return;
    case 'number':
      if (!Number.isFinite(v)) throw new JcsError('ERR_NONFINITE', 'a number is not a finite double', ptr);
      return;
    case 'boolean':
      return;
    case 'object':
      if (v === null) return;
      if (depth >= MAX_DEPTH) throw new JcsError('ERR_DEPTH', `nesting deeper than ${MAX_DEPTH}`, ptr);
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) checkPlainData(v[i], depth + 1, `${ptr}/${i}`);
        return;
      }
      if (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null) {
        throw new TypeError(`not JSON data at ${ptr || '(root)'}`);
      }
      for (const k of Object.keys(v)) {
        if (!k.isWellFormed()) throw new JcsError('ERR_LONE_SURROGATE', 'a member name holds a lone surrogate', ptr);
        checkPlainData((v as Record<string, unknown>)[k], depth + 1, `${ptr}/${escapePointerToken(k)}`);
      }
      return;
    default:
      throw new TypeError(`not JSON data (${typeof v}) at ${ptr || '(root)'}`);
  }
}

// ---------------------------------------------------------------------------
// The precise validator: a position-tracking JSON reader (RFC 8259 grammar) that returns
// the first I-JSON violation with its pointer. Only used when the fast path is suspicious.

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

class Reader {
  pos = 0;
  constructor(readonly text: string) {}
  err(code: JcsErrorCode, msg: string, pointer?: string, at = this.pos): JcsError {
    return new JcsError(code, msg, pointer, at, this.text);
  }
  ws(): void {
    const t = this.text;
    while (this.pos < t.length && WS.has(t.charCodeAt(this.pos))) this.pos++;
  }
  /** Reads a string token, returns its value; `ptr` names where it stands. */
  str(ptr: string, isKey: boolean): string {
    const t = this.text;
    const start = this.pos;
    this.pos++; // opening quote
    let out = '';
    let chunk = this.pos;
    for (;;) {
      if (this.pos >= t.length) throw this.err('ERR_SYNTAX', 'unterminated string', ptr, start);
      const c = t.charCodeAt(this.pos);
      if (c === 0x22) {
        out += t.slice(chunk, this.pos);
        this.pos++;
        break;
      }
      if (c < 0x20) throw this.err('ERR_SYNTAX', 'unescaped control character in a string', ptr);
      if (c === 0x5c) {
        out += t.slice(chunk, this.pos);
        const e = t.charCodeAt(this.pos + 1);
        const simple: Record<number, string> = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };
        if (simple[e] !== undefined) {
          out += simple[e];
          this.pos += 2;
        } else if (e === 0x75) {
          const hex = t.slice(this.pos + 2, this.pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw this.err('ERR_SYNTAX', 'bad \\u escape', ptr);
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 6;
        } else throw this.err('ERR_SYNTAX', 'bad escape in a string', ptr);
        chunk = this.pos;
        continue;
      }
      this.pos++;
    }
    if (!out.isWellFormed()) {
      throw this.err('ERR_LONE_SURROGATE', `${isKey ? 'a member name' : 'a string'} holds a lone surrogate`, ptr, start);
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
    if (!Number.isFinite(n)) throw this.err('ERR_NONFINITE', `the number ${r[0]} is not a finite double`, ptr);
    if (warnings && n === 0 && nonZeroLiteral(r[0])) {
      warnings.push({ code: 'WARN_UNDERFLOW', message: `the number ${r[0].length > 40 ? r[0].slice(0, 37) + '...' : r[0]} is not zero, but its nearest double is (it underflows); RFC 8785 writes 0`, pointer: ptr });
    }
    if (warnings && !(n < SAFE && n > -SAFE) && losesPrecision(r[0], n)) {
      const what = /[.eE]/.test(r[0]) ? 'number' : 'integer';
      warnings.push({ code: 'WARN_PRECISION', message: `the ${what} ${r[0]} is not exactly representable (beyond 2^53 a double holds only some integers); RFC 8785 writes ${String(n)}`, pointer: ptr });
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
    if (c === 0x7b) {
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
        const childPtr = `${ptr}/${escapePointerToken(key)}`;
        if (seen.has(key)) throw this.err('ERR_DUPLICATE_KEY', `duplicate member name ${JSON.stringify(key)}`, childPtr, keyAt);
        seen.add(key);
        this.ws();
        if (t.charCodeAt(this.pos) !== 0x3a) throw this.err('ERR_SYNTAX', "expected ':'", childPtr);
        this.pos++;
        this.value(childPtr, depth + 1, warnings);
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
    if (c === 0x5b) {
      this.pos++;
      this.ws();
      if (t.charCodeAt(this.pos) === 0x5d) {
        this.pos++;
        return;
      }
      for (let i = 0; ; i++) {
        this.value(`${ptr}/${i}`, depth + 1, warnings);
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

/** A JSON number token as digits × 10^exponent, digits without leading or trailing zeros. */
function decimalParts(token: string): { digits: string; exponent: number } {
  const m = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(token)!;
  const frac = m[2] ?? '';
  let digits = (m[1]! + frac).replace(/^0+/, '');
  let exponent = Number(m[3] ?? 0) - frac.length;
  const trimmed = digits.replace(/0+$/, '');
  exponent += digits.length - trimmed.length;
  digits = trimmed;
  return { digits, exponent };
}

/**
 * True when the value a number token writes is not its double `n` (|n| >= 2^53, where
 * doubles are integers), in any notation: `9007199254740993`, `9007199254740993.0`,
 * `9.007199254740993e15`, `9007199254740992.5`. A token that spells the shortest form of
 * its double (`1e300`, the text RFC 8785 itself writes) is not flagged, though its decimal
 * value is not the double's exact binary value.
 */
function losesPrecision(token: string, n: number): boolean {
  const t = decimalParts(token);
  const c = decimalParts(String(Math.abs(n)).replace('e+', 'e'));
  if (t.digits === c.digits && t.exponent === c.exponent) return false;
  // A fraction cannot equal a double beyond 2^53 (an integer); an integer is compared exactly.
  if (t.exponent < 0) return true;
  return BigInt(t.digits || '0') * 10n ** BigInt(t.exponent) !== BigInt(Math.abs(n));
}

function precisionWarnings(text: string): JcsWarning[] {
  const warnings: JcsWarning[] = [];
  const r = new Reader(text);
  r.value('', 0, warnings);
  return warnings;
}

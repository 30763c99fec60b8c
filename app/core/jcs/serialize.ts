/**
 * Canonical serialization of parsed or in-memory values: V8's own JSON.stringify for the
 * leaves, members sorted only where they are out of order.
 */
import { escapePointerToken } from '../closed.js';
import { JcsError, MAX_DEPTH } from './errors.js';

export interface WalkState {
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

export const SAFE = 9007199254740992; // 2^53
/** Names JS orders before all others (and numerically): their text order is lost. */
export const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;

export function checkNumber(n: number, st: WalkState): void {
  if (!(n < SAFE && n > -SAFE)) {
    if (Number.isFinite(n)) st.big = true;
    else st.nonFinite = true;
  } else if (n === 0) st.zero = true;
}

/**
 * The canonical text of an object or array, or `undefined` when V8's own JSON.stringify of
 * it already is canonical (every object in its subtree has its members in JCS order).
 * Only the out-of-order parts are serialized here, and of those the objects without
 * nested objects (most of them) still go through native JSON.stringify, with the sorted
 * member list as its property list, which fixes the output order (array-index keys
 * included, which JS itself would always put first). Checks depth and numbers on the way.
 */
export function canon(v: object, depth: number, st: WalkState): string | undefined {
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

/** What `sortedCopy` saw besides the walk's checks. */
interface CopyState {
  nonFinite: boolean;
  big: boolean;
  zero: boolean;
  /** An object needed reordering that a copy cannot hold in order (see sortedCopy). */
  uncopyable: boolean;
  /** Check that the value is JSON data on the same walk (a value built in memory); `notData` when it is not. */
  check: boolean;
  notData: boolean;
}

/** Under `st.check`: whether a leaf is not JSON data (a lone surrogate, a non-finite number, anything not JSON). */
function leafNotData(e: unknown): boolean {
  switch (typeof e) {
    case 'string':
      return !e.isWellFormed();
    case 'number':
      return !Number.isFinite(e);
    case 'boolean':
      return false;
    default:
      return e !== null;
  }
}

/**
 * A copy of `v` whose every object has its members inserted in JCS order (only the parts
 * out of order are copied), or `undefined` when `v` already is in that order. One native
 * JSON.stringify of the copy is then the canonical text: for values built in memory (a
 * report, whose objects are seldom in JCS order) that is about twice as fast as `canon`'s
 * text of every reordered object. Two orders no insertion order can give: JS lists
 * array-index names first and numerically, and assigning `__proto__` sets the prototype;
 * an object that needs reordering and holds either sets `st.uncopyable`, and the caller
 * serializes with `canon` instead. Checks depth and numbers on the way, as canon does.
 */
function sortedCopy(v: object, depth: number, st: CopyState): object | undefined {
  if (depth >= MAX_DEPTH) {
    if (st.check) return void (st.notData = true); // checkPlainData names where
    throw new JcsError('ERR_DEPTH', `nesting deeper than ${MAX_DEPTH}`);
  }
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length && !st.notData; i++) {
      const e: unknown = v[i];
      if (typeof e === 'object' && e !== null) {
        const c = sortedCopy(e, depth + 1, st);
        if (c !== undefined) (out ??= v.slice(0))[i] = c;
      } else {
        if (typeof e === 'number') checkNumber(e, st);
        if (st.check && leafNotData(e)) st.notData = true;
      }
    }
    return out;
  }
  if (st.check) {
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return void (st.notData = true);
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  let sorted = true;
  let odd = false;
  let dirty: Map<string, object> | undefined;
  for (let i = 0; i < keys.length && !st.notData; i++) {
    const k = keys[i]!;
    if (i > 0 && !(keys[i - 1]! < k)) sorted = false;
    const c0 = k.charCodeAt(0);
    if ((c0 >= 0x30 && c0 <= 0x39 && ARRAY_INDEX.test(k)) || k === '__proto__') odd = true;
    const e = o[k];
    if (typeof e === 'object' && e !== null) {
      const c = sortedCopy(e, depth + 1, st);
      if (c !== undefined) (dirty ??= new Map()).set(k, c);
    } else {
      if (typeof e === 'number') checkNumber(e, st);
      if (st.check && leafNotData(e)) st.notData = true;
    }
    if (st.check && !k.isWellFormed()) st.notData = true;
  }
  if (sorted && dirty === undefined) return undefined;
  if (odd) {
    st.uncopyable = true;
    return undefined;
  }
  if (!sorted) sortKeys(keys);
  // A literal, not Object.create(null) (a dictionary-mode object, several times slower to
  // fill and to stringify): the only inherited name an assignment would not make its own,
  // `__proto__`, never reaches here (odd, above).
  // eslint-disable-next-line no-restricted-syntax
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    out[k] = dirty?.get(k) ?? o[k];
  }
  return out;
}

/**
 * Checks and serializes a value (throws ERR_DEPTH; reports non-finite numbers in `st`).
 * `check`: also check on the same walk that it is JSON data, and throw as checkJsonData
 * does (naming where) when it is not.
 */
export function serialize(value: unknown, st: WalkState, check = false): string {
  if (typeof value === 'object' && value !== null) {
    // Every member set from the start: a state whose shape grows as flags are first set
    // sends the walk's optimized code back to the interpreter ("wrong map") again and again.
    const cs: CopyState = { nonFinite: false, big: false, zero: false, uncopyable: false, check, notData: false };
    const copy = sortedCopy(value, 0, cs);
    if (cs.notData) checkPlainData(value, 0, '');
    if (cs.nonFinite) st.nonFinite = true;
    if (cs.big) st.big = true;
    if (cs.zero) st.zero = true;
    if (!cs.uncopyable) return JSON.stringify(copy ?? value);
    return canon(value, 0, st) ?? JSON.stringify(value);
  }
  if (check) checkJsonData(value);
  if (typeof value === 'number') checkNumber(value, st);
  return JSON.stringify(value);
}

/**
 * Canonical text of an in-memory value (for values Reprise builds itself, or parts of a
 * value that `parseCanonical` already checked). Refuses non-finite numbers, lone
 * surrogates, excessive depth, and anything that is not JSON data.
 */
export function canonicalizeValue(value: unknown): string {
  const st: WalkState = { nonFinite: false, big: false };
  const out = serialize(value, st, true);
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

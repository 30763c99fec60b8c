/**
 * The structured diff of two JSON values (`reprise.diff/v1`, docs/compare.md): every
 * difference by its RFC 6901 pointer, changed, added or removed; two numbers with their
 * exact decimal difference (shared/exact-decimal.ts, never a float subtraction), or, when a
 * double does not keep the literal written, by that literal (NumberLiterals); two strings
 * with the changed span (the common prefix and suffix, the span between). One module, pure,
 * shared by the CLI (`reprise diff`) and the window (DiffView), so both say the same.
 *
 * Bounded: the walk keeps its own stack (no recursion, so no depth can overflow it), walks
 * each value once (the alignment's comparisons aside, which ALIGN_BUDGET bounds), copies no
 * value (entries hold references to the inputs; an aligned run's item list is copied, as
 * references), and lists at most `limit` differences while counting all of them; the result
 * says when it listed fewer. It also stops listing once the listed pointers reach
 * POINTER_BUDGET units: a difference repeats the whole path above it, so without that bound
 * a thousand leaves under one long path list a thousand times the path (`truncatedBy`).
 * Two arrays are aligned (shared/align.ts): their equal ends matched, the run between
 * aligned on its equal items, so each item inserted or deleted anywhere is one `added` (a
 * pointer into b) or `removed` (a pointer into a) entry, even where an insertion and a
 * deletion leave the lengths equal, and the items that differ between are compared field by
 * field. An item the alignment moved (a[5] against b[6]) gives its differences a
 * `rightPointer`, the pointer into b. All matching compares at most ALIGN_BUDGET values in
 * one diff: past it, arrays are compared by position, so the walk's cost stays bounded
 * whatever the input.
 */
import { alignedRun, equalEnds, type AlignedRows } from './align.js';
import { exactDifference } from './exact-decimal.js';
import { decimalKey } from './decimal-key.js';
import type { NumberLiterals } from './number-literals.js';
import { escapeControls, type ShownAs } from './controls.js';

/**
 * What a diff escapes where it shows a value, a span or a pointer: every control, and every
 * character Unicode lets a renderer draw as nothing (Default_Ignorable_Code_Point: the format
 * characters, and the variation selectors, U+180B-U+180F, the Hangul fillers…), so a change
 * or a member added that is only such characters is seen (shared/controls.ts everyInvisible).
 */
const SHOWN: ShownAs = Object.freeze({ everyInvisible: true });

/**
 * Text of a value as the terminal, the window and the page show it: every control and
 * invisible character escaped, and a typed backslash doubled where it could read as an
 * escape (shared/controls.ts), in one step, so nothing escapes it twice.
 */
const shownRaw = (s: string): string => escapeControls(s, SHOWN);
import {
  cutIndex,
  GRAPHEME_WINDOW,
  graphemeBoundaries,
  isHighSurrogate,
  isLowSurrogate,
  isPlainBoundary,
} from './text-cut.js';
import { escapePointerToken } from './json-pointer.js';
import { isPlainObject } from './plain-object.js';
import type { JsonValue, Report } from './report.js';

export { decimalKey } from './decimal-key.js';
export { cutIndex } from './text-cut.js';
export { NumberLiterals, parseKeepingLiterals } from './number-literals.js';

export const DIFF_SCHEMA = 'reprise.diff/v1' as const;
/** Differences listed by default; the rest are counted. */
export const DEFAULT_DIFF_LIMIT = 1000;
/**
 * UTF-16 units of pointers (and right pointers) listed at most, lengths' included: once the
 * listed ones reach it, the rest are only counted. Each entry repeats its whole pointer, and
 * a pointer may be as long as its input (names of 65,536 characters, 512 deep), so the count
 * alone let 1,000 entries list ~1,000x the input. Eight million keeps 100,000 entries (the
 * page's most) at 80 units each, and the listing's pointers at some 16 MB whatever the input;
 * the entry that reaches it is still listed whole (a cut pointer leads nowhere), so the
 * pointers listed total at most this plus one pointer pair, which the input bounds.
 */
export const POINTER_BUDGET = 8_000_000;

/** The kind of content no kind claims (shared/report.ts ARTIFACT_KINDS). */
const UNKNOWN_KIND = 'unknown';

/**
 * Whether a diff compares artifacts of these two kinds: of one kind, or content no kind
 * claims against an artifact of any kind. An artifact whose kind's mark was removed (a dump
 * without its `type`) reads as unknown: comparing it with the intact one shows that member
 * gone, which is what a reviewer asks the diff for. Two different known kinds share no
 * fields worth lining up.
 */
export function comparableKinds(left: string, right: string): boolean {
  return left === right || left === UNKNOWN_KIND || right === UNKNOWN_KIND;
}

/** The words a diff's heading gives two artifacts, by their kinds: `two replay-dump artifacts`. */
export function artifactsWords(left: string, right: string): string {
  const a = (k: string) => `${/^[aeiou]/.test(k) ? 'an' : 'a'} ${k}`;
  return left === right ? `two ${left} artifacts` : `${a(left)} artifact and ${a(right)} artifact`;
}
/** Values compared in one diff to align arrays (module comment). */
export const ALIGN_BUDGET = 1_000_000;

export type DiffOp = 'changed' | 'added' | 'removed';

/** Where two strings differ, in UTF-16 code units: `prefix` units agree at the start, `suffix` at the end. */
export interface StringSpan {
  prefix: number;
  suffix: number;
  /** The changed span's length on each side (between prefix and suffix). */
  left: number;
  right: number;
}

export interface DiffEntry {
  op: DiffOp;
  /** RFC 6901 pointer: into both values when changed, into b when added, into a when removed (as JSON Patch reads them). */
  pointer: string;
  /** Changed: the pointer into b, when it is not `pointer` (an array item the alignment moved). */
  rightPointer?: string;
  /** Absent when added. */
  left?: JsonValue;
  /** Absent when removed. */
  right?: JsonValue;
  /** Two numbers: right − left, exactly, as decimal text. */
  difference?: string;
  /** Two strings: the changed span. */
  span?: StringSpan;
  /**
   * A number whose double does not keep the literal written (`9007199254740993`, `1e-400`;
   * NumberLiterals): that literal, compared as written; `left` or `right` holds its double.
   */
  leftLiteral?: string;
  rightLiteral?: string;
  /**
   * An array or object holding such a number (NumberLiterals.json): its JSON text with each
   * one written as its literal, as the file writes it, which the views show in place of
   * JSON.stringify's text of `left` or `right` (whose doubles would show a number in neither
   * file). Only for a value shown whole (added, removed, a change of type).
   */
  leftText?: string;
  rightText?: string;
}

/** An array (or string) whose length differs between the sides. */
export interface LengthChange {
  /** Into a (and b, unless `rightPointer` says otherwise). */
  pointer: string;
  rightPointer?: string;
  left: number;
  right: number;
}

export interface DiffResult {
  schema: typeof DIFF_SCHEMA;
  identical: boolean;
  /** Every difference found, listed or not. */
  total: number;
  /** The most listed (`differences.length` ≤ limit). */
  limit: number;
  /** The listed pointers' total length (UTF-16 units) past which no more are listed (POINTER_BUDGET). */
  pointerBudget: number;
  truncated: boolean;
  /**
   * Why fewer were listed than found: `limit` (the count) or `pointers` (the listed
   * pointers reached `pointerBudget`); null when every difference is listed.
   */
  truncatedBy: 'limit' | 'pointers' | null;
  differences: DiffEntry[];
  /** Arrays whose lengths differ, in the order met (at most `limit`, within `pointerBudget`). */
  lengths: LengthChange[];
}

type Obj = { [k: string]: JsonValue };
const isObj = (v: JsonValue): v is Obj => isPlainObject(v);

/**
 * The changed span of two different strings, its ends on grapheme boundaries of both sides:
 * `café` against `cafè` changes `é` to `è`, never a bare accent after a shared `e`, and one
 * flag against another is a flag changed, not half of one.
 */
export function stringSpan(a: string, b: string): StringSpan {
  const max = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < max && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  // Never split a surrogate pair: a span starting on a low surrogate starts at its pair.
  if (prefix > 0 && isHighSurrogate(a.charCodeAt(prefix - 1))) prefix--;
  prefix = spanStart(a, b, prefix);
  let suffix = 0;
  while (suffix < max - prefix && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)) suffix++;
  if (suffix > 0 && isLowSurrogate(a.charCodeAt(a.length - suffix))) suffix--;
  suffix = spanEndLength(a, b, suffix);
  return { prefix, suffix, left: a.length - prefix - suffix, right: b.length - prefix - suffix };
}

/**
 * The span's start: the common prefix's length moved back to the nearest place that is a
 * grapheme boundary of both sides (the two agree before it, so one place serves both),
 * at most GRAPHEME_WINDOW back; where none is that near, the prefix as it was.
 */
function spanStart(a: string, b: string, prefix: number): number {
  if (isPlainBoundary(a, prefix) && isPlainBoundary(b, prefix)) return prefix;
  const lo = Math.max(0, prefix - GRAPHEME_WINDOW);
  const [ba, bb] = [graphemeBoundaries(a, lo, prefix), graphemeBoundaries(b, lo, prefix)];
  for (let n = prefix; n >= lo; n--) if (ba.has(n) && bb.has(n)) return n;
  return prefix;
}

/** The span's end, as the common suffix's length: spanStart's rule from the strings' ends. */
function spanEndLength(a: string, b: string, suffix: number): number {
  const [ea, eb] = [a.length - suffix, b.length - suffix];
  if (isPlainBoundary(a, ea) && isPlainBoundary(b, eb)) return suffix;
  const lo = Math.max(0, suffix - GRAPHEME_WINDOW);
  const [ba, bb] = [graphemeBoundaries(a, ea, a.length - lo), graphemeBoundaries(b, eb, b.length - lo)];
  for (let k = suffix; k >= lo; k--) if (ba.has(a.length - k) && bb.has(b.length - k)) return k;
  return suffix;
}
/** What a view says beside a number shown as its literal (DiffEntry.leftLiteral). */
export const LITERAL_NOTE = 'as written: beyond double precision, compared by its literal';
/** What a view says beside a value whose numbers beyond double precision are shown as their literals (DiffEntry.leftText). */
export const LITERALS_NOTE = 'its numbers beyond double precision as written';

/** The note a view gives one side of an entry: LITERAL_NOTE, LITERALS_NOTE or none. */
export function literalNote(e: DiffEntry, side: 'left' | 'right'): string | null {
  if ((side === 'left' ? e.leftLiteral : e.rightLiteral) !== undefined) return LITERAL_NOTE;
  return (side === 'left' ? e.leftText : e.rightText) !== undefined ? LITERALS_NOTE : null;
}

/** Pointer units a place holds: its pointer, and its right pointer when it has one. */
const placeUnits = (p: { pointer: string; rightPointer?: string }): number =>
  p.pointer.length + (p.rightPointer?.length ?? 0);

/**
 * Collects entries up to the limit and the pointer budget, and counts every one. Past
 * either an entry is only counted: no pointer text, exact difference or span is made for it.
 */
class Collector {
  readonly differences: DiffEntry[] = [];
  readonly lengths: LengthChange[] = [];
  total = 0;
  /** UTF-16 units of the pointers listed so far (differences and lengths). */
  pointerUnits = 0;
  /** What is left of ALIGN_BUDGET. */
  readonly align = { left: ALIGN_BUDGET };
  constructor(
    readonly limit: number,
    readonly literals?: NumberLiterals,
  ) {}
  /** The listed pointers reached the budget: nothing more is listed (checked before a pointer is made). */
  get spent(): boolean {
    return this.pointerUnits >= POINTER_BUDGET;
  }
  get full(): boolean {
    return this.differences.length >= this.limit || this.spent;
  }
  add(make: () => DiffEntry): void {
    this.total++;
    if (this.full) return;
    const e = make();
    this.pointerUnits += placeUnits(e);
    this.differences.push(e);
  }
  length(place: () => { pointer: string; rightPointer?: string }, left: number, right: number): void {
    if (this.lengths.length >= this.limit || this.spent) return;
    const p = place();
    this.pointerUnits += placeUnits(p);
    this.lengths.push({ ...p, left, right });
  }
  /** Why fewer were listed than counted, or null: the count unless it was the pointers. */
  get truncatedBy(): DiffResult['truncatedBy'] {
    if (this.total <= this.differences.length) return null;
    return this.differences.length < this.limit ? 'pointers' : 'limit';
  }
}

/** The literals of two leaves (NumberLiterals), each when it is a number its double does not keep. */
type Literals = { leftLiteral?: string; rightLiteral?: string };
/** The texts of two values shown whole (DiffEntry.leftText), each when it holds such a number. */
type Texts = { leftText?: string; rightText?: string };

/**
 * The texts of the values an entry shows whole (NumberLiterals.json): made only when the
 * entry is listed, and only for an array or object holding a number its double does not keep.
 */
function textsOf(x: JsonValue | undefined, y: JsonValue | undefined, literals: NumberLiterals | undefined): Texts {
  if (literals === undefined) return NO_LITERALS;
  const left = x === undefined ? undefined : literals.json(x);
  const right = y === undefined ? undefined : literals.json(y);
  return { ...(left !== undefined && { leftText: left }), ...(right !== undefined && { rightText: right }) };
}
/** A child's key on each side: a member name or an item index, null where that side has none. */
type Keys = [string | number | null, string | number | null];

/**
 * Two leaves (or values of different types) that differ: one `changed` entry. Two numbers
 * get their exact difference unless one is compared by its literal (whose exact difference
 * the doubles do not hold).
 */
function changed(
  place: { pointer: string; rightPointer?: string },
  a: JsonValue,
  b: JsonValue,
  lit: Literals,
  literals: NumberLiterals | undefined,
): DiffEntry {
  const e: DiffEntry = { op: 'changed', ...place, left: a, right: b, ...lit, ...textsOf(a, b, literals) };
  const exact = lit.leftLiteral === undefined && lit.rightLiteral === undefined;
  if (typeof a === 'number' && typeof b === 'number' && exact) e.difference = exactDifference(a, b);
  if (typeof a === 'string' && typeof b === 'string') e.span = stringSpan(a, b);
  return e;
}

/** No literal: what every leaf has but the few NumberLiterals names (one object, not one per visit). */
const NO_LITERALS: Literals & Texts = Object.freeze({});

/** The literals of `x = f.a[ka]` and `y = f.b[kb]` (a key null where that side has none). */
function literalsAt(
  f: Frame,
  [ka, kb]: Keys,
  x: JsonValue | undefined,
  y: JsonValue | undefined,
  out: Collector,
): Literals {
  const l = out.literals;
  const left = l && typeof x === 'number' ? l.get(f.a, ka!) : undefined;
  const right = l && typeof y === 'number' ? l.get(f.b, kb!) : undefined;
  if (left === undefined && right === undefined) return NO_LITERALS;
  // Only the members that are there: an entry's JSON names no literal it has not.
  return { ...(left !== undefined && { leftLiteral: left }), ...(right !== undefined && { rightLiteral: right }) };
}

/** Two leaves equal: by value, or, for a number compared by its literal, by the decimal it writes. */
function sameLeafAs(x: JsonValue, y: JsonValue, lit: Literals): boolean {
  if (lit.leftLiteral === undefined && lit.rightLiteral === undefined) return sameLeaf(x, y);
  if (typeof x !== 'number' || typeof y !== 'number') return false;
  return decimalKey(lit.leftLiteral ?? String(x)) === decimalKey(lit.rightLiteral ?? String(y));
}

/**
 * A container being walked: its children are visited one at a time, so the walk holds one
 * frame per level of nesting (not every child of a wide array at once). A pointer's text is
 * made only when an entry is listed: a frame keeps its parent and its own token.
 */
interface Frame {
  parent: Frame | null;
  /** Its token in a, and in b (the same unless an aligned array moved it). */
  token: string;
  tokenB: string;
  /** It or a container above it was moved by an alignment: its pointers into a and b differ. */
  moved: boolean;
  a: JsonValue[] | Obj;
  b: JsonValue[] | Obj;
  /** Member names in code-unit order (objects), null for arrays. */
  names: string[] | null;
  n: number;
  i: number;
  /** Arrays by position: children below `both` are on both sides; past it, only on the longer side (`aLonger`: a's). */
  both: number;
  aLonger: boolean;
  /** Arrays aligned (shared/align.ts): the children to visit, by their index on each side; null by position. */
  rows: AlignedRows | null;
}

function pointerOf(f: Frame | null, last?: string, side: 'a' | 'b' = 'a'): string {
  const tokens: string[] = last === undefined ? [] : [last];
  for (let x = f; x !== null && x.parent !== null; x = x.parent) tokens.push(side === 'a' ? x.token : x.tokenB);
  // The root frame has no token of its own.
  return tokens.length ? `/${tokens.reverse().join('/')}` : '';
}

/** Where a child on both sides is: its pointer into a, and into b when that differs. */
function placeOf(f: Frame | null, tokA: string, tokB: string): { pointer: string; rightPointer?: string } {
  const pointer = pointerOf(f, tokA);
  if (!(f?.moved || tokA !== tokB)) return { pointer };
  const right = pointerOf(f, tokB, 'b');
  return right === pointer ? { pointer } : { pointer, rightPointer: right };
}

const byCodeUnits = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/** A frame for two containers of one type, or null when the two are not. */
function frameOf(
  parent: Frame | null,
  [token, tokenB]: [string, string],
  x: JsonValue,
  y: JsonValue,
  out: Collector,
): Frame | null {
  const moved = (parent?.moved ?? false) || token !== tokenB;
  if (Array.isArray(x) && Array.isArray(y)) {
    const f = newFrame(parent, token, tokenB, moved, x, y, null, x.length);
    alignFrame(f, x, y, out);
    if (x.length !== y.length) out.length(() => placeOf(parent, token, tokenB), x.length, y.length);
    return f;
  }
  if (isObj(x) && isObj(y)) {
    const names = memberNames(x, y);
    return newFrame(parent, token, tokenB, moved, x, y, names, names.length);
  }
  return null;
}

/**
 * A frame, every member set in one order: the walk makes one per container on both sides
 * (a million in a large array of small objects), and one shape keeps its reads fast.
 */
function newFrame(
  parent: Frame | null,
  token: string,
  tokenB: string,
  moved: boolean,
  a: JsonValue[] | Obj,
  b: JsonValue[] | Obj,
  names: string[] | null,
  n: number,
): Frame {
  return { parent, token, tokenB, moved, a, b, names, n, i: 0, both: 0, aLonger: false, rows: null };
}

/**
 * The member names of two objects in code-unit order (deterministic, as RFC 8785). Two
 * objects of one shape (most, in an array of records) have the same names in the same order,
 * often already sorted: that case makes no set and no sort.
 */
function memberNames(x: Obj, y: Obj): string[] {
  const kx = Object.keys(x);
  const ky = Object.keys(y);
  let same = kx.length === ky.length;
  for (let i = 0; same && i < kx.length; i++) same = kx[i] === ky[i];
  const names = same ? kx : [...new Set([...kx, ...ky])];
  for (let i = 1; i < names.length; i++) if (!(names[i - 1]! < names[i]!)) return names.sort(byCodeUnits);
  return names;
}

/**
 * Two arrays: the equal items at both ends are matched and never walked again, and the run
 * between is aligned on its equal items (its rows), or, when the alignment finds none or
 * gives up, walked by position from `start`.
 */
function alignFrame(f: Frame, x: JsonValue[], y: JsonValue[], out: Collector): void {
  const same = (p: JsonValue, q: JsonValue): boolean | undefined =>
    out.align.left <= 0 ? undefined : sameJson(p, q, out.align);
  // sameJson compares doubles: arrays holding a number compared by its literal go by position.
  const byLiteral = out.literals !== undefined && (out.literals.holds(x) || out.literals.holds(y));
  const { start, end } = byLiteral ? { start: 0, end: 0 } : equalEnds(x, y, same);
  const rows = out.align.left > 0 && !byLiteral ? alignedRun(x, y, start, end, same) : null;
  if (rows) {
    f.rows = rows;
    f.n = rows.a.length;
    return;
  }
  const [runA, runB] = [x.length - start - end, y.length - start - end];
  f.i = start;
  f.n = start + Math.max(runA, runB);
  f.both = start + Math.min(runA, runB);
  f.aLonger = runA > runB;
}

/** Two containers being compared for equality: the next child to compare. */
interface EqFrame {
  a: JsonValue[] | Obj;
  b: JsonValue[] | Obj;
  names: string[] | null;
  i: number;
}

/**
 * Whether two values are equal as JSON (numbers by value, members in any order). It keeps
 * its own stack of one frame per level, as the diff's walk does, and stops at the first
 * difference. With a budget, it compares at most `budget.left` values (spending them) and
 * says false once the budget is spent.
 */
export function sameJson(a: JsonValue, b: JsonValue, budget = { left: Infinity }): boolean {
  // Two leaves (most items an alignment compares): no stack to make.
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null)
    return budget.left-- > 0 && sameLeaf(a, b);
  const stack: EqFrame[] = [];
  const open = (x: JsonValue, y: JsonValue): boolean => {
    if (budget.left-- <= 0) return false;
    if (sameLeaf(x, y)) return true;
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
      stack.push({ a: x, b: y, names: null, i: 0 });
      return true;
    }
    if (!isObj(x) || !isObj(y)) return false;
    const names = Object.keys(x);
    if (names.length !== Object.keys(y).length || !names.every((k) => Object.hasOwn(y, k))) return false;
    stack.push({ a: x, b: y, names, i: 0 });
    return true;
  };
  if (!open(a, b)) return false;
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    const n = f.names ? f.names.length : (f.a as JsonValue[]).length;
    if (f.i >= n) {
      stack.pop();
      continue;
    }
    const key = f.names ? f.names[f.i]! : f.i;
    f.i++;
    if (!open((f.a as Obj)[key as string]!, (f.b as Obj)[key as string]!)) return false;
  }
  return true;
}

/** Leaves equal by value: numbers by value (so `-0` is `0`, as RFC 8785 writes it). */
const sameLeaf = (a: JsonValue, b: JsonValue): boolean => a === b;

/** Visits the next child of frame `f`: a difference, or a frame to walk next (returned). */
function step(f: Frame, out: Collector): Frame | null {
  const i = f.i++;
  if (f.rows) {
    if (f.rows.same[i]) return null; // equal items are never walked again
    const [ia, ib] = [f.rows.a[i]!, f.rows.b[i]!];
    return visit(f, ia === -1 ? null : ia, ib === -1 ? null : ib, out);
  }
  if (f.names) {
    const key = f.names[i]!;
    return visit(f, Object.hasOwn(f.a, key) ? key : null, Object.hasOwn(f.b, key) ? key : null, out);
  }
  return visit(f, i < f.both || f.aLonger ? i : null, i < f.both || !f.aLonger ? i : null, out);
}

/**
 * One child of `f`, by its key on each side (a member name, or an item index; null where
 * that side has none): added, removed, or compared (a frame when both are containers).
 */
function visit(f: Frame, ka: string | number | null, kb: string | number | null, out: Collector): Frame | null {
  const x = ka === null ? undefined : (f.a as Obj)[ka];
  const y = kb === null ? undefined : (f.b as Obj)[kb];
  const tokA = ka === null ? '' : tokenOf(ka);
  const tokB = kb === null ? '' : tokenOf(kb);
  const lit = literalsAt(f, [ka, kb], x, y, out);
  const l = out.literals;
  if (ka === null)
    out.add(() => ({ op: 'added', pointer: pointerOf(f, tokB, 'b'), right: y!, ...lit, ...textsOf(undefined, y, l) }));
  else if (kb === null)
    out.add(() => ({ op: 'removed', pointer: pointerOf(f, tokA), left: x!, ...lit, ...textsOf(x, undefined, l) }));
  else {
    const child = frameOf(f, [tokA, tokB], x!, y!, out);
    if (child) return child;
    if (!sameLeafAs(x!, y!, lit)) out.add(() => changed(placeOf(f, tokA, tokB), x!, y!, lit, l));
  }
  return null;
}

const tokenOf = (k: string | number): string => (typeof k === 'string' ? escapePointerToken(k) : String(k));

/**
 * The structured diff of `a` against `b` (what changed from a to b). With `literals`, a
 * number whose double does not keep its literal is compared by that literal (the table
 * may hold both sides': their containers are not the same objects).
 */
export function diffJson(
  a: JsonValue,
  b: JsonValue,
  opts: { limit?: number; literals?: NumberLiterals } = {},
): DiffResult {
  const limit = Math.max(0, Math.floor(opts.limit ?? DEFAULT_DIFF_LIMIT));
  const out = new Collector(limit, opts.literals?.empty === false ? opts.literals : undefined);
  const root = frameOf(null, ['', ''], a, b, out);
  if (!root && !sameLeaf(a, b)) out.add(() => changed({ pointer: '' }, a, b, {}, out.literals));
  const stack: Frame[] = root ? [root] : [];
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.i >= f.n) stack.pop();
    else {
      const child = step(f, out);
      if (child) stack.push(child);
    }
  }
  return {
    schema: DIFF_SCHEMA,
    identical: out.total === 0,
    total: out.total,
    limit,
    pointerBudget: POINTER_BUDGET,
    truncated: out.total > out.differences.length,
    truncatedBy: out.truncatedBy,
    differences: out.differences,
    lengths: out.lengths,
  };
}

/** An object of the members of `o` that are there: an absent one is left out, never `undefined`. */
const present = (o: { [k: string]: JsonValue | undefined }): Obj =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Obj;

/**
 * What of a report two artifacts are compared on: every member but its run (when, how long)
 * and the path it was read from, with the artifact's parsed content when it is JSON. Every
 * member, not a list of the known ones: a saved report with a member added (a forged
 * `artifact.signedBy`) differs where it was added, never reads as identical. A member the
 * report lacks (a saved report without its chain) is absent, so the diff says `removed` or
 * `added`, not `changed` to nothing. A content that is one number its double does not keep
 * (parseKeepingLiterals's `root`) is compared by its literal through `root`.
 */
export function reportSide(
  r: Omit<Report, 'run'>,
  content?: JsonValue,
  root?: { literals: NumberLiterals; literal: string | undefined },
): JsonValue {
  const { run: _run, artifact, ...rest } = r as Report;
  const { path: _path, ...art } = artifact;
  const artifactSide = present(art as unknown as Obj);
  const side = present({
    ...(rest as unknown as Obj),
    artifact: artifactSide,
    ...(content !== undefined ? { content } : {}),
  });
  if (root !== undefined) {
    // The literals are held by container (NumberLiterals), and these two objects are new: the
    // numbers a saved report holds directly, or directly in its artifact (a forged top-level
    // `extra`, an `artifact.signedBy`), keep theirs, or two reports differing only there
    // would be compared by their doubles and called identical. Not `content`, which is not
    // the report's own member here.
    const own = Object.keys(side).filter((k) => k !== 'artifact' && (content === undefined || k !== 'content'));
    root.literals.carry(r, side, own);
    root.literals.carry(artifact, artifactSide, Object.keys(artifactSide));
    // A content that is one number its double does not keep (LiteralParse.root) has its literal here.
    if (root.literal !== undefined) root.literals.set(side, 'content', root.literal);
  }
  return side;
}

/**
 * Each comparison's name: its output, or `<output> #n` for its second and later comparisons,
 * n the first count from 2 that names no other comparison (an output may itself be called
 * `x #2`), so no two comparisons share a name.
 */
function comparisonNames(outputs: readonly string[]): string[] {
  const taken = new Set(outputs);
  const [seen, next] = [new Set<string>(), new Map<string, number>()];
  return outputs.map((o) => {
    if (!seen.has(o)) return (seen.add(o), o);
    let n = next.get(o) ?? 2;
    while (taken.has(`${o} #${n}`)) n++;
    next.set(o, n + 1);
    taken.add(`${o} #${n}`);
    return `${o} #${n}`;
  });
}

/**
 * A replay's original against its replayed: each comparison's original value on the left
 * and its replayed value on the right, by output name (`/comparisons/<output>`, `<output> #2`
 * for its second comparison: comparisonNames), and the expression a dump's replay recorded
 * and re-executed (`/expression`: its text, tokens, scores field by field). The objects are
 * built from entries, so an output named `__proto__` is a member like any other. A number
 * NumberLiterals holds moves with its value.
 */
export function replaySides(
  r: Pick<Report, 'comparisons' | 'details'>,
  literals?: NumberLiterals,
): { left: JsonValue; right: JsonValue } {
  const cs = r.comparisons ?? [];
  const names = comparisonNames(cs.map((c) => c.output));
  const side = (k: 'original' | 'replayed'): Obj => {
    const values = Object.fromEntries(cs.map((c, i) => [names[i]!, c[k] as JsonValue])) as Obj;
    cs.forEach((c, i) => {
      const lit = literals?.get(c, k);
      if (lit !== undefined) literals!.set(values, names[i]!, lit);
    });
    return values;
  };
  const left: Obj = { comparisons: side('original') };
  const right: Obj = { comparisons: side('replayed') };
  const ex = r.details?.['expression'];
  if (isObj(ex ?? null) && 'recorded' in (ex as Obj) && 'replayed' in (ex as Obj)) {
    left['expression'] = (ex as Obj)['recorded']!;
    right['expression'] = (ex as Obj)['replayed']!;
    // Moved into objects of their own: a literal goes with its number (NumberLiterals.carry).
    const lit = (k: string) => literals?.get(ex as Obj, k);
    if (lit('recorded') !== undefined) literals!.set(left, 'expression', lit('recorded')!);
    if (lit('replayed') !== undefined) literals!.set(right, 'expression', lit('replayed')!);
  }
  return { left, right };
}

/** How a tied number is held before it is known to be written one way only: as its double. */
const AS_DOUBLE = '';

/** Every number `content` holds, with the ways it writes it: each literal its double does not keep, or AS_DOUBLE. */
function spellings(content: JsonValue, literals: NumberLiterals): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  const visit = (holder: object, key: string, v: unknown): void => {
    if (typeof v === 'number') {
      let s = out.get(v);
      if (s === undefined) out.set(v, (s = new Set()));
      s.add(literals.get(holder, key) ?? AS_DOUBLE);
    } else if (typeof v === 'object' && v !== null)
      for (const k of Object.keys(v)) visit(v, k, (v as Record<string, unknown>)[k]);
  };
  if (typeof content === 'object' && content !== null)
    for (const k of Object.keys(content)) visit(content, k, (content as Record<string, unknown>)[k]);
  return out;
}

/**
 * Gives a replay's recorded values (its comparisons' `original`, a TG expression's
 * `recorded`) the literals its artifact writes them with. The engine's report holds the
 * doubles of its own parse, so a recorded `-1.69311636260910970000001` would meet the double
 * its replay computes and be called identical; `literals` and `content` are the diff's own
 * parse of the artifact's text (parseKeepingLiterals). A number has no identity of its own,
 * so a recorded number takes a literal only when every place the artifact holds that double
 * writes it so; one the artifact writes in two ways (a literal here, its double there) cannot
 * be told, and is counted: the caller must not call that replay identical. Returns that count.
 */
export function tieReplayLiterals(
  r: Pick<Report, 'comparisons' | 'details'>,
  content: JsonValue,
  literals: NumberLiterals,
): number {
  if (literals.empty) return 0;
  const seen = spellings(content, literals);
  let undecided = 0;
  const tie = (holder: object, key: string): boolean => {
    const v = (holder as Record<string, unknown>)[key];
    if (typeof v === 'number') {
      const ways = seen.get(v);
      if (ways === undefined || (ways.size === 1 && ways.has(AS_DOUBLE))) return false;
      if (ways.size > 1) {
        undecided++;
        return false;
      }
      literals.set(holder, key, [...ways][0]!);
      return true;
    }
    if (typeof v !== 'object' || v === null) return false;
    let any = false;
    for (const k of Object.keys(v)) any = tie(v, k) || any;
    if (any) literals.mark(v);
    return any;
  };
  for (const c of r.comparisons ?? []) tie(c, 'original');
  const ex = r.details?.['expression'];
  if (isObj(ex ?? null) && 'recorded' in (ex as Obj)) tie(ex as Obj, 'recorded');
  return undecided;
}

/**
 * Where a difference (or a length) is, as the terminal, the window and the page show it:
 * its pointer, and the pointer into the right side when the alignment moved it there.
 */
export function shownPlace(p: { pointer: string; rightPointer?: string }): string {
  const at = p.pointer === '' ? '(the whole value)' : shownRaw(p.pointer);
  return p.rightPointer === undefined ? at : `${at} (right: ${shownRaw(p.rightPointer)})`;
}

/**
 * A pointer's tokens as shown (each escaped as shownPlace escapes it), for a view that
 * isolates each: a member name in a right-to-left script would otherwise reorder the tokens
 * around it, `/content/ב/1/א` reading as `/content/א/1/ב`. An empty pointer has none.
 */
export function shownTokens(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(shownRaw);
}

/** A string cut for showing: what comes before the changed span, the span, and what comes after. */
export interface SpanParts {
  /** Text before the span (its last `context` units), and whether more was cut before it. */
  before: string;
  cutBefore: boolean;
  changed: string;
  /** Units of the span not shown (a span longer than `max`). */
  cutChanged: number;
  after: string;
  cutAfter: boolean;
}

/**
 * One side of a changed string as shown (the window and the HTML page alike): `context`
 * units either side of the span, at most `max` of the span itself, so a 100 MB string
 * shows as a few lines with its length said. Each part is shown by `shown` (the terminal's
 * is shownMarked, which also escapes its span markers).
 */
export function spanParts(
  s: string,
  span: StringSpan,
  side: 'left' | 'right',
  context = 40,
  max = 2000,
  shown: (raw: string) => string = shownRaw,
): SpanParts {
  const len = side === 'left' ? span.left : span.right;
  const end = span.prefix + len;
  // Every cut on a pair boundary (cutIndex): a half pair would show as U+FFFD.
  const from = cutIndex(s, Math.max(0, span.prefix - context));
  const shownEnd = cutIndex(s, span.prefix + Math.min(len, max));
  const to = cutIndex(s, Math.min(s.length, end + context));
  // Invisible characters as escapes: a span of a zero-width space would otherwise show empty.
  return {
    before: shown(s.slice(from, span.prefix)),
    cutBefore: from > 0,
    changed: shown(s.slice(span.prefix, shownEnd)),
    cutChanged: end - shownEnd,
    after: shown(s.slice(end, to)),
    cutAfter: to < s.length,
  };
}

/** The terminal's span markers, and a backslash run standing between the two characters of one. */
const MARKER_LIKE = /\[\\*-|-\\*\]|\{\\*\+|\+\\*\}/;
/** Between the two characters of a marker (`[-`, `-]`, `{+`, `+}`): where shownMarked writes its backslash. */
const IN_MARKER = /(?<=\[)(?=-)|(?<=-)(?=\])|(?<=\{)(?=\+)|(?<=\+)(?=\})/g;

/**
 * Text as the terminal shows it between its span markers (`[-old-]`, `{+new+}`): as shownRaw
 * shows it, and, when it holds one of the markers (or a backslash between a marker's two
 * characters), each marker's characters parted by a backslash (`[\-`, `-\]`, `{\+`, `+\}`)
 * and every typed backslash doubled, so no marker in the text reads as the span's, and a
 * typed `[\-` (shown `[\\-`) never reads as an escaped `[-`.
 */
export function shownMarked(raw: string): string {
  if (!MARKER_LIKE.test(raw)) return shownRaw(raw);
  // Every typed backslash doubled first; `json` then tells escapeControls not to double them again.
  const escaped = escapeControls(raw.replace(/\\/g, '\\\\'), { ...SHOWN, json: true });
  return escaped.replace(IN_MARKER, '\\');
}

/** The longest changed span (in code points, each side) whose code points a diff names. */
const SPAN_CODE_POINTS = 8;

/**
 * The code points of a short changed span that is not plain ASCII, as `U+00E9 against U+0065
 * U+0301`, and whether the two strings are one text in two Unicode normalization forms:
 * "café" against "café" (precomposed against combining) or Latin "a" against Cyrillic "а"
 * render alike, and the reader must be told what changed. Null otherwise (plain ASCII reads
 * as what it is; a long span is shown as text).
 */
export function spanCodePoints(e: Pick<DiffEntry, 'left' | 'right' | 'span'>): string | null {
  if (!e.span || typeof e.left !== 'string' || typeof e.right !== 'string') return null;
  const sides = [
    e.left.slice(e.span.prefix, e.span.prefix + e.span.left),
    e.right.slice(e.span.prefix, e.span.prefix + e.span.right),
  ];
  const points = sides.map((x) => [...x]);
  if (points.some((p) => p.length > SPAN_CODE_POINTS) || !sides.some((x) => /[^\x20-\x7e]/.test(x))) return null;
  const named = points.map((p) =>
    p.length === 0
      ? 'nothing'
      : p.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' '),
  );
  const same =
    e.left.normalize('NFC') === e.right.normalize('NFC') ? '; the same text in another Unicode normalization form' : '';
  return `code points ${named[0]} against ${named[1]}${same}`;
}

/**
 * A value as a diff's terminal line and page cell show it: as JSON, strings quoted, so a
 * change of type (the string "1" to the number 1) never reads as no change, and invisible
 * characters escaped, so a zero-width space added never reads as no change. Pretty-printed
 * (`indent`), its line breaks are layout and stay line breaks: JSON.stringify writes every
 * line break inside a string as `\n`, so a raw one in its text is never the value's.
 */
export const shownJson = (v: JsonValue, indent?: number): string => showJsonText(JSON.stringify(v, null, indent));

/** What shownJson escapes: what a diff shows escaped, but the line breaks, which in its JSON text are layout. */
const SHOWN_JSON: ShownAs = Object.freeze({ ...SHOWN, json: true, keep: '\\n' });

/** JSON text (JSON.stringify's) as shownJson shows it: escaped, its layout line breaks kept. */
const showJsonText = (json: string): string => escapeControls(json, SHOWN_JSON);

/** Where an escape (`\xXX`, `\uXXXX`, `\u{…}`, `\n`, `\\`…) that `text` holds across `at` starts, else `at`. */
function escapeStart(text: string, at: number): number {
  // The nearest backslash before `at` whose run of backslashes makes it an escape's start.
  const back = text.lastIndexOf('\\', at - 1);
  if (back === -1 || at - back > 12) return at;
  let run = back;
  while (run > 0 && text.charCodeAt(run - 1) === 0x5c) run--;
  // Within a run, escapes start at its first backslash and every second one after it.
  if ((back - run) % 2 === 1) return at; // `back` ends a `\\` escape, which ends before `at`
  const m = /^\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|.)/su.exec(text.slice(back, back + 12));
  return m !== null && back + m[0].length > at ? back : at;
}

/** What a cut value says it left out. */
const moreCharacters = (n: number): string => `… (${n.toLocaleString('en')} more characters)`;

/**
 * Text shown in a diff cell, at most `max` characters: the rest counted, not shown. The cut
 * moves off a surrogate pair's middle and off an escape's (`\u202e`, `\x0a`, `\u{e0100}`),
 * which half shown would read as other text. For a value, shownJsonCut cuts before escaping.
 */
export function cutText(text: string, max = 2000): string {
  if (text.length <= max) return text;
  const cut = escapeStart(text, cutIndex(text, max));
  return `${text.slice(0, cut)}${moreCharacters(text.length - cut)}`;
}

/**
 * A value as shownJson shows it, cut at `max` characters of its JSON text (the input, not its
 * escaped form, so each escaped character counts one and an escape is never split), the
 * characters left out counted: `"aaaa\u202e… (8 more characters)"`. The cut moves off a
 * surrogate pair's middle and off JSON's own escapes (`\"`, `\u0001`).
 */
export function shownJsonCut(v: JsonValue, indent?: number, max = 2000): string {
  return shownJsonTextCut(JSON.stringify(v, null, indent), max);
}

/** JSON text (JSON.stringify's, or an entry's text as written) as shownJsonCut shows it, cut at `max` characters. */
function shownJsonTextCut(json: string, max: number): string {
  if (json.length <= max) return showJsonText(json);
  const cut = escapeStart(json, cutIndex(json, max));
  return `${showJsonText(json.slice(0, cut))}${moreCharacters(json.length - cut)}`;
}

/**
 * Compact JSON text (JSON.stringify's, no white space) laid out as JSON.stringify lays it out
 * with `indent`: a line per member and item, `"a": 1`, an empty `[]` or `{}` kept on its line.
 * Only outside strings: a string's characters are its own.
 */
export function indentJson(text: string, indent: number): string {
  const pad = ' '.repeat(indent);
  const out: string[] = [];
  let [from, depth] = [0, 0];
  const line = (at: number, d: number) => {
    out.push(text.slice(from, at), '\n', pad.repeat(d));
    from = at;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      // Past the string: JSON.stringify escapes every quote and backslash in it.
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if ((c === '[' || c === '{') && text[i + 1] !== (c === '[' ? ']' : '}')) line(i + 1, ++depth);
    else if (c === ']' || c === '}') {
      if (text[i - 1] !== (c === ']' ? '[' : '{')) line(i, --depth);
    } else if (c === ',') line(i + 1, depth);
    else if (c === ':') {
      out.push(text.slice(from, i + 1), ' ');
      from = i + 1;
    }
  }
  out.push(text.slice(from));
  return out.join('');
}

/**
 * The JSON text of one side of an entry as a view shows it whole: its text as written
 * (DiffEntry.leftText: its numbers beyond double precision as their literals) when it has
 * one, else JSON.stringify's; laid out with `indent` as JSON.stringify would lay it out.
 */
export function entryJson(e: DiffEntry, side: 'left' | 'right', indent?: number): string {
  const text = side === 'left' ? e.leftText : e.rightText;
  if (text === undefined) return JSON.stringify(e[side] ?? null, null, indent);
  return indent ? indentJson(text, indent) : text;
}

/**
 * One side of an entry shown whole (shownJsonCut's form, cut at `max` characters of its
 * JSON), its numbers beyond double precision as written (entryJson): the terminal, the page
 * and the window show a value inside which such a number sits as the file writes it.
 */
export function shownEntryCut(e: DiffEntry, side: 'left' | 'right', indent?: number, max = 2000): string {
  return shownJsonTextCut(entryJson(e, side, indent), max);
}

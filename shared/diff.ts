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
import { backslashesFor, escapeControls, type ShownAs } from './controls.js';

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

/** What a report's `run` says of one run only (when it started, how long it took): two reads of one file differ there. */
const RUN_VARIES = ['startedAtUtc', 'durationMs'];

/**
 * A report's `run` as compared: every member but RUN_VARIES (`tool`, `version`, and any other,
 * a forged `run.attestation`), a number its double does not keep with its literal
 * (NumberLiterals.carry), as the object is new. A `run` that is not an object is compared as it is.
 */
function runSide(run: unknown, literals: NumberLiterals | undefined): JsonValue | undefined {
  if (!isPlainObject(run)) return run as JsonValue | undefined;
  const kept = Object.fromEntries(Object.entries(run).filter(([k]) => !RUN_VARIES.includes(k))) as Obj;
  literals?.carry(run, kept, Object.keys(kept));
  return kept;
}

/**
 * What of a report two artifacts are compared on: every member but what varies run to run
 * (`run.startedAtUtc`, `run.durationMs`: runSide) and the path it was read from, with the
 * artifact's parsed content when it is JSON. Every member, not a list of the known ones: a
 * saved report with a member added (a forged `artifact.signedBy`, a `run.attestation`) or
 * another `run.tool` or `run.version` differs there, never reads as identical. A member the
 * report lacks (a saved report without its chain) is absent, so the diff says `removed` or
 * `added`, not `changed` to nothing. A content that is one number its double does not keep
 * (parseKeepingLiterals's `root`) is compared by its literal through `root`.
 */
export function reportSide(
  r: Omit<Report, 'run'> & { run?: unknown },
  content?: JsonValue,
  root?: { literals: NumberLiterals; literal: string | undefined },
): JsonValue {
  const { run, artifact, ...rest } = r;
  const { path: _path, ...art } = artifact;
  const artifactSide = present(art as unknown as Obj);
  const side = present({
    ...(rest as unknown as Obj),
    run: runSide(run, root?.literals),
    artifact: artifactSide,
    ...(content !== undefined ? { content } : {}),
  });
  if (root !== undefined) {
    // The literals are held by container (NumberLiterals), and these two objects are new: the
    // numbers a saved report holds directly, or directly in its artifact (a forged top-level
    // `extra`, an `artifact.signedBy`), keep theirs, or two reports differing only there
    // would be compared by their doubles and called identical. Not `content`, which is not
    // the report's own member here, nor a `run` rebuilt, whose members runSide carried.
    const rebuilt = (k: string) => k === 'artifact' || (k === 'run' && isPlainObject(run));
    const own = Object.keys(side).filter((k) => !rebuilt(k) && (content === undefined || k !== 'content'));
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
 * NumberLiterals holds moves with its value. `content` says what each side holds, as a side's
 * label says it (DiffSideLabel.content): only a replay that recorded an expression (a dump's)
 * has one, so a manifest's sides are its comparisons alone.
 */
export function replaySides(
  r: Pick<Report, 'comparisons' | 'details'>,
  literals?: NumberLiterals,
): { left: JsonValue; right: JsonValue; content: string } {
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
  return { left, right, content: 'expression' in left ? 'its comparisons and expression' : 'its comparisons' };
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

/** Two arrays' lengths in words, as the page says them: `1 item left, 2 right`. */
export function lengthWords(l: Pick<LengthChange, 'left' | 'right'>): string {
  const n = (x: number): string => x.toLocaleString('en');
  return `${n(l.left)} item${l.left === 1 ? '' : 's'} left, ${n(l.right)} right`;
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
 * shows as a few lines with its length said. The three parts are shown by `shown` together
 * (shownRawParts; the terminal's is shownMarkedParts, which also escapes its span markers),
 * so whether a typed backslash is doubled is decided once for the whole text shown.
 */
export function spanParts(
  s: string,
  span: StringSpan,
  side: 'left' | 'right',
  context = 40,
  max = 2000,
  shown: (raw: string[]) => string[] = shownRawParts,
): SpanParts {
  const len = side === 'left' ? span.left : span.right;
  const end = span.prefix + len;
  // Every cut on a pair boundary (cutIndex): a half pair would show as U+FFFD.
  const from = cutIndex(s, Math.max(0, span.prefix - context));
  const shownEnd = cutIndex(s, span.prefix + Math.min(len, max));
  const to = cutIndex(s, Math.min(s.length, end + context));
  // Invisible characters as escapes: a span of a zero-width space would otherwise show empty.
  const [before, changed, after] = shown([
    s.slice(from, span.prefix),
    s.slice(span.prefix, shownEnd),
    s.slice(end, to),
  ]);
  return {
    before: before!,
    cutBefore: from > 0,
    changed: changed!,
    cutChanged: end - shownEnd,
    after: after!,
    cutAfter: to < s.length,
  };
}

/** What shownRaw escapes, its backslashes left as they are (the caller has decided them). */
const SHOWN_DECIDED: ShownAs = Object.freeze({ ...SHOWN, json: true });
/** Matches nothing: backslashesFor then doubles only for text that reads as an escape. */
const NOTHING = /(?!)/;

/**
 * Whether shownRaw doubles the typed backslashes of `raw` (shared/controls.ts backslashesFor):
 * when it holds a character shown escaped, or text that reads as an escape.
 */
const doublesBackslashes = (raw: string): boolean =>
  raw.includes('\\') && (backslashesFor(raw, NOTHING) !== raw || escapeControls(raw, SHOWN_DECIDED) !== raw);

/** Every typed backslash doubled, or none. */
const backslashes = (raw: string, double: boolean): string => (double ? raw.replace(/\\/g, '\\\\') : raw);

/**
 * The parts of one text (before a span, the span, after it) as shownRaw shows the whole:
 * whether to double a typed backslash is decided for the whole, not part by part, or a typed
 * `\x0` before a span `a` would show as `\x0` then `a`, reading as the escape `\x0a`.
 */
export function shownRawParts(parts: string[]): string[] {
  const double = doublesBackslashes(parts.join(''));
  return parts.map((p) => escapeControls(backslashes(p, double), SHOWN_DECIDED));
}

/** The terminal's span markers, and a backslash run standing between the two characters of one. */
const MARKER_LIKE = /\[\\*-|-\\*\]|\{\\*\+|\+\\*\}/;
/** Between the two characters of a marker (`[-`, `-]`, `{+`, `+}`): where shownMarked writes its backslash. */
const IN_MARKER = /(?<=\[)(?=-)|(?<=-)(?=\])|(?<=\{)(?=\+)|(?<=\+)(?=\})/g;

/**
 * The parts of one text as the terminal shows them between its span markers (`[-old-]`,
 * `{+new+}`): as shownRawParts shows them, and, when the text holds one of the markers (or a
 * backslash between a marker's two characters), each marker's characters parted by a
 * backslash (`[\-`, `-\]`, `{\+`, `+\}`) and every typed backslash doubled, in every part,
 * so no marker in the text reads as the span's, and a typed `[\-` (shown `[\\-`) never reads
 * as an escaped `[-`.
 */
export function shownMarkedParts(parts: string[]): string[] {
  if (!MARKER_LIKE.test(parts.join(''))) return shownRawParts(parts);
  return parts.map((p) => escapeControls(backslashes(p, true), SHOWN_DECIDED).replace(IN_MARKER, '\\'));
}

/** One text as the terminal shows it between its span markers (shownMarkedParts of it alone). */
export const shownMarked = (raw: string): string => shownMarkedParts([raw])[0]!;

/** The longest changed span (in code points, each side) whose code points a diff names all of. */
const SPAN_CODE_POINTS = 8;
/** The places a longer span's summary names (spanSummary): the first that differ, the rest counted. */
const SUMMARY_PLACES = 3;
/** What a view adds when the two strings are one text in two normalization forms. */
const SAME_TEXT = 'the same text in another Unicode normalization form';

const codePointName = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** The code points of `s` from `from` to `to` (UTF-16 indexes), one at a time, without an array of them. */
function* codePointsOf(s: string, from: number, to: number): Generator<number> {
  for (let i = from; i < to;) {
    const cp = s.codePointAt(i)!;
    yield cp;
    i += cp > 0xffff ? 2 : 1;
  }
}

/** Whether a span (`from`, `to`) holds more than `n` code points: counted up to n + 1 only. */
function longerThan(s: string, from: number, to: number, n: number): boolean {
  let count = 0;
  for (const _ of codePointsOf(s, from, to)) if (++count > n) return true;
  return false;
}

/** Each side's changed span as `[string, from, to]`. */
type SpanSide = [string, number, number];

/** A short span's code points, all of them: `U+00E9 against U+0065 U+0301`. */
function shortSpanPoints(sides: [SpanSide, SpanSide]): string {
  const named = sides.map(([s, from, to]) =>
    from === to ? 'nothing' : [...codePointsOf(s, from, to)].map(codePointName).join(' '),
  );
  return `code points ${named[0]} against ${named[1]}`;
}

/** A code point that reads as what it is: printable ASCII. */
const plainAscii = (cp: number): boolean => cp >= 0x20 && cp <= 0x7e;

/**
 * A longer span's code points, bounded: the two spans read code point by code point, the
 * first SUMMARY_PLACES places where they differ named (`U+0020 against U+00A0 (at 1)`, at its
 * place in the span, from 1), every place that differs counted, with both spans' lengths in
 * code points. Null when each place that differs is printable ASCII on each side that has a
 * code point there (it reads as what it is, however long either span). Null too when the
 * spans have nothing in common: most of their places differ in printable ASCII on both sides,
 * two unrelated texts told apart at a glance, which compared place by place would only count
 * places; but not for one text in two normalization forms (`oneText`), whose places shift
 * after the first decomposed character. Lookalikes swapped in place (a space for U+00A0,
 * Latin for Cyrillic) differ only where a side is not ASCII, so they stay named however long
 * the span. Reads each span once; makes no array of it.
 */
function spanSummary([a, af, at]: SpanSide, [b, bf, bt]: SpanSide, oneText: boolean): string | null {
  const [ia, ib] = [codePointsOf(a, af, at), codePointsOf(b, bf, bt)];
  const named: string[] = [];
  let [place, differ, left, right, unclear, plain] = [0, 0, 0, 0, false, 0];
  for (;;) {
    const [x, y] = [ia.next(), ib.next()];
    if (x.done && y.done) break;
    place++;
    if (!x.done) left++;
    if (!y.done) right++;
    if (x.value === y.value) continue;
    differ++;
    // "nothing" (one span is longer) reads as what it is: only a code point can be unclear.
    unclear ||= [x.value, y.value].some((cp) => cp !== undefined && !plainAscii(cp));
    if (x.value !== undefined && y.value !== undefined && plainAscii(x.value) && plainAscii(y.value)) plain++;
    const name = (cp: number | undefined) => (cp === undefined ? 'nothing' : codePointName(cp));
    if (named.length < SUMMARY_PLACES) named.push(`${name(x.value)} against ${name(y.value)} (at ${place})`);
  }
  if (!unclear || (!oneText && plain * 2 > place)) return null;
  const more = differ > named.length ? `, and ${(differ - named.length).toLocaleString('en')} more` : '';
  const n = (x: number) => x.toLocaleString('en');
  return `code points differ at ${n(differ)} places of the span (${n(left)} against ${n(right)}): ${named.join(', ')}${more}`;
}

/** Characters NFC leaves as they are wherever they stand: no canonical decomposition, no combining. */
const NFC_STABLE = /^[\u0000-\u00bf]*$/;

/** Whether two strings are one text in two normalization forms (their NFC forms equal): none to make for text NFC leaves. */
const sameText = (a: string, b: string): boolean =>
  !(NFC_STABLE.test(a) && NFC_STABLE.test(b)) && a.normalize('NFC') === b.normalize('NFC');

/**
 * The code points of a changed span that is not plain ASCII, and whether the two strings are
 * one text in two Unicode normalization forms: "café" against "café" (precomposed against
 * combining), a space against U+00A0 or Latin "a" against Cyrillic "а" render alike, and the
 * reader must be told what changed. A span of at most SPAN_CODE_POINTS code points is named
 * whole (`code points U+00E9 against U+0065 U+0301`); a longer one by its first places that
 * differ and their count (spanSummary), so a long change that only swaps lookalikes is told
 * too, in a line of bounded length; not two unrelated texts (spanSummary). The
 * normalization note whenever the strings' NFC forms are equal, however long. Null
 * otherwise (plain ASCII reads as what it is).
 */
export function spanCodePoints(e: Pick<DiffEntry, 'left' | 'right' | 'span'>): string | null {
  if (!e.span || typeof e.left !== 'string' || typeof e.right !== 'string') return null;
  const { prefix, left, right } = e.span;
  const sides: [SpanSide, SpanSide] = [
    [e.left, prefix, prefix + left],
    [e.right, prefix, prefix + right],
  ];
  const short = !sides.some(([s, from, to]) => longerThan(s, from, to, SPAN_CODE_POINTS));
  const ascii = !sides.some(([s, from, to]) => /[^\x20-\x7e]/.test(s.slice(from, to)));
  const same = sameText(e.left, e.right);
  const named = short ? (ascii ? null : shortSpanPoints(sides)) : spanSummary(...sides, same);
  if (!same) return named;
  return named === null ? SAME_TEXT : `${named}; ${SAME_TEXT}`;
}

/**
 * JSON text as it is laid out (JSON.stringify's, with `indent` for the first `deep` levels of
 * nesting and compact below them), built only to `room` characters and counted past them. A
 * value shown whole is cut at 2,000 characters; laid out in full first, a value nested 500
 * deep around 20,000 items (a 41 KB file) made 20 MB of indentation for those 2,000, and
 * one around 600,000 (1.2 MB) more than the longest string V8 holds. `length` is the whole
 * text's, so the cut still counts what it leaves out, and nothing past `room` is ever made
 * (indentation included).
 */
class Layout {
  head = '';
  /** Characters of the whole text, built or only counted. */
  length = 0;
  constructor(
    readonly indent: number,
    readonly room: number,
    readonly deep = Infinity,
  ) {}
  /** Whether the containers at nesting level `level` (1 for the outermost) are laid out a line per member. */
  broken(level: number): boolean {
    return this.indent > 0 && level <= this.deep;
  }
  text(s: string): void {
    this.length += s.length;
    const need = this.room - this.head.length;
    if (need > 0) this.head += s.length > need ? s.slice(0, need) : s;
  }
  /** A line break before a line at `depth`: its indentation made only as far as the room goes. */
  lineBreak(depth: number): void {
    const width = this.indent * depth;
    this.length += 1 + width;
    const need = this.room - this.head.length;
    if (need > 0) this.head += `\n${' '.repeat(Math.min(width, need - 1))}`;
  }
  /** A string as JSON.stringify writes it: counted whole, its text made from its start only as far as the room goes. */
  string(s: string): void {
    const need = this.room - this.head.length;
    if (s.length <= need) return this.text(JSON.stringify(s));
    this.length += jsonStringLength(s);
    // Each character writes at least one, so need + 1 of them (never half a pair) fill the room.
    if (need > 0) this.head += JSON.stringify(s.slice(0, cutIndex(s, need + 1))).slice(0, need);
  }
}

/** What JSON.stringify escapes in a string: quote, backslash, C0, and lone surrogates. */
const JSON_ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON.stringify(s).length, without making that text (a string of 100 MB is counted, not copied). */
function jsonStringLength(s: string): number {
  let n = s.length + 2;
  if (!JSON_ESCAPED.test(s)) return n;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // `\"`, `\\`, `\b`, `\t`, `\n`, `\f`, `\r` write two; another C0 or a lone surrogate six (`\u001f`).
    if (c === 0x22 || c === 0x5c || c === 8 || c === 9 || c === 10 || c === 12 || c === 13) n += 1;
    else if (c < 0x20 || isLowSurrogate(c)) n += 5;
    else if (isHighSurrogate(c)) {
      if (isLowSurrogate(s.charCodeAt(i + 1))) i++;
      else n += 5;
    }
  }
  return n;
}

/** A container being laid out: its members' names (an object's) or null (an array's), the next to write. */
interface LayFrame {
  v: JsonValue[] | Obj;
  names: string[] | null;
  i: number;
  close: string;
}

/**
 * A compact container made whole by JSON.stringify itself, some eight times faster than
 * layValue's walk (a 76 MB `--json` in 0.8 s of CPU, not 6.6 s); false, with nothing
 * written, where its recursion overflows the stack (a value nested some thousands deep), which
 * layValue's own stack then walks.
 */
function layNative(x: JsonValue, out: Layout): boolean {
  let text: string;
  try {
    text = JSON.stringify(x);
  } catch (e) {
    if (e instanceof RangeError) return false;
    throw e;
  }
  out.text(text);
  return true;
}

/**
 * Lays out a value as JSON.stringify would (members in Object.keys order, a member holding
 * undefined left out), keeping its own stack, so no depth overflows it: JSON.stringify's
 * recursion does at some thousands of levels, and the diff walks a value 100,000 deep.
 */
function layValue(v: JsonValue, out: Layout): void {
  const stack: LayFrame[] = [];
  /** The deepest level JSON.stringify is tried at (layNative): above one where it overflowed. */
  let native = Infinity;
  const open = (x: JsonValue | undefined): void => {
    if (typeof x === 'string') return out.string(x);
    if (typeof x !== 'object' || x === null) return out.text(JSON.stringify(x) ?? 'null');
    const level = stack.length + 1;
    if (out.room === Infinity && !out.broken(level) && level <= native) {
      if (layNative(x, out)) return;
      // Too deep for JSON.stringify: what it holds is walked here, never tried again level by level.
      native = level;
    }
    const obj = Array.isArray(x) ? null : (x as Obj);
    const names = obj && Object.keys(obj).filter((k) => obj[k] !== undefined);
    if ((names ?? (x as JsonValue[])).length === 0) return out.text(names ? '{}' : '[]');
    out.text(names ? '{' : '[');
    stack.push({ v: x, names, i: 0, close: names ? '}' : ']' });
    if (out.broken(stack.length)) out.lineBreak(stack.length);
  };
  open(v);
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    const level = stack.length;
    if (f.i === (f.names ?? (f.v as JsonValue[])).length) {
      stack.pop();
      if (out.broken(level)) out.lineBreak(level - 1);
      out.text(f.close);
      continue;
    }
    if (f.i > 0) {
      out.text(',');
      if (out.broken(level)) out.lineBreak(level);
    }
    const key = f.names ? f.names[f.i]! : f.i;
    f.i++;
    if (f.names) {
      out.string(key as string);
      out.text(out.broken(level) ? ': ' : ':');
    }
    open((f.v as Obj)[key as string]);
  }
}

/**
 * Lays out compact JSON text (JSON.stringify's, no white space) as JSON.stringify lays it out
 * with the layout's indent: a line per member and item, `"a": 1`, an empty `[]` or `{}` kept
 * on its line. Only outside strings: a string's characters are its own.
 */
function layText(text: string, out: Layout): void {
  let [from, depth] = [0, 0];
  const upTo = (at: number) => {
    out.text(text.slice(from, at));
    from = at;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      // Past the string: JSON.stringify escapes every quote and backslash in it.
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if ((c === '[' || c === '{') && text[i + 1] !== (c === '[' ? ']' : '}')) {
      upTo(i + 1);
      out.lineBreak(++depth);
    } else if ((c === ']' || c === '}') && text[i - 1] !== (c === ']' ? '[' : '{')) {
      upTo(i);
      out.lineBreak(--depth);
    } else if (c === ',') {
      upTo(i + 1);
      out.lineBreak(depth);
    } else if (c === ':') {
      upTo(i + 1);
      out.text(' ');
    }
  }
  upTo(text.length);
}

/**
 * JSON text of `v`, as JSON.stringify(v, null, indent) writes it for JSON data, laid out with
 * `indent` for its first `deep` levels only and compact below: `reprise diff --json` lays out
 * its result and its entries and writes their values compact, so its output stays the size of
 * its input (an entry's value nested 500 deep, indented, was 1,000 spaces a line). Never
 * throws on depth (layValue).
 */
export function jsonText(v: JsonValue, indent = 0, deep = Infinity): string {
  const out = new Layout(indent, Infinity, deep);
  layValue(v, out);
  return out.head;
}

/**
 * A value as a diff's terminal line and page cell show it: as JSON, strings quoted, so a
 * change of type (the string "1" to the number 1) never reads as no change, and invisible
 * characters escaped, so a zero-width space added never reads as no change. Pretty-printed
 * (`indent`), its line breaks are layout and stay line breaks: JSON.stringify writes every
 * line break inside a string as `\n`, so a raw one in its text is never the value's.
 */
export const shownJson = (v: JsonValue, indent?: number): string => showJsonText(jsonText(v, indent ?? 0));

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
 * Characters of a layout built past a cut: the cut reads the text after it (escapeStart, up
 * to 12 characters of an escape; cutIndex, a pair's second half) to move off an escape.
 */
const CUT_READS = 16;

/** A value's JSON text as a view shows it: its pieces (a JSON string or the text between), and what was left out. */
export interface ShownValue {
  /** The shown text in order, each JSON string (a member name or a value, its quotes too) a piece of its own. */
  pieces: { text: string; string: boolean }[];
  /** `… (N more characters)` when the value was cut, else empty. */
  more: string;
}

/**
 * A laid-out value cut for showing: whole when its text is at most `max` characters, else its
 * first `keep` (moved off a surrogate pair's middle and an escape's), escaped (showJsonText).
 */
function cutLayout(out: Layout, max: number, keep: number): { shown: string; more: string } {
  if (out.length <= max) return { shown: showJsonText(out.head), more: '' };
  const cut = escapeStart(out.head, cutIndex(out.head, keep));
  return { shown: showJsonText(out.head.slice(0, cut)), more: moreCharacters(out.length - cut) };
}

/** A laid-out value with room for showing it whole up to `max`, else its first `keep` characters and the cut's reads. */
const layoutFor = (indent: number | undefined, max: number, keep: number): Layout =>
  new Layout(indent ?? 0, Math.max(max, keep) + CUT_READS);

/**
 * A value as shownJson shows it, cut at `max` characters of its JSON text (the input, not its
 * escaped form, so each escaped character counts one and an escape is never split), the
 * characters left out counted: `"aaaa\u202e… (8 more characters)"`. The cut moves off a
 * surrogate pair's middle and off JSON's own escapes (`\"`, `\u0001`). Only what is shown is
 * made (Layout): the rest is counted.
 */
export function shownJsonCut(v: JsonValue, indent?: number, max = 2000): string {
  const out = layoutFor(indent, max, max);
  layValue(v, out);
  const { shown, more } = cutLayout(out, max, max);
  return `${shown}${more}`;
}

/**
 * Compact JSON text (JSON.stringify's, no white space) laid out as JSON.stringify lays it out
 * with `indent`: a line per member and item, `"a": 1`, an empty `[]` or `{}` kept on its line.
 * Only outside strings: a string's characters are its own.
 */
export function indentJson(text: string, indent: number): string {
  const out = new Layout(indent, Infinity);
  layText(text, out);
  return out.head;
}

/**
 * The JSON text of one side of an entry as a view shows it whole: its text as written
 * (DiffEntry.leftText: its numbers beyond double precision as their literals) when it has
 * one, else JSON.stringify's; laid out with `indent` as JSON.stringify would lay it out.
 * Whole: a view cuts it (shownEntryCut), which makes only what it shows.
 */
export function entryJson(e: DiffEntry, side: 'left' | 'right', indent?: number): string {
  const out = new Layout(indent ?? 0, Infinity);
  layEntry(e, side, out);
  return out.head;
}

/** One side of an entry laid out: its text as written when it has one (entryJson), else its value. */
function layEntry(e: DiffEntry, side: 'left' | 'right', out: Layout): void {
  const text = side === 'left' ? e.leftText : e.rightText;
  if (text === undefined) layValue(e[side] ?? null, out);
  else if (out.indent > 0) layText(text, out);
  else out.text(text);
}

/** Shown text as pieces: each JSON string in it (from its quote to its closing one, or to the end where cut) one piece. */
function jsonPieces(shown: string): ShownValue['pieces'] {
  const pieces: ShownValue['pieces'] = [];
  let from = 0;
  for (let i = shown.indexOf('"'); i !== -1; i = shown.indexOf('"', from)) {
    if (i > from) pieces.push({ text: shown.slice(from, i), string: false });
    let j = i + 1;
    // Past the string: JSON escapes every quote and backslash in it, and shownJson's escapes start with a backslash.
    while (j < shown.length && shown[j] !== '"') j += shown[j] === '\\' ? 2 : 1;
    from = Math.min(j + 1, shown.length);
    pieces.push({ text: shown.slice(i, from), string: true });
  }
  if (from < shown.length) pieces.push({ text: shown.slice(from), string: false });
  return pieces;
}

/**
 * One side of an entry shown whole, in pieces (ShownValue): each JSON string a piece, so the
 * page and the window isolate it (`<bdi>`): a member name or value in a right-to-left script
 * would otherwise reorder the tokens around it, `"א": "1"` reading as `"1" :"א"`, member "1".
 * Cut as shownEntryCut cuts it.
 */
export function shownEntryPieces(e: DiffEntry, side: 'left' | 'right', indent?: number, max = 2000): ShownValue {
  const out = layoutFor(indent, max, max);
  layEntry(e, side, out);
  const { shown, more } = cutLayout(out, max, max);
  return { pieces: jsonPieces(shown), more };
}

/**
 * One side of an entry shown whole (shownJsonCut's form, cut at `max` characters of its
 * JSON), its numbers beyond double precision as written (entryJson): the terminal, the page
 * and the window show a value inside which such a number sits as the file writes it. A text
 * longer than `max` keeps its first `keep` characters (the terminal's 120 keeps 117, room for
 * its count). Only what is shown is made (Layout): a value of megabytes is counted, not laid out.
 */
export function shownEntryCut(e: DiffEntry, side: 'left' | 'right', indent?: number, max = 2000, keep = max): string {
  const out = layoutFor(indent, max, keep);
  layEntry(e, side, out);
  const { shown, more } = cutLayout(out, max, keep);
  return `${shown}${more}`;
}

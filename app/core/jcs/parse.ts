/**
 * The strict parse: JSON.parse behind cheap global checks that record suspicion; anything
 * suspicious goes to the precise validator (diagnose.ts), which names the member.
 */
import { JcsError, MAX_DEPTH, type JcsWarning } from './errors.js';
import { decodeJsonBytes } from './decode.js';
import { diagnose, precisionWarnings } from './diagnose.js';
import { ARRAY_INDEX, canon, checkNumber, serialize, type WalkState } from './serialize.js';
import { checkBounds, countChar, type JsonLimits } from './bounds.js';
import { firstLineEndBeforeValue } from './lines.js';
import { LONG_MANTISSA, mayUnderflow } from '../../../shared/decimal-key.js';

export { mayUnderflow };

const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;
const ESCAPED_COLON = /\\u003[aA]/;

/**
 * Whether the text nests deeper than `limit` outside strings. Checked before JSON.parse
 * because V8's parser spends about ten times longer per nesting level than per byte of
 * ordinary JSON and fails only at the end: 64 MiB of `[` takes it 20 s before the refusal.
 * Text with few openers cannot hold enough levels to matter and is not scanned (counting
 * them is a native search each); the scan stops at the first level past the limit.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  return deeperAt(text, limit) !== -1;
}

/** Where the text first nests deeper than `limit` (the offset of the opener), or -1 (see nestsDeeperThan). */
function deeperAt(text: string, limit: number): number {
  let openers = 0;
  for (const ch of ['[', '{']) {
    for (let i = text.indexOf(ch); i !== -1 && openers <= FEW_OPENERS; i = text.indexOf(ch, i + 1)) openers++;
  }
  if (openers <= limit || openers <= FEW_OPENERS) return -1;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Past the string: the next quote not escaped by an odd run of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i === -1) return -1;
        let k = i - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if (((i - k) & 1) === 1) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}
/** Levels V8 parses in tens of milliseconds at most. */
const FEW_OPENERS = 1 << 16;

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
   * thread: app/threads/canonical.ts). Then the walk is skipped: that result already
   * proves members in order without duplicates, canonical (finite, exact) numbers and
   * strings without escaped surrogates or colons.
   */
  proven?: () => boolean;
  /**
   * `--limit` overrides of the bounds checked before parsing (ERR_LIMIT: distinct member
   * names, items; bounds.ts); the defaults when absent.
   */
  limits?: JsonLimits;
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
 * One function: the fast path for large documents; its steps share the scan's locals and a
 * call per step costs measurably on 100 MiB inputs (bench/RESULTS.md, canonical parse).
 */
export function parseCanonical(text: string, options: ParseOptions = {}): StrictParse {
  if (text.charCodeAt(0) === 0xfeff) throw new JcsError('ERR_BOM', 'a byte-order mark precedes the JSON text');
  // JSON Lines: refused by the precise validator, which reads the first line only (lines.ts).
  const nl = firstLineEndBeforeValue(text);
  if (nl !== -1) {
    checkBounds(text.slice(0, nl), options.limits);
    return fail(text);
  }
  const deep = deeperAt(text, MAX_DEPTH);
  if (deep !== -1) {
    // The precise validator stops at the limit (or at an earlier error, as it would after
    // JSON.parse), reading no further than `deep`, within bounds there; should it find no
    // error, the ordinary path below decides.
    checkBounds(text.slice(0, deep), options.limits);
    const err = diagnose(text);
    if (err) throw err;
  }
  // Before the precise validator and JSON.parse, which would spend their memory on the values.
  const colonsText = checkBounds(text, options.limits);
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
    if (this.text === undefined)
      this.text = this.inOrder ? JSON.stringify(this.value) : serialize(this.value, { nonFinite: false, big: false });
    return this.text;
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

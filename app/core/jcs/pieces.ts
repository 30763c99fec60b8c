/**
 * The canonical (RFC 8785) UTF-8 of a large parsed value handed on in pieces, to a hash or
 * into one buffer, never built as one string: the one canonicalizer (serialize.ts) does each
 * small value, this only walks the containers above them. Why: a replay dump not written
 * canonically cannot take its signed payload from its own bytes (app/kinds/replay-dump/
 * json-encoding.ts, strippedDump): as one canonical string, then that string's UTF-8, the
 * payload held about three more copies of the dump beside its bytes, its text and its parsed
 * value (a 181 MiB dump peaked at 1.8 GB).
 *
 * Every piece is the canonicalizer's text (canonicalizeParsed) of a value that holds at most
 * PIECE_VALUES values and PIECE_STRING_CHARS characters of strings, or a slice of a longer
 * string escaped by JSON.stringify as that text escapes it; only the containers above those
 * are walked here, their members in code-unit order (Array.prototype.sort), the order JCS
 * sorts them in. A small value is one piece. For parsed values only (I-JSON already checked:
 * a strict parse, a checked model, checkJsonData). Imported from here, not through
 * core/jcs.ts: it hashes (core/hash.ts), and core/hash.ts canonicalizes through core/jcs.ts.
 */
import { formatHash, hashBytes, newHasher } from '../hash.js';
import { stringPieces } from '../string-pieces.js';
import { canonicalizeParsed } from './serialize.js';

/** Characters gathered before they are handed on: a piece is shorter than twice this. */
export const PIECE_CHARS = 1 << 20;
/**
 * What one piece of the canonicalizer's text may hold: values (scalars and containers), and
 * characters of strings (names and values) in all. Escaped, a character is at most 6
 * (`\u001f`) and a number at most 24: such a piece stays under PIECE_CHARS. A longer string
 * is escaped in slices of PIECE_STRING_CHARS.
 */
const PIECE_VALUES = 4096;
const PIECE_STRING_CHARS = PIECE_CHARS / 8;

/** Gathers small texts and hands them on once PIECE_CHARS are there. */
class Pieces {
  private pending = '';
  constructor(private readonly emit: (piece: string) => void) {}
  add(s: string): void {
    this.pending += s;
    if (this.pending.length >= PIECE_CHARS) this.flush();
  }
  flush(): void {
    if (this.pending !== '') this.emit(this.pending);
    this.pending = '';
  }
}

interface Budget {
  values: number;
  chars: number;
}

/** Whether `v` fits what is left of `left`, which it uses up; stops as soon as it does not. */
function fits(v: unknown, left: Budget): boolean {
  if (--left.values < 0) return false;
  if (typeof v === 'string') return (left.chars -= v.length) >= 0;
  if (typeof v !== 'object' || v === null) return true;
  if (Array.isArray(v)) return v.every((e) => fits(e, left));
  const o = v as Record<string, unknown>;
  return Object.keys(o).every((k) => (left.chars -= k.length) >= 0 && fits(o[k], left));
}

/** Whether `v` is one piece (see PIECE_VALUES): most values are, and a small dump is one whole. */
const onePiece = (v: unknown): boolean => fits(v, { values: PIECE_VALUES, chars: PIECE_STRING_CHARS });

function writeValue(v: unknown, out: Pieces): void {
  if (onePiece(v)) out.add(canonicalizeParsed(v));
  else if (typeof v === 'string') {
    // A slice never splits a surrogate pair: escaped alone, it is its part of the whole string's escape.
    out.add('"');
    for (const piece of stringPieces(v, PIECE_STRING_CHARS)) out.add(JSON.stringify(piece).slice(1, -1));
    out.add('"');
  } else if (Array.isArray(v)) {
    out.add('[');
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out.add(',');
      writeValue(v[i], out);
    }
    out.add(']');
  } else writeMembers(v as Record<string, unknown>, Object.keys(v as object).sort(), out);
}

/** An object member by member, `names` in canonical order. */
function writeMembers(o: Record<string, unknown>, names: readonly string[], out: Pieces): void {
  out.add('{');
  names.forEach((k, i) => {
    if (i > 0) out.add(',');
    writeValue(k, out);
    out.add(':');
    writeValue(o[k], out);
  });
  out.add('}');
}

/**
 * Hands on the canonical UTF-8 text of `value` in pieces, each shorter than 2 × PIECE_CHARS;
 * with `omit`, `value` is an object and that member is left out (a signed payload).
 */
export function writeCanonical(value: unknown, emit: (piece: string) => void, omit?: string): void {
  const out = new Pieces(emit);
  if (omit === undefined) writeValue(value, out);
  else {
    const { [omit]: _omitted, ...rest } = value as Record<string, unknown>;
    if (onePiece(rest)) out.add(canonicalizeParsed(rest));
    else writeMembers(rest, Object.keys(rest).sort(), out);
  }
  out.flush();
}

/** `H(value)` of a parsed value: its canonical UTF-8 hashed piece by piece. */
export function hashCanonical(value: unknown): string {
  if (onePiece(value)) return hashBytes(canonicalizeParsed(value));
  const h = newHasher();
  writeCanonical(value, (piece) => h.update(piece, 'utf8'));
  return formatHash(h.digest('hex'));
}

/**
 * The canonical UTF-8 bytes of an object without its member `omit`, written into one buffer
 * (Ed25519 verifies a message whole). `sizeHint`: the bytes expected (a document's own size
 * is near it); the buffer grows when they are more.
 */
export function canonicalBytesWithout(value: object, omit: string, sizeHint: number): Uint8Array {
  let buf = Buffer.allocUnsafe(Math.max(sizeHint, 1024));
  let used = 0;
  writeCanonical(
    value,
    (piece) => {
      const n = Buffer.byteLength(piece, 'utf8');
      if (used + n > buf.length) {
        const grown = Buffer.allocUnsafe(Math.max(2 * buf.length, used + n));
        buf.copy(grown, 0, 0, used);
        buf = grown;
      }
      used += buf.write(piece, used, 'utf8');
    },
    omit,
  );
  return buf.subarray(0, used);
}

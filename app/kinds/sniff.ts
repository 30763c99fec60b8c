/**
 * What a kind's `detect` sees: the bytes, and lazily (computed once, shared by detection
 * and verification) the strict UTF-8 text and the strict JSON parse. A document is
 * parsed once per run however many kinds look at it.
 */
import { decodeJsonBytes, JcsError, parseCanonical, type StrictParse } from '../core/jcs.js';

export type ParsedJson =
  | ({ ok: true } & StrictParse)
  | {
      ok: false;
      error: JcsError;
      /** The value plain JSON.parse gives, when it gives one: lets a kind recognise a
       * malformed document of its own (say, a dump with a duplicate member) and report it. */
      loose: unknown;
    };

export class Sniffed {
  private textCache: string | null | undefined;
  private jsonCache: ParsedJson | null | undefined;
  constructor(
    readonly path: string,
    readonly bytes: Buffer,
  ) {}

  /** Strict UTF-8 text, or null when the bytes are not UTF-8 (or start with a BOM). */
  text(): string | null {
    if (this.textCache === undefined) {
      try {
        this.textCache = decodeJsonBytes(this.bytes);
      } catch {
        this.textCache = null;
      }
    }
    return this.textCache;
  }

  /** The first non-whitespace character, cheaply (no full decode). */
  firstChar(): string {
    const b = this.bytes;
    for (let i = 0; i < b.length && i < 4096; i++) {
      const c = b[i]!;
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return String.fromCharCode(c);
    }
    return '';
  }

  /** Strict JSON parse of the whole file; null when the file does not look like JSON. */
  json(): ParsedJson | null {
    if (this.jsonCache !== undefined) return this.jsonCache;
    const c = this.firstChar();
    if (c !== '{' && c !== '[') return (this.jsonCache = null);
    let text: string;
    try {
      text = decodeJsonBytes(this.bytes);
    } catch (e) {
      return (this.jsonCache = { ok: false, error: e as JcsError, loose: undefined });
    }
    try {
      this.jsonCache = { ok: true, ...parseCanonical(text) };
    } catch (e) {
      if (!(e instanceof JcsError)) throw e;
      let loose: unknown;
      try {
        loose = JSON.parse(text);
      } catch {
        loose = undefined;
      }
      this.jsonCache = { ok: false, error: e, loose };
    }
    return this.jsonCache;
  }

  /** The parsed value (strict or loose) when it is a JSON object, else null. */
  jsonObject(): Record<string, unknown> | null {
    const j = this.json();
    if (!j) return null;
    const v = j.ok ? j.value : j.loose;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  }

  startsWith(magic: readonly number[]): boolean {
    if (this.bytes.length < magic.length) return false;
    return magic.every((m, i) => this.bytes[i] === m);
  }
}

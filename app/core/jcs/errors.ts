/** The errors and warnings of canonical JSON (RFC 8785 with I-JSON's refusals). */
import { cutIndex } from '../../../shared/text-cut.js';

export type JcsErrorCode =
  | 'ERR_SYNTAX'
  | 'ERR_UTF8'
  | 'ERR_BOM'
  | 'ERR_DUPLICATE_KEY'
  | 'ERR_LONE_SURROGATE'
  | 'ERR_NONFINITE'
  | 'ERR_DEPTH'
  | 'ERR_LIMIT';

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
    const where = [
      pointer !== undefined ? `at ${pointer === '' ? '(root)' : shownPointer(pointer)}` : '',
      line ? `(line ${line}, column ${column})` : '',
    ]
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

/** How much of a pointer a message shows: 512 levels of 64 KiB names make a pointer of 32 MB, the `pointer` member keeps it whole. */
const POINTER_SHOWN = 160;

/** A pointer for a message: whole when short, else its start and its size in characters and levels. */
function shownPointer(p: string): string {
  if (p.length <= POINTER_SHOWN) return p;
  const levels = p.split('/').length - 1;
  return `${p.slice(0, cutIndex(p, POINTER_SHOWN))}… (cut: ${p.length} characters, ${levels} levels)`;
}

/** A warning that does not refuse the input (RFC 8785 rounds, I-JSON frowns). */
export interface JcsWarning {
  /** WARN_PRECISION: beyond 2^53 the double is not the text's integer; WARN_UNDERFLOW: a non-zero number whose double is 0. */
  code: 'WARN_PRECISION' | 'WARN_UNDERFLOW';
  message: string;
  pointer: string;
}

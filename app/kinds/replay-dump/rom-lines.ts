/**
 * Lines of a ROM text by position. A ROM file may legally hold any number of blank lines,
 * so the reader never materializes one array element (or one string) per line: this
 * scanner walks the text with indexOf and slices only the lines the reader looks at
 * (2^27 blank lines as an array of strings took V8 past its heap limit).
 */

/** Blanks that canonicalization ignores around a line: space, tab and the CR of a CRLF. */
const isBlank = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d;
const NON_BLANK = /[^ \t\r\n]/g;

export class LineScanner {
  /** Offset of the next line's first character. */
  pos = 0;
  /** The current line is text[start, end), its LF excluded. */
  start = 0;
  end = 0;

  constructor(readonly text: string) {}

  /** Advances to the next line; false at the end of the text (a final LF opens no line). */
  next(): boolean {
    const t = this.text;
    if (this.pos >= t.length) return false;
    const nl = t.indexOf('\n', this.pos);
    this.start = this.pos;
    this.end = nl === -1 ? t.length : nl;
    this.pos = nl === -1 ? t.length : nl + 1;
    return true;
  }

  /**
   * Skips the blank lines ahead with one native regex scan (a call of indexOf per line costs
   * tens of nanoseconds, and 2^27 blank lines are legal); `next` then reads the first line
   * that is not blank. Line numbers are not counted here: an error counts them once (lineAt).
   */
  skipBlankLines(): void {
    const t = this.text;
    NON_BLANK.lastIndex = this.pos;
    const m = NON_BLANK.exec(t);
    // The next line is read from its first non-blank character: indentation is noise.
    this.pos = m ? m.index : t.length;
  }

  /**
   * Moves to the next line that is `fence` alone (blanks around it allowed) and returns
   * true; false, at the end of the text, when there is none. Searches with indexOf for the
   * fence, not line by line, for the same reason as skipBlankLines: a block may hold any
   * number of lines.
   */
  seekFence(fence: string): boolean {
    const t = this.text;
    for (let at = t.indexOf(fence, this.pos); at !== -1; at = t.indexOf(fence, at + 1)) {
      let a = at;
      while (a > this.pos && isBlank(t.charCodeAt(a - 1))) a--;
      if (a > this.pos && t.charCodeAt(a - 1) !== 0x0a) continue;
      let b = at + fence.length;
      while (b < t.length && isBlank(t.charCodeAt(b))) b++;
      if (b < t.length && t.charCodeAt(b) !== 0x0a) continue;
      this.start = a;
      this.end = b;
      this.pos = b < t.length ? b + 1 : b;
      return true;
    }
    return false;
  }

  /** The current line without the blanks around it; '' for a blank line (nothing sliced). */
  trimmed(): string {
    const t = this.text;
    let a = this.start;
    let b = this.end;
    while (a < b && isBlank(t.charCodeAt(a))) a++;
    while (b > a && isBlank(t.charCodeAt(b - 1))) b--;
    return a === b ? '' : t.slice(a, b);
  }

  /** The first non-blank character code of the current line, or -1 for a blank line. */
  firstCode(): number {
    const t = this.text;
    for (let a = this.start; a < this.end; a++) {
      const c = t.charCodeAt(a);
      if (!isBlank(c)) return c;
    }
    return -1;
  }
}

/** The 1-based line of `offset` in `s`: counted once, when an error names it. */
export function lineAt(s: string, offset: number): number {
  let n = 1;
  const end = Math.min(offset, s.length);
  for (let i = 0; i < end; i++) if (s.charCodeAt(i) === 0x0a) n++;
  return n;
}

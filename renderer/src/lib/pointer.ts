/**
 * Where an RFC 6901 pointer (or `line:N`) points in a JSON text, as a character range, so
 * the editor can highlight a finding's region. A read-only scanner that only *locates*;
 * it never canonicalizes (the engine's canonicalizer produced the canonical text).
 */
export interface Region {
  start: number;
  end: number;
}

function unescapeToken(t: string): string {
  return t.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The range of line n (1-based), or null past the end. */
function lineRegion(text: string, n: number): Region | null {
  let start = 0;
  for (let i = 1; i < n; i++) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) return null;
    start = nl + 1;
  }
  const end = text.indexOf('\n', start);
  return { start, end: end < 0 ? text.length : end };
}

/** A cursor over JSON text that skips values without building them. */
class Scanner {
  i = 0;
  constructor(private readonly text: string) {}

  ws(): void {
    const { text } = this;
    while (this.i < text.length && ' \t\r\n'.includes(text[this.i]!)) this.i++;
  }

  str(): string {
    const { text } = this;
    const s = this.i;
    this.i++;
    while (this.i < text.length && text[this.i] !== '"') this.i += text[this.i] === '\\' ? 2 : 1;
    this.i++;
    try {
      return JSON.parse(text.slice(s, this.i)) as string;
    } catch {
      return '';
    }
  }

  skip(): void {
    const { text } = this;
    this.ws();
    const c = text[this.i];
    if (c === '"') return void this.str();
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      this.i++;
      this.ws();
      if (text[this.i] === close) return void this.i++;
      for (;;) {
        if (c === '{') {
          this.ws();
          this.str();
          this.ws();
          this.i++; // colon
        }
        this.skip();
        this.ws();
        if (text[this.i] === ',') this.i++;
        else {
          this.i++;
          return;
        }
      }
    }
    while (this.i < text.length && !',]}'.includes(text[this.i]!) && !' \t\r\n'.includes(text[this.i]!)) this.i++;
  }

  /** At an object: moves to the value of member tok; false if it has none. */
  member(tok: string): boolean {
    const { text } = this;
    this.i++;
    for (;;) {
      this.ws();
      if (text[this.i] === '}' || this.i >= text.length) return false;
      const key = this.str();
      this.ws();
      this.i++;
      this.ws();
      if (key === tok) return true;
      this.skip();
      this.ws();
      if (text[this.i] === ',') this.i++;
    }
  }

  /** At an array: moves to element tok; false if there is none. */
  element(tok: string): boolean {
    const { text } = this;
    this.i++;
    const idx = Number(tok);
    if (!Number.isInteger(idx) || idx < 0) return false;
    for (let k = 0; k < idx; k++) {
      this.ws();
      if (text[this.i] === ']') return false;
      this.skip();
      this.ws();
      if (text[this.i] === ',') this.i++;
      else return false;
    }
    this.ws();
    return text[this.i] !== ']';
  }
}

export function locate(text: string, pointer: string | null): Region | null {
  if (!pointer) return null;
  const line = /^(?:.*:)?line:(\d+)$/.exec(pointer);
  if (line) return lineRegion(text, Number(line[1]));
  if (pointer !== '' && !pointer.startsWith('/')) return null;
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeToken);
  const s = new Scanner(text);
  s.ws();
  for (const tok of tokens) {
    s.ws();
    const c = text[s.i];
    if (c === '{') {
      if (!s.member(tok)) return null;
    } else if (c === '[') {
      if (!s.element(tok)) return null;
    } else return null;
  }
  s.ws();
  const start = s.i;
  s.skip();
  return { start, end: Math.max(s.i, start + 1) };
}

/**
 * Which of a directory's files a pointer names, and the line in it: `entry:NAME:line:N` a
 * line of the file NAME, `line:N` a line of the first file (a journal's entries); any other
 * pointer names no line, and the first file is shown.
 */
export function directoryLine(
  names: readonly string[],
  pointer: string | null,
): { file: number; pointer: string | null } {
  const m = pointer === null ? null : /^entry:([^:/]+):(line:[1-9]\d*)$/.exec(pointer);
  const named = m ? names.indexOf(m[1]!) : -1;
  if (m && named >= 0) return { file: named, pointer: m[2]! };
  return { file: 0, pointer: pointer !== null && /^line:[1-9]\d*$/.test(pointer) ? pointer : null };
}

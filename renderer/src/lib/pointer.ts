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

export function locate(text: string, pointer: string | null): Region | null {
  if (!pointer) return null;
  const line = /^(?:.*:)?line:(\d+)$/.exec(pointer);
  if (line) {
    const n = Number(line[1]);
    let start = 0;
    for (let i = 1; i < n; i++) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) return null;
      start = nl + 1;
    }
    const end = text.indexOf('\n', start);
    return { start, end: end < 0 ? text.length : end };
  }
  if (pointer !== '' && !pointer.startsWith('/')) return null;
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeToken);
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const str = (): string => {
    const s = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    try {
      return JSON.parse(text.slice(s, i)) as string;
    } catch {
      return '';
    }
  };
  const skip = (): void => {
    ws();
    const c = text[i];
    if (c === '"') return void str();
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) return void i++;
      for (;;) {
        if (c === '{') {
          ws();
          str();
          ws();
          i++; // colon
        }
        skip();
        ws();
        if (text[i] === ',') i++;
        else {
          i++;
          return;
        }
      }
    }
    while (i < text.length && !',]}'.includes(text[i]!) && !' \t\r\n'.includes(text[i]!)) i++;
  };
  ws();
  for (const tok of tokens) {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      for (;;) {
        ws();
        if (text[i] === '}' || i >= text.length) return null;
        const key = str();
        ws();
        i++;
        ws();
        if (key === tok) break;
        skip();
        ws();
        if (text[i] === ',') i++;
      }
    } else if (c === '[') {
      i++;
      const idx = Number(tok);
      if (!Number.isInteger(idx) || idx < 0) return null;
      for (let k = 0; k < idx; k++) {
        ws();
        if (text[i] === ']') return null;
        skip();
        ws();
        if (text[i] === ',') i++;
        else return null;
      }
      ws();
      if (text[i] === ']') return null;
    } else return null;
  }
  ws();
  const start = i;
  skip();
  return { start, end: Math.max(i, start + 1) };
}

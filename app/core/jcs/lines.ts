/**
 * JSON Lines told from one JSON document by its first newline: a first line that ends a
 * value (`}` or `]`) followed by a line that starts one (`{` or `[`) is never one JSON
 * text, because a raw newline can only stand between tokens (never inside a string) and
 * no comma stands between the two. A JSON Lines trace is such text; so is any document
 * with data after it on the next line.
 *
 * Why: the strict parse of a JSON Lines file as one document would parse its whole first
 * line before failing at the second (a first line of 100 MB is a 100 MB copy, and its
 * stripping thread another), and the checks of each line come after anyway. One native
 * search for the first newline decides it.
 */

const isBlank = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;

/** The end of the first line (its LF) when another JSON value follows it, else -1 (text, or bytes as UTF-8). */
export function firstLineEndBeforeValue(input: string | Uint8Array): number {
  let code: (i: number) => number;
  let nl: number;
  if (typeof input === 'string') {
    code = (i) => input.charCodeAt(i);
    nl = input.indexOf('\n');
  } else {
    code = (i) => input[i] ?? NaN;
    // A Buffer view: its indexOf is a native memchr (a plain Uint8Array's is a loop, 15 times slower).
    nl = Buffer.from(input.buffer, input.byteOffset, input.length).indexOf(0x0a);
  }
  if (nl === -1) return -1;
  let a = nl - 1;
  while (a >= 0 && isBlank(code(a))) a--;
  const before = code(a);
  if (before !== 0x7d && before !== 0x5d) return -1;
  let b = nl + 1;
  while (b < input.length && isBlank(code(b))) b++;
  const after = code(b);
  return after === 0x7b || after === 0x5b ? nl : -1;
}

import { cutIndex } from '../../shared/text-cut.js';

/**
 * A long string in pieces of at most `size` (2 or more) UTF-16 code units, never splitting a surrogate
 * pair: each piece encodes to the same UTF-8 as its part of the whole. Hashing or writing a
 * long text piece by piece never holds its whole UTF-8 (a 100 MiB canonical text is
 * another 100 MiB of bytes when encoded at once). A piece is a slice, which V8 keeps as a
 * view of the string, not a copy.
 */
export function* stringPieces(s: string, size: number): Generator<string> {
  for (let i = 0; i < s.length;) {
    const end = Math.max(i + 1, cutIndex(s, Math.min(i + size, s.length)));
    yield s.slice(i, end);
    i = end;
  }
}

import { constants, isUtf8 } from 'node:buffer';
import { JcsError } from './errors.js';

/**
 * Decode UTF-8 strictly. A byte-order mark or invalid UTF-8 is refused. Validation is
 * node:buffer's `isUtf8` (simdutf, strict: no overlongs, no encoded surrogates), then the
 * native decoder, which is faster than a fatal TextDecoder on non-ASCII text.
 */
export function decodeJsonBytes(bytes: Uint8Array): string {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new JcsError('ERR_BOM', 'a byte-order mark precedes the JSON text', undefined);
  }
  if (!isUtf8(bytes)) throw new JcsError('ERR_UTF8', 'the input is not valid UTF-8');
  try {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  } catch (e) {
    // V8 holds no string past its limit (about 512 Mi UTF-16 code units): a well-formed text
    // that large cannot be parsed as one JSON text here, which is not a syntax error.
    if (!(e instanceof RangeError) && (e as { code?: string }).code !== 'ERR_STRING_TOO_LONG') throw e;
    throw new JcsError(
      'ERR_LIMIT',
      `the text (${bytes.byteLength} bytes) is longer than the longest string this engine holds (${MAX_STRING_LENGTH} characters), so it cannot be read as one JSON text`,
    );
  }
}

/** V8's longest string on 64-bit platforms (buffer.constants.MAX_STRING_LENGTH). */
const MAX_STRING_LENGTH = constants.MAX_STRING_LENGTH;

import { isUtf8 } from 'node:buffer';
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
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

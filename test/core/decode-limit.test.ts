/**
 * A well-formed JSON text longer than the longest string V8 holds (about 512 Mi characters)
 * cannot be decoded into one string: the decoder says so as a limit (ERR_LIMIT), in its own
 * words, never as V8's "Cannot create a string longer than…" shown as a syntax error.
 */
import { constants } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { decodeJsonBytes } from '../../app/core/jcs/decode.js';
import { JcsError } from '../../app/core/jcs/errors.js';

describe('decodeJsonBytes past the engine string limit', () => {
  it('is refused as a limit, naming the size', () => {
    const bytes = Buffer.alloc(constants.MAX_STRING_LENGTH + 1, 0x20);
    bytes[0] = 0x22; // '"', the start of one long string
    let e: unknown;
    try {
      decodeJsonBytes(bytes);
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(JcsError);
    expect((e as JcsError).code).toBe('ERR_LIMIT');
    expect((e as JcsError).message).toBe(
      `ERR_LIMIT: the text (${bytes.byteLength} bytes) is longer than the longest string this engine holds (${constants.MAX_STRING_LENGTH} characters), so it cannot be read as one JSON text`,
    );
  });
});

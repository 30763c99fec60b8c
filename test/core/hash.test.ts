import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HASH_CHUNK, hashBytes, hashValue, isHashString } from '../../app/core/hash.js';
import { stringPieces } from '../../app/core/string-pieces.js';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { hashBytes as hashInWindow, hasher } from '../../renderer/src/lib/digest.js';

describe('node:crypto (engine) and @noble/hashes (renderer) agree', () => {
  it('on the empty input', async () => {
    expect(hashBytes(new Uint8Array())).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await hashInWindow(new Uint8Array())).toBe(hashBytes(new Uint8Array()));
    expect(await hashInWindow(new Blob([]))).toBe(hashBytes(new Uint8Array()));
  });
  it('on a large input (48 MiB, as a Blob like a picked file) and on odd lengths around block boundaries', async () => {
    const big = randomBytes(48 * 1024 * 1024 + 3);
    expect(await hashInWindow(new Blob([big]))).toBe(hashBytes(big));
    for (const n of [1, 55, 56, 63, 64, 65, 119, 120, 128, 1000]) {
      const b = randomBytes(n);
      expect(await hashInWindow(b)).toBe(hashBytes(b));
    }
  });
  it('fed in uneven pieces, as the upload worker feeds the chunks it sends', () => {
    const big = randomBytes(5 * 1024 * 1024 + 17);
    const h = hasher();
    for (let i = 0, n = 1; i < big.length; i += n, n = (n * 7 + 3) % (1 << 20)) h.update(big.subarray(i, i + n));
    expect(h.digest()).toBe(hashBytes(big));
  });
});

describe('hash strings', () => {
  it('accepts only sha256: + 64 lowercase hex', () => {
    expect(isHashString('sha256:' + 'a'.repeat(64))).toBe(true);
    for (const bad of [
      'sha256:' + 'A'.repeat(64),
      'sha512:' + 'a'.repeat(64),
      'sha256:' + 'a'.repeat(63),
      'a'.repeat(64),
      'SHA256:' + 'a'.repeat(64),
      42,
    ]) {
      expect(isHashString(bad)).toBe(false);
    }
  });
  it('H(value) hashes the canonical JSON', () => {
    expect(hashValue({ b: 1, a: [1.0, 'x'] })).toBe(hashBytes(canonicalizeValue({ a: [1, 'x'], b: 1 })));
    expect(hashValue({ b: 1, a: [1.0, 'x'] })).toBe(hashBytes('{"a":[1,"x"],"b":1}'));
  });
});

describe('long strings, hashed and written in pieces', () => {
  it('never splits a surrogate pair, and the pieces join to the string', () => {
    const s = 'ab😀cd😀😀e' + '\ud800' + 'f';
    for (const size of [2, 3, 4, 5, 7]) {
      const pieces = [...stringPieces(s, size)];
      expect(pieces.join('')).toBe(s);
      expect(Buffer.concat(pieces.map((p) => Buffer.from(p, 'utf8')))).toEqual(Buffer.from(s, 'utf8'));
      for (const p of pieces) expect(p.length).toBeLessThanOrEqual(size);
    }
  });
  it('H_bytes of a text longer than a piece equals the hash of its UTF-8', () => {
    // A pair straddles the piece boundary (HASH_CHUNK code units), and a lone surrogate.
    const s = 'x'.repeat(HASH_CHUNK - 1) + '😀' + 'é✓'.repeat(1000) + '\udc00' + 'y'.repeat(HASH_CHUNK);
    expect(s.length).toBeGreaterThan(HASH_CHUNK);
    expect(hashBytes(s)).toBe('sha256:' + createHash('sha256').update(Buffer.from(s, 'utf8')).digest('hex'));
  });
});

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashBytes, hashValue, isHashString } from '../../app/core/hash.js';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { hashBytes as hashInWindow } from '../../renderer/src/lib/digest.js';

describe('node:crypto (engine) and WebCrypto (renderer) agree', () => {
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
});

describe('hash strings', () => {
  it('accepts only sha256: + 64 lowercase hex', () => {
    expect(isHashString('sha256:' + 'a'.repeat(64))).toBe(true);
    for (const bad of ['sha256:' + 'A'.repeat(64), 'sha512:' + 'a'.repeat(64), 'sha256:' + 'a'.repeat(63), 'a'.repeat(64), 'SHA256:' + 'a'.repeat(64), 42]) {
      expect(isHashString(bad)).toBe(false);
    }
  });
  it('H(value) hashes the canonical JSON', () => {
    expect(hashValue({ b: 1, a: [1.0, 'x'] })).toBe(hashBytes(canonicalizeValue({ a: [1, 'x'], b: 1 })));
    expect(hashValue({ b: 1, a: [1.0, 'x'] })).toBe(hashBytes('{"a":[1,"x"],"b":1}'));
  });
});

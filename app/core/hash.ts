/**
 * SHA-256 in the engine: node:crypto (native, uses the CPU's SHA instructions).
 * Hash strings are formatted by shared/hash-format.ts; canonical JSON comes from jcs.ts.
 */
import * as nodeCrypto from 'node:crypto';
import { createHash, type Hash } from 'node:crypto';
import { openRegular } from './files.js';
import { formatHash } from '../../shared/hash-format.js';
import { canonicalizeValue } from './jcs.js';

export { isHashString, isBareHex64, formatHash, ZERO_HASH } from '../../shared/hash-format.js';
import { stringPieces } from './string-pieces.js';

/** Chunk size for streaming file hashes: large chunks keep per-call overhead negligible. */
export const HASH_CHUNK = 4 * 1024 * 1024;

// crypto.hash (Node >= 20.12) is a one-shot digest without a Hash object: for the many
// small inputs of a journal or a Merkle tree it is several times faster than createHash.
type OneShot = (alg: string, data: Uint8Array | string, enc: 'hex' | 'buffer') => string | Buffer;
const oneShot = (nodeCrypto as unknown as { hash?: OneShot }).hash;

export function sha256(data: Uint8Array | string): Buffer {
  return oneShot ? (oneShot('sha256', data, 'buffer') as Buffer) : createHash('sha256').update(data).digest();
}

export function sha256Hex(data: Uint8Array | string): string {
  return oneShot ? (oneShot('sha256', data, 'hex') as string) : createHash('sha256').update(data).digest('hex');
}

/** `H_bytes(b)`: `sha256:` + hex of the SHA-256 of the bytes (strings hash as UTF-8). */
export function hashBytes(data: Uint8Array | string): string {
  if (typeof data === 'string' && data.length > HASH_CHUNK) {
    // A long text is encoded piece by piece into one buffer: its UTF-8 is never held whole,
    // and no piece is left for the collector (at most 3 bytes per UTF-16 code unit).
    const h = createHash('sha256');
    const buf = Buffer.allocUnsafe(HASH_CHUNK * 3);
    for (const piece of stringPieces(data, HASH_CHUNK)) h.update(buf.subarray(0, buf.write(piece, 'utf8')));
    return formatHash(h.digest('hex'));
  }
  return formatHash(sha256Hex(data));
}

/** `H(value)`: the hash of the canonical JSON (RFC 8785) of a value. */
export function hashValue(value: unknown): string {
  return hashBytes(canonicalizeValue(value));
}

/** Hash of canonical text already produced by jcs.ts. */
export function hashCanonicalText(canonical: string): string {
  return hashBytes(canonical);
}

export function newHasher(): Hash {
  return createHash('sha256');
}

/**
 * Streams a file through SHA-256 in HASH_CHUNK pieces with two buffers, so the next read
 * (in libuv's thread pool) overlaps the hashing of the current one; memory stays bounded.
 */
export async function hashFile(path: string): Promise<string> {
  // A regular file only: hashing /dev/zero would never end.
  const { fh } = await openRegular(path);
  try {
    const h = createHash('sha256');
    const bufs = [Buffer.allocUnsafe(HASH_CHUNK), Buffer.allocUnsafe(HASH_CHUNK)];
    let which = 0;
    let pending = fh.read(bufs[0]!, 0, HASH_CHUNK, null);
    for (;;) {
      const { bytesRead, buffer } = await pending;
      if (bytesRead === 0) break;
      which ^= 1;
      pending = fh.read(bufs[which]!, 0, HASH_CHUNK, null);
      h.update(buffer.subarray(0, bytesRead));
    }
    return formatHash(h.digest('hex'));
  } finally {
    await fh.close();
  }
}

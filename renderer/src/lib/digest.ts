/**
 * SHA-256 in the browser (@noble/hashes: portable, no WebCrypto secure-context rules),
 * formatted by the one hash-string module in shared/. The UI hashes a file locally so the
 * reviewer sees that the engine checked exactly the bytes they chose.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { formatHash, toHex } from '../../../shared/hash-format.js';

export function hashBytesPortable(bytes: Uint8Array): string {
  const h = portableHasher();
  h.update(bytes);
  return h.digest();
}

/** Incremental SHA-256 (a file read chunk by chunk), formatted as a hash string at the end. */
export function portableHasher(): { update(bytes: Uint8Array): void; digest(): string } {
  const h = sha256.create();
  return { update: (b) => void h.update(b), digest: () => formatHash(toHex(h.digest())) };
}

/**
 * SHA-256 in the browser (@noble/hashes: portable, no WebCrypto secure-context rules),
 * formatted by the one hash-string module in shared/. The UI hashes a file locally so the
 * reviewer sees that the engine checked exactly the bytes they chose.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { formatHash, toHex } from '../../../shared/hash-format.js';

export function hashBytesPortable(bytes: Uint8Array): string {
  return formatHash(toHex(sha256(bytes)));
}

/** Base64 of bytes without building one giant argument list. */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  const CH = 0x8000;
  for (let i = 0; i < bytes.length; i += CH) s += String.fromCharCode(...bytes.subarray(i, i + CH));
  return btoa(s);
}

/**
 * SHA-256 in portable code: `@noble/hashes`, synchronous, the same digest in the window, a
 * worker or Node. The engine hashes files and canonical values with node:crypto
 * (app/core/hash.ts, native and faster); what runs in both rooms (the diff's page, which the
 * CLI and the window both write) and the window's own hashing (renderer/src/lib/digest.ts)
 * use this. Hash strings are formatted by shared/hash-format.ts.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { toHex } from './hash-format.js';

/** One SHA-256 fed piece by piece (a file's chunks as they are read). */
export interface Sha256Stream {
  update(bytes: Uint8Array): void;
  /** The digest of everything fed so far, 64 lowercase hex (ends the stream). */
  hex(): string;
}

export function sha256Stream(): Sha256Stream {
  const h = sha256.create();
  return { update: (b) => void h.update(b), hex: () => toHex(h.digest()) };
}

const UTF8 = new TextEncoder();

/**
 * The SHA-256 of a text's UTF-8, 64 lowercase hex. A lone surrogate has no UTF-8 (it would be
 * encoded as U+FFFD, as any other): a caller whose text may hold one hashes an injective
 * writing of it, JSON.stringify's, which writes it as its `\uXXXX` escape.
 */
export function sha256TextHex(text: string): string {
  return toHex(sha256(UTF8.encode(text)));
}

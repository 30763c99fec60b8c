/**
 * SHA-256 in the window, as common.md asks of portable code: `@noble/hashes` through the one
 * portable SHA-256 module (shared/sha256.ts), incremental, formatted by the one hash-string
 * module in shared/. The UI hashes a picked file itself so the reviewer sees that the engine
 * checked exactly the bytes they chose.
 *
 * Incremental, so a file is hashed as it is read, a few MiB at a time, and never held
 * whole in the window's memory. The pure-JS digest runs at about 0.1 GB/s here, so its
 * callers keep it off the verdict's path: the upload worker (file-prep.worker.ts) hashes
 * beside the sending, and the verdict does not wait for it (the banner says "computing"
 * until it lands).
 */
import { formatHash } from '../../../shared/hash-format.js';
import { sha256Stream } from '../../../shared/sha256.js';

/** One SHA-256 fed piece by piece (the chunks of a file as they are read or sent). */
export interface Hasher {
  update(bytes: Uint8Array): void;
  /** The `sha256:` hash string of everything fed so far (ends the hasher). */
  digest(): string;
}

export function hasher(): Hasher {
  const h = sha256Stream();
  return { update: (b) => h.update(b), digest: () => formatHash(h.hex()) };
}

/** The hash string of a Blob (a picked File), read as the browser streams it, or of bytes in memory. */
export async function hashBytes(data: Blob | Uint8Array): Promise<string> {
  const h = hasher();
  if (data instanceof Uint8Array) {
    h.update(data);
    return h.digest();
  }
  const reader = data.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return h.digest();
    h.update(value);
  }
}

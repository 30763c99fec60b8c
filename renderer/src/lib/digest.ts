/**
 * SHA-256 in the window (WebCrypto's native digest, formatted by the one hash-string module
 * in shared/). The UI hashes a file locally so the reviewer sees that the engine checked
 * exactly the bytes they chose. WebCrypto digests one whole buffer, so a picked file is read
 * once more in full (the engine holds a whole upload in memory too, at most MAX_API_BYTES);
 * the digest runs on the browser's crypto thread, at the CPU's SHA speed, while the chunks
 * stream. Both shells are secure contexts (loopback http, Electron's app:// scheme).
 */
import { formatHash, toHex } from '../../../shared/hash-format.js';

export async function hashBytes(data: Blob | BufferSource): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('this window cannot compute SHA-256 (WebCrypto needs a secure context)');
  const bytes = data instanceof Blob ? await data.arrayBuffer() : data;
  return formatHash(toHex(new Uint8Array(await subtle.digest('SHA-256', bytes))));
}

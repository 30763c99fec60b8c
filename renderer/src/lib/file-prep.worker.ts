/// <reference lib="webworker" />
/**
 * Reads a chosen file off the window's main thread: its SHA-256 (@noble/hashes, the
 * window's own check that the engine saw these bytes) and its base64 in 1 MiB chunks, so
 * no message (worker → window → engine) is ever one giant string.
 */
import { hashBytesPortable, toBase64 } from './digest';

export const CHUNK = 1024 * 1024;

self.onmessage = async (e: MessageEvent<File>) => {
  const post = (m: unknown): void => (self as unknown as Worker).postMessage(m);
  try {
    const bytes = new Uint8Array(await e.data.arrayBuffer());
    post({ kind: 'size', size: bytes.length });
    for (let i = 0; i < bytes.length; i += CHUNK) post({ kind: 'chunk', dataBase64: toBase64(bytes.subarray(i, i + CHUNK)) });
    post({ kind: 'done', sha256: hashBytesPortable(bytes) });
  } catch (err) {
    post({ kind: 'error', message: err instanceof Error ? err.message : String(err) });
  }
};

/// <reference lib="webworker" />
/**
 * Reads a chosen file off the window's main thread: its SHA-256 (@noble/hashes, the
 * window's own check that the engine saw these bytes) and its base64 for the transport.
 */
import { hashBytesPortable, toBase64 } from './digest';

self.onmessage = async (e: MessageEvent<File>) => {
  try {
    const bytes = new Uint8Array(await e.data.arrayBuffer());
    const sha256 = hashBytesPortable(bytes);
    const dataBase64 = toBase64(bytes);
    (self as unknown as Worker).postMessage({ ok: true, sha256, dataBase64 });
  } catch (err) {
    (self as unknown as Worker).postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
  }
};

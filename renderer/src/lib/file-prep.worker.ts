/// <reference lib="webworker" />
/**
 * Reads a chosen file off the window's main thread, 1 MiB at a time (File.slice, so the
 * whole file is never in memory at once): its SHA-256, computed incrementally
 * (@noble/hashes: the window's own check that the engine saw these bytes), and the raw
 * chunks, handed to the window as transferred ArrayBuffers (no copy, no base64). The
 * window pulls: it sends 'more' for each chunk it can take, so only a few MiB are ever in
 * flight (no memory pressure, hence no long garbage collections, on the window's thread).
 */
import { portableHasher } from './digest';

export const CHUNK = 512 * 1024;

const scope = self as unknown as Worker;
let credits = 0;
let wake: (() => void) | null = null;

async function send(file: File): Promise<void> {
  const h = portableHasher();
  scope.postMessage({ kind: 'size', size: file.size });
  for (let i = 0; i < file.size; i += CHUNK) {
    while (credits === 0) await new Promise<void>((r) => (wake = r));
    credits--;
    const buf = await file.slice(i, Math.min(file.size, i + CHUNK)).arrayBuffer();
    h.update(new Uint8Array(buf));
    scope.postMessage({ kind: 'chunk', data: buf }, [buf]);
  }
  scope.postMessage({ kind: 'done', sha256: h.digest() });
}

self.onmessage = (e: MessageEvent<File | 'more'>) => {
  if (e.data === 'more') {
    credits++;
    const w = wake;
    wake = null;
    w?.();
    return;
  }
  send(e.data).catch((err: unknown) => scope.postMessage({ kind: 'error', message: err instanceof Error ? err.message : String(err) }));
};

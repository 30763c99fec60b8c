/// <reference lib="webworker" />
/**
 * Reads a chosen file off the window's main thread, CHUNK bytes at a time (File.slice, so the
 * whole file is never in memory at once): its SHA-256, computed incrementally
 * (@noble/hashes: the window's own check that the engine saw these bytes), and the raw
 * chunks, handed to the window as transferred ArrayBuffers (no copy, no base64). The
 * window pulls: it sends 'more' for each chunk it can take, so only a few MiB are ever in
 * flight (no memory pressure, hence no long garbage collections, on the window's thread).
 */
import { binaryFrame } from '../transport';
import { portableHasher } from './digest';

/** 2 MiB: few enough messages for a 100 MiB file (50), small enough to show progress early. */
export const CHUNK = 2 * 1024 * 1024;

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

/** Chunks on the worker's own socket at once: a few MiB in flight, no round trip per chunk. */
const SOCKET_IN_FLIGHT = 4;

/**
 * The web host: the worker opens its own API socket (same origin, same token) and sends
 * each chunk as an uploadChunk binary frame itself, so the bytes never touch the window's
 * thread at all; the window gets only progress. Answers come back in order.
 */
async function sendOverSocket(file: File, url: string, uploadId: string): Promise<void> {
  const ws = new WebSocket(url);
  ws.binaryType = 'arraybuffer';
  await new Promise<void>((res, rej) => {
    ws.onopen = () => res();
    ws.onerror = () => rej(new Error('cannot reach the engine'));
  });
  let inFlight = 0;
  let failure: Error | null = null;
  let wakeAck: (() => void) | null = null;
  ws.onmessage = (ev) => {
    const msg = JSON.parse(String(ev.data)) as { id?: number; result?: { received: number }; error?: { message: string }; event?: unknown };
    if (msg.event !== undefined || msg.id === undefined) return;
    inFlight--;
    if (msg.error) failure = new Error(msg.error.message);
    else if (msg.result) scope.postMessage({ kind: 'progress', received: msg.result.received });
    const w = wakeAck;
    wakeAck = null;
    w?.();
  };
  ws.onclose = () => {
    failure ??= inFlight > 0 ? new Error('the connection to the engine closed') : null;
    wakeAck?.();
  };
  const settled = async (max: number): Promise<void> => {
    while (inFlight > max && !failure) await new Promise<void>((r) => (wakeAck = r));
    if (failure) throw failure;
  };
  const h = portableHasher();
  const read = (at: number): Promise<ArrayBuffer> => file.slice(at, Math.min(file.size, at + CHUNK)).arrayBuffer();
  let id = 1;
  // The next slice is read while this one is hashed and sent: reading (the browser's file
  // I/O) and hashing (this thread's CPU) overlap.
  let next = file.size > 0 ? read(0) : null;
  for (let i = 0; i < file.size; i += CHUNK) {
    const data = new Uint8Array(await next!);
    next = i + CHUNK < file.size ? read(i + CHUNK) : null;
    await settled(SOCKET_IN_FLIGHT - 1);
    h.update(data);
    inFlight++;
    ws.send(binaryFrame(id++, 'uploadChunk', [{ uploadId, data }])!);
  }
  await settled(0);
  ws.close();
  scope.postMessage({ kind: 'done', sha256: h.digest() });
}

self.onmessage = (e: MessageEvent<File | 'more' | { file: File; url: string; uploadId: string }>) => {
  if (typeof e.data === 'object' && !(e.data instanceof File)) {
    const { file, url, uploadId } = e.data;
    sendOverSocket(file, url, uploadId).catch((err: unknown) => scope.postMessage({ kind: 'error', message: err instanceof Error ? err.message : String(err) }));
    return;
  }
  if (e.data === 'more') {
    credits++;
    const w = wake;
    wake = null;
    w?.();
    return;
  }
  send(e.data).catch((err: unknown) => scope.postMessage({ kind: 'error', message: err instanceof Error ? err.message : String(err) }));
};

/// <reference lib="webworker" />
/**
 * Sends a chosen file off the window's main thread: through the web host as one HTTP body;
 * in Electron CHUNK bytes at a time (File.slice), the raw chunks handed to the window as
 * transferred ArrayBuffers (no copy, no base64). Beside that, its SHA-256 (digest.ts: the
 * window's own check that the engine saw these bytes), started first and awaited last, so
 * sending never waits for hashing. In Electron the window pulls: it sends 'more' for each
 * chunk it can take, so only a few MiB of chunks are ever in flight (no memory pressure,
 * hence no long garbage collections, on the window's thread).
 */
import { hashBytes } from './digest';

/** 2 MiB: few enough messages for a 100 MiB file (50), small enough to show progress early. */
export const CHUNK = 2 * 1024 * 1024;

const scope = self as unknown as Worker;
let credits = 0;
let wake: (() => void) | null = null;

async function send(file: File): Promise<void> {
  const hashed = hashBytes(file);
  hashed.catch(() => undefined);
  scope.postMessage({ kind: 'size', size: file.size });
  for (let i = 0; i < file.size; i += CHUNK) {
    while (credits === 0) await new Promise<void>((r) => (wake = r));
    credits--;
    const buf = await file.slice(i, Math.min(file.size, i + CHUNK)).arrayBuffer();
    scope.postMessage({ kind: 'chunk', data: buf }, [buf]);
  }
  scope.postMessage({ kind: 'done', sha256: await hashed });
}

/** The engine's answer to an upload request: `{received}`, or `{error: {message}}`. */
function refusalOf(x: XMLHttpRequest): string {
  try {
    const m = (JSON.parse(x.responseText) as { error?: { message?: unknown } }).error?.message;
    if (typeof m === 'string') return m;
  } catch {
    /* not JSON: say the status */
  }
  return `the engine refused the upload (HTTP ${x.status})`;
}

/**
 * The web host: the File itself is the body of one POST (main/webhost/upload-route.ts),
 * which the browser streams from disk off every page thread, several times faster than
 * WebSocket frames; progress is what the browser has sent. The token goes as a bearer
 * header, never in the address.
 */
async function sendOverHttp(file: File, token: string, uploadId: string): Promise<void> {
  const hashed = hashBytes(file);
  hashed.catch(() => undefined);
  await new Promise<void>((resolve, reject) => {
    const x = new XMLHttpRequest();
    x.open('POST', `/upload/${encodeURIComponent(uploadId)}`);
    x.setRequestHeader('Authorization', `Bearer ${token}`);
    x.upload.onprogress = (e) => scope.postMessage({ kind: 'progress', received: e.loaded });
    x.onload = () => (x.status === 200 ? resolve() : reject(new Error(refusalOf(x))));
    x.onerror = () => reject(new Error('cannot reach the engine'));
    x.send(file);
  });
  scope.postMessage({ kind: 'done', sha256: await hashed });
}

self.onmessage = (e: MessageEvent<File | 'more' | { file: File; token: string; uploadId: string }>) => {
  if (typeof e.data === 'object' && !(e.data instanceof File)) {
    const { file, token, uploadId } = e.data;
    sendOverHttp(file, token, uploadId).catch((err: unknown) => scope.postMessage({ kind: 'error', message: err instanceof Error ? err.message : String(err) }));
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

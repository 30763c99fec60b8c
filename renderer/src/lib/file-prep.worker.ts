/// <reference lib="webworker" />
/**
 * Sends a chosen file off the window's main thread: through the web host as one HTTP body;
 * in Electron CHUNK bytes at a time (File.slice), the raw chunks handed to the window as
 * transferred ArrayBuffers (no copy, no base64). Beside that, its SHA-256 (digest.ts: the
 * window's own check that the engine saw these bytes). The sending never waits for the
 * hashing: 'sent' ends the upload (the window starts the job), 'hashed' comes when the
 * digest does. The file is hashed only when the window asks ('hash', once the verdict is
 * in), as a stream of its own, so the pure-JS digest takes no core from the sending or the
 * engine's verification on a two-core machine. In Electron the window pulls: it sends 'more' for each chunk it can take,
 * so only a few MiB of chunks are ever in flight (no memory pressure, hence no long
 * garbage collections, on the window's thread).
 */
import { hashBytes } from './digest';

/** 2 MiB: few enough messages for a 100 MiB file (50), small enough to show progress early. */
export const CHUNK = 2 * 1024 * 1024;

/** What the worker tells the window (file-prep.ts). */
export type PrepMsg =
  | { kind: 'progress'; received: number }
  | { kind: 'chunk'; data: ArrayBuffer }
  | { kind: 'sent' }
  | { kind: 'hashed'; sha256: string }
  | { kind: 'hash-failed'; message: string }
  | { kind: 'error'; message: string };

const scope = self as unknown as Worker;
const tell = (m: PrepMsg, transfer: Transferable[] = []): void => scope.postMessage(m, transfer);
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
let credits = 0;
/** The file sent, hashed when the window asks: read as a stream of its own. */
let picked: File | null = null;
let wake: (() => void) | null = null;

/** Electron: each chunk is read and transferred to the window. */
async function sendChunks(file: File): Promise<void> {
  picked = file;
  for (let i = 0; i < file.size; i += CHUNK) {
    while (credits === 0) await new Promise<void>((r) => (wake = r));
    credits--;
    const buf = await file.slice(i, Math.min(file.size, i + CHUNK)).arrayBuffer();
    tell({ kind: 'chunk', data: buf }, [buf]);
  }
  tell({ kind: 'sent' });
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
function sendOverHttp(file: File, token: string, uploadId: string): void {
  const x = new XMLHttpRequest();
  x.open('POST', `/upload/${encodeURIComponent(uploadId)}`);
  x.setRequestHeader('Authorization', `Bearer ${token}`);
  x.upload.onprogress = (e) => tell({ kind: 'progress', received: e.loaded });
  x.onload = () => tell(x.status === 200 ? { kind: 'sent' } : { kind: 'error', message: refusalOf(x) });
  x.onerror = () => tell({ kind: 'error', message: 'cannot reach the engine' });
  x.send(file);
  picked = file;
}

function hashPicked(): void {
  if (!picked) return tell({ kind: 'hash-failed', message: 'no file was sent' });
  hashBytes(picked).then(
    (sha256) => tell({ kind: 'hashed', sha256 }),
    (err: unknown) => tell({ kind: 'hash-failed', message: messageOf(err) }),
  );
}

self.onmessage = (e: MessageEvent<File | 'more' | 'hash' | { file: File; token: string; uploadId: string }>) => {
  if (typeof e.data === 'object' && !(e.data instanceof File)) {
    const { file, token, uploadId } = e.data;
    sendOverHttp(file, token, uploadId);
    return;
  }
  if (e.data === 'hash') return hashPicked();
  if (e.data === 'more') {
    credits++;
    const w = wake;
    wake = null;
    w?.();
    return;
  }
  sendChunks(e.data).catch((err: unknown) => tell({ kind: 'error', message: messageOf(err) }));
};

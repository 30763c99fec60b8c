/**
 * Sends a chosen file to the engine without freezing the window: a Web Worker sends it and,
 * beside that, hashes it (digest.ts). Through the web host the worker sends the File itself
 * as one HTTP request body (POST /upload/ID, main/webhost/upload-route.ts): the browser
 * streams it from disk, and the window's thread never touches the bytes. In Electron (no
 * web host) the worker reads CHUNK-sized pieces and transfers each here, and each goes over
 * IPC as its own uploadChunk call. The job then names the upload.
 *
 * Through the web host the upload is `arriving` (main/webhost/upload-files.ts): its
 * SentFile comes as soon as it has begun, and the job may start while the bytes are sent
 * (the engine follows the file as it is written); `sent` settles when they are all in.
 * Elsewhere the SentFile comes once the engine holds every byte. The window's own hash is
 * asked for apart (`SentFile.hash`), so the job and its verdict never wait for the slower
 * JS digest.
 */
import type { RepriseClient } from '../../../shared/api';
import { webHostToken } from '../transport';
import type { PrepMsg } from './file-prep.worker';
import FilePrepWorker from './file-prep.worker?worker';

/** Chunks read ahead and on the wire at once (CHUNK each: a few MiB in memory at most). */
const IN_FLIGHT = 4;

export interface SentFile {
  uploadId: string;
  /** A job on the upload may start now: the engine follows its bytes as they arrive. */
  arriving: boolean;
  /** Settles when every byte is in (rejects with why the sending failed). */
  sent: Promise<void>;
  /** The window's own SHA-256 of the file (asked once; rejects if the file could not be read). */
  hash(): Promise<string>;
  /** The hash is not wanted after all (another file was opened): the worker goes. */
  drop(): void;
}

export function uploadFile(api: RepriseClient, file: File, onProgress?: (fraction: number) => void): Promise<SentFile> {
  const token = webHostToken();
  return token ? uploadFromWorker(api, file, token, onProgress) : uploadThroughWindow(api, file, onProgress);
}

/**
 * The worker's hash, and the worker's end: it goes once its hash has come, when the hash
 * is dropped, or at once when the upload failed (nothing then waits for the hash).
 */
class WorkerHash {
  private settle: { resolve(h: string): void; reject(e: Error): void } | null = null;
  readonly sha256 = new Promise<string>((resolve, reject) => (this.settle = { resolve, reject }));
  constructor(
    private readonly w: Worker,
    private readonly file: File,
  ) {
    this.sha256.catch(() => undefined); // read by the banner; never an unhandled rejection
  }

  /** Takes the worker's 'hashed' or 'hash-failed'; false for any other message. */
  onHash(m: PrepMsg): boolean {
    if (m.kind === 'hashed') this.settle?.resolve(m.sha256);
    else if (m.kind === 'hash-failed')
      this.settle?.reject(new Error(`this window could not hash ${this.file.name}: ${m.message}`));
    else return false;
    this.w.terminate();
    return true;
  }

  /** The upload's SentFile; `ask` starts the worker's hashing. */
  sentFile(uploadId: string, arriving: boolean, sent: Promise<void>, ask: () => void): SentFile {
    let asked = false;
    return {
      uploadId,
      arriving,
      sent,
      hash: () => {
        if (!asked) ask();
        asked = true;
        return this.sha256;
      },
      drop: () => this.stop(),
    };
  }

  stop(): void {
    this.w.terminate();
    this.settle?.reject(new Error(`the window stopped hashing ${this.file.name}`));
  }
}

/** The web host: the worker sends and hashes; the window hears only progress, the end and the hash. */
async function uploadFromWorker(
  api: RepriseClient,
  file: File,
  token: string,
  onProgress?: (fraction: number) => void,
): Promise<SentFile> {
  const { uploadId, arriving = false } = await api.beginUpload({ name: file.name, size: file.size });
  const w = new FilePrepWorker();
  const hash = new WorkerHash(w, file);
  const sent = new Promise<void>((resolve, reject) => {
    const fail = (message: string): void => {
      hash.stop();
      reject(new Error(`cannot send ${file.name}: ${message}`));
    };
    w.onmessage = (e: MessageEvent<PrepMsg>) => {
      const m = e.data;
      if (hash.onHash(m)) return;
      if (m.kind === 'progress') onProgress?.(file.size ? m.received / file.size : 1);
      else if (m.kind === 'sent') resolve();
      else if (m.kind === 'error') fail(m.message);
    };
    // A worker whose script could not load (a renderer rebuilt under the window) reports an
    // error event without a message: say what stopped rather than "undefined".
    w.onerror = (e) => fail(e.message || "the window's sending worker stopped; reload the window and send it again");
  });
  sent.catch(() => undefined); // the caller reads it (or awaits it below)
  w.postMessage({ file, token, uploadId });
  if (!arriving) await sent;
  return hash.sentFile(uploadId, arriving, sent, () => w.postMessage('hash'));
}

/** Electron: the chunks cross the window (transferred buffers, structured clones over IPC). */
function uploadThroughWindow(
  api: RepriseClient,
  file: File,
  onProgress?: (fraction: number) => void,
): Promise<SentFile> {
  return new Promise((resolve, reject) => {
    const w = new FilePrepWorker();
    const hash = new WorkerHash(w, file);
    let failed = false;
    const fail = (message: string): void => {
      if (failed) return;
      failed = true;
      hash.stop();
      reject(new Error(`cannot read ${file.name}: ${message}`));
    };
    const begun = api.beginUpload({ name: file.name, size: file.size }).then((r) => r.uploadId);
    begun.catch((err: Error) => fail(err.message));
    // Chunks are sent as soon as the worker hands them over, without waiting for the
    // previous answer: the socket (or IPC channel) keeps them in order and the host appends
    // them in arrival order, so a 100 MiB file costs no round trip per chunk. The worker
    // reads a chunk only when one has been acknowledged (IN_FLIGHT credits): bounded memory.
    const pending: Promise<unknown>[] = [];
    w.onmessage = (e: MessageEvent<PrepMsg>) => {
      const m = e.data;
      if (hash.onHash(m)) return;
      if (m.kind === 'chunk') {
        const sentChunk = begun
          .then((uploadId) => api.uploadChunk({ uploadId, data: new Uint8Array(m.data) }))
          .then((r) => {
            if (!failed) w.postMessage('more');
            onProgress?.(file.size ? r.received / file.size : 1);
          });
        sentChunk.catch((err: Error) => fail(err.message));
        pending.push(sentChunk);
      } else if (m.kind === 'sent') {
        Promise.all([begun, ...pending]).then(
          ([uploadId]) =>
            resolve(hash.sentFile(uploadId as string, false, Promise.resolve(), () => w.postMessage('hash'))),
          (err: Error) => fail(err.message),
        );
      } else if (m.kind === 'error') fail(m.message);
    };
    // A worker whose script could not load (a renderer rebuilt under the window) reports an
    // error event without a message: say what stopped rather than "undefined".
    w.onerror = (e) => fail(e.message || "the window's sending worker stopped; reload the window and send it again");
    w.postMessage(file);
    for (let i = 0; i < IN_FLIGHT; i++) w.postMessage('more');
  });
}

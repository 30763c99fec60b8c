/**
 * Sends a chosen file to the engine without freezing the window: a Web Worker hashes it
 * (digest.ts, beside the sending) and sends it. Through the web host the worker sends the
 * File itself as one HTTP request body (POST /upload/ID, main/webhost/upload-route.ts):
 * the browser streams it from disk, and the window's thread never touches the bytes. In
 * Electron (no web host) the worker reads CHUNK-sized pieces and transfers each here, and
 * each goes over IPC as its own uploadChunk call. The job then names the upload.
 */
import type { RepriseClient } from '../../../shared/api';
import { webHostToken } from '../transport';
import FilePrepWorker from './file-prep.worker?worker';

/** Chunks read ahead and on the wire at once (CHUNK each: a few MiB in memory at most). */
const IN_FLIGHT = 4;

type Msg = { kind: 'progress'; received: number } | { kind: 'size'; size: number } | { kind: 'chunk'; data: ArrayBuffer } | { kind: 'done'; sha256: string } | { kind: 'error'; message: string };

export function uploadFile(api: RepriseClient, file: File, onProgress?: (fraction: number) => void): Promise<{ sha256: string; uploadId: string }> {
  const token = webHostToken();
  return token ? uploadFromWorker(api, file, token, onProgress) : uploadThroughWindow(api, file, onProgress);
}

/** The web host: the worker hashes and sends; the window hears only progress and the end. */
async function uploadFromWorker(api: RepriseClient, file: File, token: string, onProgress?: (fraction: number) => void): Promise<{ sha256: string; uploadId: string }> {
  const { uploadId } = await api.beginUpload({ name: file.name, size: file.size });
  return new Promise((resolve, reject) => {
    const w = new FilePrepWorker();
    w.onmessage = (e: MessageEvent<Msg>) => {
      const m = e.data;
      if (m.kind === 'progress') onProgress?.(file.size ? m.received / file.size : 1);
      else if (m.kind === 'done' || m.kind === 'error') {
        w.terminate();
        if (m.kind === 'done') resolve({ sha256: m.sha256, uploadId });
        else reject(new Error(`cannot read ${file.name}: ${m.message}`));
      }
    };
    w.onerror = (e) => {
      w.terminate();
      reject(new Error(`cannot read ${file.name}: ${e.message}`));
    };
    w.postMessage({ file, token, uploadId });
  });
}

/** Electron: the chunks cross the window (transferred buffers, structured clones over IPC). */
function uploadThroughWindow(api: RepriseClient, file: File, onProgress?: (fraction: number) => void): Promise<{ sha256: string; uploadId: string }> {
  return new Promise((resolve, reject) => {
    const w = new FilePrepWorker();
    let failed = false;
    const fail = (message: string): void => {
      if (failed) return;
      failed = true;
      w.terminate();
      reject(new Error(`cannot read ${file.name}: ${message}`));
    };
    const begun = api.beginUpload({ name: file.name, size: file.size }).then((r) => r.uploadId);
    begun.catch((err: Error) => fail(err.message));
    // Chunks are sent as soon as the worker hands them over, without waiting for the
    // previous answer: the socket (or IPC channel) keeps them in order and the host appends
    // them in arrival order, so a 100 MiB file costs no round trip per chunk. The worker
    // reads a chunk only when one has been acknowledged (IN_FLIGHT credits): bounded memory.
    const pending: Promise<unknown>[] = [];
    w.onmessage = (e: MessageEvent<Msg>) => {
      const m = e.data;
      if (m.kind === 'chunk') {
        const sentChunk = begun
          .then((uploadId) => api.uploadChunk({ uploadId, data: new Uint8Array(m.data) }))
          .then((r) => {
            if (!failed) w.postMessage('more');
            onProgress?.(file.size ? r.received / file.size : 1);
          });
        sentChunk.catch((err: Error) => fail(err.message));
        pending.push(sentChunk);
      } else if (m.kind === 'done') {
        w.terminate();
        Promise.all([begun, ...pending]).then(([uploadId]) => resolve({ sha256: m.sha256, uploadId: uploadId as string }), (err: Error) => fail(err.message));
      } else if (m.kind === 'error') fail(m.message);
    };
    w.onerror = (e) => fail(e.message);
    w.postMessage(file);
    for (let i = 0; i < IN_FLIGHT; i++) w.postMessage('more');
  });
}

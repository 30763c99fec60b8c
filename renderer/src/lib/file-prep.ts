/**
 * Sends a chosen file to the engine without freezing the window: a Web Worker reads and
 * hashes it in 1 MiB chunks and transfers each chunk's ArrayBuffer here; each chunk goes
 * to the engine as its own API call (beginUpload / uploadChunk with raw `data`: one binary
 * WebSocket frame, or a structured clone over Electron IPC); the job then names the upload.
 * The window's main thread does no hashing, encoding or JSON work on the bytes.
 */
import type { RepriseClient } from '../../../shared/api';
import FilePrepWorker from './file-prep.worker?worker';

const IN_FLIGHT = 2;

type Msg = { kind: 'size'; size: number } | { kind: 'chunk'; data: ArrayBuffer } | { kind: 'done'; sha256: string } | { kind: 'error'; message: string };

export function uploadFile(api: RepriseClient, file: File, onProgress?: (fraction: number) => void): Promise<{ sha256: string; uploadId: string }> {
  return new Promise((resolve, reject) => {
    const w = new FilePrepWorker();
    let chain: Promise<unknown> = api.beginUpload({ name: file.name, size: file.size });
    let uploadId = '';
    let sent = 0;
    const fail = (message: string): void => {
      w.terminate();
      reject(new Error(`cannot read ${file.name}: ${message}`));
    };
    chain = chain.then((r) => (uploadId = (r as { uploadId: string }).uploadId));
    w.onmessage = (e: MessageEvent<Msg>) => {
      const m = e.data;
      if (m.kind === 'chunk') {
        chain = chain.then(() => api.uploadChunk({ uploadId, data: new Uint8Array(m.data) })).then((r) => {
          sent = r.received;
          w.postMessage('more');
          onProgress?.(file.size ? sent / file.size : 1);
        });
      } else if (m.kind === 'done') {
        w.terminate();
        chain.then(() => resolve({ sha256: m.sha256, uploadId }), (err: Error) => reject(err));
      } else if (m.kind === 'error') fail(m.message);
    };
    w.onerror = (e) => fail(e.message);
    chain.catch((err: Error) => fail(err.message));
    w.postMessage(file);
    // Two chunks in flight: one on the wire while the worker reads the next.
    for (let i = 0; i < IN_FLIGHT; i++) w.postMessage('more');
  });
}

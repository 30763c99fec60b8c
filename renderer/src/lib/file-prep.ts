/**
 * Sends a chosen file to the engine without freezing the window: a Web Worker reads,
 * hashes and base64-encodes it in 1 MiB chunks; each chunk goes to the engine as its own
 * small API call (beginUpload / uploadChunk); the job then names the upload.
 */
import type { RepriseClient } from '../../../shared/api';
import FilePrepWorker from './file-prep.worker?worker';

type Msg = { kind: 'size'; size: number } | { kind: 'chunk'; dataBase64: string } | { kind: 'done'; sha256: string } | { kind: 'error'; message: string };

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
        chain = chain.then(() => api.uploadChunk({ uploadId, dataBase64: m.dataBase64 })).then((r) => {
          sent = r.received;
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
  });
}

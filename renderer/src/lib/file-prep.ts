/** Hash and encode a chosen file in a Web Worker, so a large file never freezes the window. */
import FilePrepWorker from './file-prep.worker?worker';

export function prepareFile(file: File): Promise<{ sha256: string; dataBase64: string }> {
  return new Promise((resolve, reject) => {
    const w = new FilePrepWorker();
    w.onmessage = (e: MessageEvent<{ ok: true; sha256: string; dataBase64: string } | { ok: false; message: string }>) => {
      w.terminate();
      if (e.data.ok) resolve({ sha256: e.data.sha256, dataBase64: e.data.dataBase64 });
      else reject(new Error(`cannot read ${file.name}: ${e.data.message}`));
    };
    w.onerror = (e) => {
      w.terminate();
      reject(new Error(`cannot read ${file.name}: ${e.message}`));
    };
    w.postMessage(file);
  });
}

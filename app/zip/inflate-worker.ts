/** Worker side of parallel.ts: reads each batch of entries (sent, or from the shared descriptor) and posts their digests back. */
import { parentPort } from 'node:worker_threads';
import { readEntry, type EntryContent } from './inflate.js';
import type { WorkerBatch, WorkerReply } from './parallel.js';
import { fileSource } from './source.js';

parentPort?.on('message', (b: WorkerBatch) => {
  void (async () => {
    // An archive on disk: this process's descriptor, read by position (pread is thread-safe).
    const data = 'fd' in b ? fileSource(b.fd, b.size) : new Uint8Array(b.data);
    const results: EntryContent[] = [];
    try {
      for (const e of b.entries) results.push(await readEntry(data, e, false));
      const reply: WorkerReply = { id: b.id, results };
      parentPort?.postMessage(reply);
    } catch (err) {
      const reply: WorkerReply = { id: b.id, results: [], error: (err as Error).message };
      parentPort?.postMessage(reply);
    }
  })();
});

/** Worker side of parallel.ts: reads its share of entries and posts digests back. */
import { parentPort, workerData } from 'node:worker_threads';
import { readEntry, type EntryContent } from './inflate.js';
import type { WorkerTask } from './parallel.js';

const task = workerData as WorkerTask;
const archive = new Uint8Array(task.archive, 0, task.length);
const out: EntryContent[] = [];
for (const e of task.entries) out.push(await readEntry(archive, e, false));
parentPort?.postMessage(out);

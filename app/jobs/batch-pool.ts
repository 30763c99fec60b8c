/** The worker threads of a `--workers N` batch or a case (they render reports and read case facts: batch-worker.ts). */
import { workerScript } from '../threads/locate.js';
import { WorkerPool } from './pool.js';
import type { BatchJob, BatchOutcome } from './protocol.js';

export type BatchPool = WorkerPool<BatchJob, BatchOutcome>;

/**
 * Starts `workers` batch threads. The CLI calls it before the paths are expanded, so that
 * the threads load the engine while the main thread walks the directories; the caller
 * closes the pool.
 */
export function startBatchPool(workers: number): BatchPool {
  // Beside this module in dist/; one level up from the shared chunks in the Electron bundle (the case in the window).
  return new WorkerPool<BatchJob, BatchOutcome>(workers, workerScript('batch-worker.js', import.meta.url), {
    pipeline: 2,
    failure: (message) => [{ ok: false, usage: false, message }],
  });
}

/**
 * How many paths travel in one message: enough that per-message costs stay small next to
 * the work, few enough that every worker gets many chunks (and a case lands steadily).
 */
export function chunkSize(paths: number, workers: number): number {
  return Math.max(1, Math.min(64, Math.ceil(paths / (workers * 16))));
}

/**
 * Runs a reviewer's case (app/engine/case/, docs/case.md) on the worker pool: the entry
 * point of the CLI (`reprise verify DIR --case FILE`) and the workbench host.
 *
 *   const report = await runCase(dir, { workers: 2, options, onArtifact, onProgress, signal });
 *
 * `onArtifact` gets each artifact's outcome as it lands (its CaseArtifact in `part.artifact`,
 * or why it could not be read), `onProgress` the count over the whole case; the promise
 * resolves to the `reprise.case/v1` report, the same bytes whatever `workers` is, and
 * rejects only for a folder that cannot be walked or an aborted signal.
 */
import type { CaseReport } from '../../shared/case.js';
import { driveCase, inlineExecutor, type CaseExecutor, type CaseRunOptions } from '../engine/case/index.js';
import { outcomeOf } from './case-outcome.js';
import { chunkSize, startBatchPool, type BatchPool } from './batch-pool.js';

export interface RunCaseOptions extends CaseRunOptions {
  /** Worker threads (0: inline on this thread). Ignored when `pool` is given. */
  workers?: number;
  /** A batch pool to run on (the caller closes it); otherwise one of `workers` threads is started and closed. */
  pool?: BatchPool;
  /**
   * Each artifact's whole report in its outcome (`onArtifact`), as the case bundle carries
   * them; otherwise a worker sends back only the artifact's case part. Inline, the report
   * is always there.
   */
  reports?: boolean;
}

export async function runCase(dir: string, run: RunCaseOptions = {}): Promise<CaseReport> {
  const { workers = 0, pool, reports = false, ...rest } = run;
  if (pool) return driveCase(dir, poolExecutor(pool, reports), rest);
  if (workers <= 0) return driveCase(dir, inlineExecutor, rest);
  const own = startBatchPool(workers);
  try {
    return await driveCase(dir, poolExecutor(own, reports), rest);
  } finally {
    await own.close();
  }
}

/** Runs the case's files on the pool in chunks, landing each chunk's outcomes as it ends (with their reports when `reports`). */
export function poolExecutor(pool: BatchPool, reports = false): CaseExecutor {
  return async (files, mode, options, land, signal) => {
    signal?.throwIfAborted();
    const size = chunkSize(files.length, pool.size);
    const runs: { cancel: () => void }[] = [];
    const cancelAll = (): void => runs.forEach((r) => r.cancel());
    signal?.addEventListener('abort', cancelAll, { once: true });
    try {
      const chunks: Promise<void>[] = [];
      for (let i = 0; i < files.length; i += size) {
        const c = files.slice(i, i + size);
        const [paths, rels] = [c.map((f) => f.path), c.map((f) => f.rel)];
        const job = pool.run({ paths, rels, mode, options, render: reports ? 'object' : 'none', namedInCase: reports });
        runs.push(job);
        chunks.push(
          job.promise.then((items) => {
            if (signal?.aborted) return;
            // A crashed worker fails its whole chunk with one item: it is each path's.
            c.forEach((f, j) => land(outcomeOf(f, items.length === c.length ? items[j]! : items[0]!)));
          }),
        );
      }
      await Promise.all(chunks);
      signal?.throwIfAborted();
    } finally {
      signal?.removeEventListener('abort', cancelAll);
    }
  };
}

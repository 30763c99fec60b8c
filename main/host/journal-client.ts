/**
 * The host's link to its journal worker (journal-worker.ts): journal, quarantine and
 * judgement operations (journal-ops.ts, judgement-ops.ts) run there one at a time, so that
 * the process talking to the window never reads or signs a journal itself.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { PendingCalls } from '../../shared/pending-calls.js';
import { ApiError } from './api-error.js';
import type { ConfinedOp } from './confined-op.js';

/** One worker thread answering journal operations in order; replaced if it dies. */
export class JournalWorker {
  private worker: Worker | null = null;
  private readonly calls = new PendingCalls();
  constructor(
    private readonly url: URL,
    private readonly limits: ResourceLimits,
  ) {}

  private get(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.url, { resourceLimits: this.limits });
    w.on('message', (m: { id: number; ok: boolean; result?: unknown; usage?: boolean; message?: string }) => {
      if (
        !this.calls.settle(
          m.id,
          m.ok
            ? { ok: true, value: m.result }
            : { ok: false, error: new ApiError(m.message ?? 'journal operation failed', m.usage === true) },
        )
      )
        return;
      if (this.calls.size === 0) w.unref();
    });
    const died = (why: string): void => {
      if (this.worker === w) this.worker = null;
      this.calls.failAll(() => new ApiError(`internal error: journal worker ${why}`, false));
    };
    w.on('error', (e) => died(`crashed: ${e.message}`));
    w.on('exit', (code) => died(`exited with code ${code}`));
    w.unref();
    this.worker = w;
    return w;
  }

  run<T>(op: ConfinedOp): Promise<T> {
    const w = this.get();
    const { id, answer } = this.calls.open();
    w.ref();
    w.postMessage({ id, op });
    return answer as Promise<T>;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}

/**
 * A pool of worker threads running engine jobs, with progress and cancellation.
 * Used by the CLI for `--workers N` batches and by the workbench host (main/), so the
 * thread that talks to the user never parses or hashes an artifact.
 *
 * Cancellation terminates the worker running the job and starts a fresh one: a job in
 * the middle of inflating or hashing cannot be interrupted more reliably than that. The
 * commands a worker's jobs run (a kernel adapter) run in this thread, which kills them
 * when it stops that worker (threads/owned-commands.ts): a terminated worker could not.
 */
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { startWorker, stopWorker } from '../threads/owned-commands.js';
import type { EngineJob, FromWorker, JobOutcome, ToWorker } from './protocol.js';

interface Pending<J, O> {
  id: number;
  job: J;
  resolve: (o: O) => void;
  onProgress: ((fraction: number, label?: string) => void) | undefined;
  slot: Slot | null;
}

interface Slot {
  worker: Worker;
  running: Set<number>;
}

export interface PoolOptions<O> {
  /** Jobs kept in flight per worker, to hide message latency on small jobs. */
  pipeline?: number;
  /** The outcome of a job that could not finish (worker crashed, job cancelled). */
  failure?: (message: string) => O;
  /**
   * Each worker's V8 limits. With a heap cap, a job that allocates without bound ends its
   * own worker (ERR_WORKER_OUT_OF_MEMORY, reported as that job's failure) instead of
   * aborting the whole process.
   */
  resourceLimits?: ResourceLimits;
}

/**
 * J is the job a worker receives, O the outcome it answers with. The defaults are the
 * engine's jobs (engine-worker.ts); the CLI's batches use BatchJob/BatchOutcome (batch-worker.ts).
 */
export class WorkerPool<J = EngineJob, O = JobOutcome> {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending<J, O>[] = [];
  private readonly pending = new Map<number, Pending<J, O>>();
  private nextId = 1;
  private closed = false;
  private readonly pipeline: number;
  private readonly failure: (message: string) => O;
  private readonly resourceLimits: ResourceLimits | undefined;

  constructor(
    readonly size: number,
    private readonly workerUrl: URL,
    opts: PoolOptions<O> = {},
  ) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError('pool size must be a positive integer');
    this.pipeline = opts.pipeline ?? 4;
    this.failure = opts.failure ?? ((message) => ({ ok: false, usage: false, message }) as O);
    this.resourceLimits = opts.resourceLimits;
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const worker = startWorker(this.workerUrl, this.resourceLimits ? { resourceLimits: this.resourceLimits } : {});
    const slot: Slot = { worker, running: new Set() };
    worker.on('message', (m: FromWorker<O>) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      if (m.kind === 'progress') {
        p.onProgress?.(m.fraction, m.label);
        return;
      }
      this.finish(p, m.outcome);
    });
    worker.on('error', (err) =>
      this.crashed(
        slot,
        (err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? 'the job ran out of memory (its worker was stopped; the host keeps running)'
          : `worker crashed: ${err.message}`,
      ),
    );
    worker.on('exit', (code) => {
      if (slot.running.size > 0) this.crashed(slot, `worker exited with code ${code}`);
    });
    worker.unref();
    return slot;
  }

  private crashed(slot: Slot, message: string): void {
    // Replace the dead worker first, so that finishing its jobs (which pumps the queue)
    // never hands a queued job to it.
    const idx = this.slots.indexOf(slot);
    if (idx >= 0 && !this.closed) this.slots[idx] = this.spawn();
    for (const id of [...slot.running]) {
      const p = this.pending.get(id);
      if (p) this.finish(p, this.failure(`internal error: ${message}`));
    }
    slot.running.clear();
    if (!this.closed) this.pump();
  }

  private finish(p: Pending<J, O>, outcome: O): void {
    this.pending.delete(p.id);
    p.slot?.running.delete(p.id);
    p.resolve(outcome);
    this.pump();
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let best: Slot | null = null;
      for (const s of this.slots)
        if (s.running.size < this.pipeline && (!best || s.running.size < best.running.size)) best = s;
      if (!best) return;
      const p = this.queue.shift()!;
      p.slot = best;
      best.running.add(p.id);
      const msg: ToWorker<J> = { id: p.id, job: p.job };
      best.worker.postMessage(msg);
      best.worker.ref();
    }
    for (const s of this.slots) if (s.running.size === 0) s.worker.unref();
  }

  /** Runs a job; `cancel()` ends it at once with the failure outcome 'cancelled'. */
  run(job: J, onProgress?: (fraction: number, label?: string) => void): { promise: Promise<O>; cancel: () => void } {
    if (this.closed) throw new Error('pool is closed');
    const id = this.nextId++;
    let resolveFn!: (o: O) => void;
    const promise = new Promise<O>((r) => (resolveFn = r));
    const p: Pending<J, O> = { id, job, resolve: resolveFn, onProgress, slot: null };
    this.pending.set(id, p);
    this.queue.push(p);
    this.pump();
    const cancel = (): void => {
      if (!this.pending.has(id)) return;
      const qi = this.queue.indexOf(p);
      if (qi >= 0) this.queue.splice(qi, 1);
      const slot = p.slot;
      this.finish(p, this.failure('cancelled'));
      if (slot) {
        // Other jobs on that worker are re-queued; the worker itself is replaced.
        const others = [...slot.running].map((oid) => this.pending.get(oid)).filter((x): x is Pending<J, O> => !!x);
        slot.running.clear();
        for (const o of others) {
          o.slot = null;
          this.queue.unshift(o);
        }
        const idx = this.slots.indexOf(slot);
        void stopWorker(slot.worker);
        if (idx >= 0 && !this.closed) this.slots[idx] = this.spawn();
        this.pump();
      }
    };
    return { promise, cancel };
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => stopWorker(s.worker)));
  }
}

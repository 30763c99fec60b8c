/**
 * Runs `stripToCanonical` (app/core/jcs.ts) on another thread, so that the canonical bytes
 * of a large document are ready when its parse on this thread ends (a signature over a
 * 100 MiB dump needs them; see docs/architecture.md, "large documents"). One worker,
 * started on first use, holding the process open only while it has work. Anything that
 * goes wrong with the thread (no built worker file, out of threads, a crash) makes the
 * result `null`, after which the caller serializes on its own thread: never a different
 * answer, only a slower one.
 */
import { Worker } from 'node:worker_threads';
import { stripToCanonical, type MemberSpan, type Stripped } from '../core/jcs.js';

export interface StripRequest {
  id: number;
  /** The document's bytes: a view on shared memory, or a transferred copy. */
  data: Uint8Array;
}
export interface StripReply {
  id: number;
  data: ArrayBuffer | null;
  length: number;
  members: MemberSpan[];
  error?: string;
}

/** A parent started with `--input-type` or `-e` flags must not pass them to a file worker. */
const EXEC_ARGV = process.execArgv.filter((a) => !a.startsWith('--input-type'));

let worker: Worker | null = null;
let broken = false;
let nextId = 1;
const pending = new Map<number, (r: Stripped | null) => void>();

function settleAll(): void {
  for (const resolve of pending.values()) resolve(null);
  pending.clear();
}

function getWorker(): Worker | null {
  if (worker) return worker;
  if (broken) return null;
  try {
    const w = new Worker(new URL('./canonical-worker.js', import.meta.url), { execArgv: EXEC_ARGV });
    w.on('message', (r: StripReply) => {
      const resolve = pending.get(r.id);
      pending.delete(r.id);
      if (pending.size === 0) w.unref();
      resolve?.(r.data ? { bytes: new Uint8Array(r.data, 0, r.length), members: r.members } : null);
    });
    w.on('error', () => {
      broken = true;
      worker = null;
      settleAll();
    });
    w.on('exit', () => {
      worker = null;
      settleAll();
    });
    worker = w;
    return w;
  } catch {
    broken = true;
    return null;
  }
}

/**
 * Canonical bytes of canonically written JSON (see stripToCanonical), computed on another
 * thread from a copy of `bytes`; `null` when they are not canonically written or the
 * thread is unavailable. With `inline`, on this thread.
 */
export function stripInWorker(bytes: Uint8Array, inline = false): Promise<Stripped | null> {
  const w = inline ? null : getWorker();
  if (!w) return Promise.resolve(stripToCanonical(bytes));
  const id = nextId++;
  // Shared memory is handed over as it is (both threads only read it); else a copy.
  let view: Uint8Array;
  if (bytes.buffer instanceof SharedArrayBuffer) view = bytes;
  else {
    view = new Uint8Array(bytes.length);
    view.set(bytes);
  }
  return new Promise((resolve) => {
    pending.set(id, resolve);
    w.ref();
    const msg: StripRequest = { id, data: view };
    w.postMessage(msg, view.buffer instanceof SharedArrayBuffer ? [] : [view.buffer]);
  });
}

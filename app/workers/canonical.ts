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
import { workerScript } from './locate.js';

export interface StripRequest {
  id: number;
  /** The document's bytes: a view on shared memory, or a transferred copy. */
  data: Uint8Array;
}
export interface StripReply {
  id: number;
  /** `H_bytes` of the document's bytes, computed on the way. */
  sha256: string | null;
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
/** What the thread gives back: the stripped bytes (or null) and the bytes' hash (or null). */
export interface StripResult {
  stripped: Stripped | null;
  sha256: string | null;
}

const NONE: StripResult = { stripped: null, sha256: null };
const pending = new Map<number, (r: StripResult) => void>();

function settleAll(): void {
  for (const resolve of pending.values()) resolve(NONE);
  pending.clear();
}

function getWorker(): Worker | null {
  if (worker) return worker;
  if (broken) return null;
  try {
    const w = new Worker(workerScript('canonical-worker.js', import.meta.url), { execArgv: EXEC_ARGV });
    w.on('message', (r: StripReply) => {
      const resolve = pending.get(r.id);
      pending.delete(r.id);
      if (pending.size === 0) w.unref();
      resolve?.({ stripped: r.data ? { bytes: new Uint8Array(r.data, 0, r.length), members: r.members } : null, sha256: r.sha256 });
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
 * Canonical bytes of canonically written JSON (see stripToCanonical) and the bytes'
 * `H_bytes`, computed on another thread (from shared memory, else a copy of `bytes`); null
 * parts when not canonically written. Without a thread the stripping runs here and no
 * hash is computed.
 */
export function stripInWorker(bytes: Uint8Array): Promise<StripResult> {
  const w = getWorker();
  if (!w) return Promise.resolve({ stripped: stripToCanonical(bytes), sha256: null });
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

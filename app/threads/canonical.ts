/**
 * Runs `stripToCanonical` (app/core/jcs.ts) on another thread, so that the canonical bytes
 * of a large document are ready when its parse on this thread ends (a signature over a
 * 100 MiB dump needs them; see docs/architecture.md, "large documents"). On the way the
 * thread publishes whether it proved the member order (StripJob.proven), hashes the
 * document's bytes (the report's SHA-256) and the long escape-free string values among the
 * spanned members, and, when handed the work before the parse starts, checks an Ed25519
 * signature carried inside the document (see StripWork). A picked file's document is
 * stripped as its bytes arrive (stripWhileArriving). One worker, started on first
 * use, holding the process open only while it has work. Anything that goes wrong with the
 * thread (no built worker file, out of threads, a crash) makes the result empty, after
 * which the caller does the work on its own thread: never a different answer, only a
 * slower one.
 */
import type { KeyObject } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { stripToCanonical, type MemberSpan, type Stripped } from '../core/jcs.js';
import { workerScript } from './locate.js';

/**
 * More work for the stripping thread on the same bytes, handed over before the parse (a
 * kind declares it: KindHandler.beforeParse): a signature inside the document, over the
 * document's canonical bytes without the top-level member `omit`, whose string value is the
 * signature (base64); the top-level string member `keyIdMember` names the key (the replay
 * dump signs so: spec/replay-dump.md). The keys are the caller's trust store: the check is
 * made only with a key listed there.
 */
export interface StripWork {
  omit: string;
  keyIdMember: string;
  keys: ReadonlyMap<string, KeyObject>;
}

/** The outcome of a StripWork's check: which key, which signature, and whether it verified. */
export interface SignatureCheck {
  keyId: string;
  signature: string;
  /** The key used (one of the plan's KeyObjects, on the caller's side). */
  publicKey: KeyObject;
  ok: boolean;
}

/** A StripWork as it crosses to the thread. */
export interface SignaturePlan {
  omit: string;
  keyIdMember: string;
  keys: [string, KeyObject][];
}

/**
 * What the thread is told: strip a whole document ('strip'), or one still arriving
 * ('begin' with its whole buffer, 'more' as each piece is in place, then 'finish' or
 * 'drop'). The thread answers 'strip' and 'finish'.
 */
export type ToStripper =
  | {
      op: 'strip';
      id: number;
      /** The document's bytes: a view on shared memory, or a transferred copy. */
      data: Uint8Array;
      /**
       * Shared [state, ordered, cancelled]: state 1 once stripped (ordered 1 when
       * `Stripped.ordered`), 2 when not canonical; cancelled 1 when the stripping is no longer
       * wanted (StripJob.cancel), looked at between steps.
       */
      status: Int32Array;
      signature?: SignaturePlan;
      /** Hash the bytes only: no kind would use the stripped bytes (KindHandler.stripsCanonical), so no copy is made. */
      hashOnly?: boolean;
    }
  | {
      op: 'begin';
      id: number;
      /** The document's whole buffer, shared, filling as the bytes arrive. */
      data: Uint8Array;
      status: Int32Array;
      /** Shared [bytes in place]: set before each 'more' is posted, so the thread can tell whether newer bytes wait. */
      arrived: Int32Array;
    }
  | { op: 'more'; id: number; available: number }
  | { op: 'finish'; id: number; signature?: SignaturePlan }
  | { op: 'drop'; id: number };

export interface StripReply {
  id: number;
  /** `H_bytes` of the document's bytes, computed on the way. */
  sha256: string | null;
  data: ArrayBuffer | null;
  length: number;
  members: MemberSpan[];
  ordered: boolean;
  /** The member the plan named was cut out of `data` (its spans moved accordingly). */
  omitted?: string;
  signature?: { keyId: string; signature: string; ok: boolean };
  error?: string;
}

/** What the thread did of a StripWork. */
export interface StripWorkDone {
  /** The top-level member cut out of the stripped bytes (the work's `omit`), if any. */
  omitted: string | null;
  /** The signature check, when the document named a key of the work's. */
  signature: SignatureCheck | null;
}

/** What the thread gives back. */
export interface StripResult extends StripWorkDone {
  /** The stripped bytes, when the document was written canonically; else null. */
  stripped: Stripped | null;
  /** `H_bytes` of the document's bytes, or null (then the caller hashes). */
  sha256: string | null;
}

/** A parent started with `--input-type` or `-e` flags must not pass them to a file worker. */
const EXEC_ARGV = process.execArgv.filter((a) => !a.startsWith('--input-type'));

let worker: Worker | null = null;
let broken = false;
let nextId = 1;
/** Documents being stripped as they arrive: the worker is held while any is. */
let arriving = 0;

const NONE: StripResult = { stripped: null, sha256: null, omitted: null, signature: null };
const pending = new Map<number, { resolve: (r: StripResult) => void; plan: StripWork | undefined }>();

function settleAll(): void {
  for (const p of pending.values()) p.resolve(NONE);
  pending.clear();
}

function getWorker(): Worker | null {
  if (worker) return worker;
  if (broken) return null;
  try {
    const w = new Worker(workerScript('canonical-worker.js', import.meta.url), { execArgv: EXEC_ARGV });
    w.on('message', (r: StripReply) => {
      const p = pending.get(r.id);
      pending.delete(r.id);
      if (pending.size === 0 && arriving === 0) w.unref();
      if (!p) return;
      const key = r.signature ? p.plan?.keys.get(r.signature.keyId) : undefined;
      p.resolve({
        stripped: r.data
          ? { bytes: new Uint8Array(r.data, 0, r.length), members: r.members, ordered: r.ordered }
          : null,
        sha256: r.sha256,
        omitted: r.data && r.omitted !== undefined ? r.omitted : null,
        signature: r.signature && key ? { ...r.signature, publicKey: key } : null,
      });
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

/** A stripping job: its result, and synchronously, whether the thread has proven the order. */
export interface StripJob {
  result: Promise<StripResult>;
  /**
   * True once the thread has stripped the document and found it `ordered` (see
   * Stripped.ordered): readable at any time without waiting, e.g. right after this
   * thread's JSON.parse of the same bytes, to skip the walk that would find the same.
   */
  proven(): boolean;
  /**
   * The stripped bytes are no longer wanted (the parse refused the document): the thread
   * stops stripping at its next step and only hashes, so a refusal does not leave it
   * copying the rest of a large document.
   */
  cancel(): void;
}

/**
 * Canonical bytes of canonically written JSON (see stripToCanonical), the bytes' `H_bytes`
 * and the hashes of long string values, computed on another thread (from shared memory,
 * else a copy of `bytes`); with a StripWork, its signature check too. Without a thread the
 * stripping runs here, at once, and nothing else is computed.
 */
export function stripInWorker(bytes: Uint8Array, plan?: StripWork, hashOnly = false): StripJob {
  const w = getWorker();
  if (!w)
    return {
      result: Promise.resolve({ ...NONE, stripped: hashOnly ? null : stripToCanonical(bytes) }),
      proven: () => false,
      cancel: () => {},
    };
  const id = nextId++;
  const status = new Int32Array(new SharedArrayBuffer(12));
  // Shared memory is handed over as it is (both threads only read it); else a copy.
  let view: Uint8Array;
  if (bytes.buffer instanceof SharedArrayBuffer) view = bytes;
  else {
    view = new Uint8Array(bytes.length);
    view.set(bytes);
  }
  const result = awaitReply(
    w,
    id,
    plan,
    { op: 'strip', id, data: view, status, signature: planOf(plan), hashOnly },
    view.buffer instanceof SharedArrayBuffer ? [] : [view.buffer],
  );
  return { result, proven: provenBy(status), cancel: cancelBy(status) };
}

const cancelBy = (status: Int32Array) => () => void Atomics.store(status, 2, 1);
const planOf = (plan: StripWork | undefined): SignaturePlan | undefined =>
  plan && plan.keys.size > 0 ? { omit: plan.omit, keyIdMember: plan.keyIdMember, keys: [...plan.keys] } : undefined;
const provenBy = (status: Int32Array) => () => Atomics.load(status, 0) === 1 && Atomics.load(status, 1) === 1;

function awaitReply(
  w: Worker,
  id: number,
  plan: StripWork | undefined,
  msg: ToStripper,
  transfer: ArrayBuffer[] = [],
): Promise<StripResult> {
  return new Promise<StripResult>((resolve) => {
    pending.set(id, { resolve, plan });
    w.ref();
    w.postMessage(msg, transfer);
  });
}

/** A document the thread strips as it arrives (see stripWhileArriving). */
export interface ArrivingStripJob {
  /** The first `available` bytes of the buffer are in place. */
  more(available: number): void;
  /** Once every byte is in place (`more` of the whole length): the job, as stripInWorker's, with the work handed now. */
  finish(plan?: StripWork): StripJob;
  /** Not wanted after all (the document is not parsed, or the upload failed): the thread forgets it. */
  drop(): void;
}

/**
 * The stripping of a document whose bytes are still being written into `bytes` (shared
 * memory, the whole length; app/engine/arriving.ts): the thread strips and hashes each
 * piece as `more` says it is in place, so at the last byte only the StripWork is left.
 * Null without shared memory or a thread (the caller then strips at the end, as usual).
 */
export function stripWhileArriving(bytes: Uint8Array): ArrivingStripJob | null {
  if (!(bytes.buffer instanceof SharedArrayBuffer)) return null;
  const w = getWorker();
  if (!w) return null;
  const id = nextId++;
  const status = new Int32Array(new SharedArrayBuffer(12));
  const arrived = new Int32Array(new SharedArrayBuffer(4));
  let open = true;
  arriving++;
  w.ref();
  w.postMessage({ op: 'begin', id, data: bytes, status, arrived } satisfies ToStripper);
  const close = () => {
    open = false;
    arriving--;
    if (pending.size === 0 && arriving === 0) w.unref();
  };
  // A thread that ended meanwhile (a crash) took the document with it: a new one never had it.
  const alive = () => open && worker === w;
  return {
    more(available) {
      if (!alive()) return;
      Atomics.store(arrived, 0, available);
      w.postMessage({ op: 'more', id, available } satisfies ToStripper);
    },
    finish(plan) {
      const result = alive()
        ? awaitReply(w, id, plan, { op: 'finish', id, signature: planOf(plan) })
        : Promise.resolve(NONE);
      if (open) close();
      return { result, proven: provenBy(status), cancel: cancelBy(status) };
    },
    drop() {
      if (!open) return;
      if (worker === w) w.postMessage({ op: 'drop', id } satisfies ToStripper);
      close();
    },
  };
}

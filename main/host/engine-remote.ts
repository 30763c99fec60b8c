/**
 * The engine in a child process, seen from the shell: a RepriseApi that forwards every
 * call to the child (engine-serve.ts on the other side) and its events back, and starts
 * a fresh child if it dies, failing its pending calls and running jobs with a clear
 * message. A worker can die in ways no thread limit catches (a V8 fatal error such as an
 * array past its maximum size aborts the whole process), so the process that serves the
 * window, Electron's main process or `reprise serve`'s HTTP server, never runs the engine.
 *
 * The shell also keeps what the user granted (folders chosen, files and keys picked) and
 * replays it into every new child, so a restart does not forget the user's choices.
 * Native dialogs and the recent-files list are answered here, in the shell.
 */
import { rm } from 'node:fs/promises';
import {
  API_METHODS,
  isApiEvent,
  type ApiEvent,
  type ApiMethod,
  type ApiResponse,
  type CaseStarted,
  type EngineInfo,
  type PickRequest,
  type RepriseApi,
  type StartCaseRequest,
  type StartJobRequest,
} from '../../shared/api.js';
import { ApiError } from './api-error.js';
import { PendingCalls } from '../../shared/pending-calls.js';
import { isEngineTemp } from './engine-temp.js';
import { memoryRecentStore, recentList, type RecentStore } from './recent-files.js';

const LOCAL: readonly ApiMethod[] = ['pickPath', 'recentFiles'];

export { memoryRecentStore, type RecentStore };

/** What the user granted the API (see EngineHost.grant). */
export interface Grant {
  roots?: string[];
  files?: string[];
  keys?: string[];
  /** Kernel adapters the engine may run (`reprise serve --kernel-adapter`). */
  adapters?: string[];
}

/**
 * An upload whose bytes the shell writes to a private file (see EngineHost.adoptUpload):
 * `arriving` while they are being written, `complete` (the default) once all are, or
 * `abandoned` with the reason when the sending failed (the shell then removes the file).
 */
export interface UploadFile {
  uploadId: string;
  path: string;
  state?: 'arriving' | 'complete' | 'abandoned';
  reason?: string;
}

/**
 * A wire message to the child: an API call, or a grant or an upload's file from the shell
 * (never from the API), or the shell asking it to close. A close is sent with id 0, which no
 * call waits on (as a replayed grant is): its answer is the child's end (engine-life.ts);
 * one that has not ended in time is killed (stopChild).
 */
export type ToEngine =
  | { id: number; method: ApiMethod; params: unknown[] }
  | { id: number; grant: Grant }
  | { id: number; upload: UploadFile }
  | { id: number; close: true };

export function isCloseRequest(m: unknown): m is { id: number; close: true } {
  return typeof m === 'object' && m !== null && (m as { close?: unknown }).close === true;
}

/**
 * How long a child asked to close has to end (its own close is bounded within it:
 * engine-life.ts), then how long a killed one has. Beyond both the shell stops waiting, removes
 * the child's folder itself, and goes on closing: a stop never hangs on the engine.
 */
const CLOSE_WAIT_MS = 5000;
const KILL_WAIT_MS = 2000;

/** Whether `p` settles within `ms`; the timer is cleared either way, so it keeps no process alive. */
function within(p: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false)));
  return Promise.race([p.then(() => true), late]).finally(() => clearTimeout(timer));
}

/** Asks a child to close (it removes its folders and ends), and kills it when it has not ended in time. */
async function stopChild(c: EngineChild, exited: Promise<void>): Promise<void> {
  try {
    c.send({ id: 0, close: true });
  } catch {
    /* its channel is gone: it is ending already, or will be killed */
  }
  if (await within(exited, CLOSE_WAIT_MS)) return;
  c.kill();
  await within(exited, KILL_WAIT_MS);
}

/** The child process, whatever starts it (Electron's utilityProcess, Node's child_process). */
export interface EngineChild {
  send(message: ToEngine): void;
  onMessage(listener: (m: unknown) => void): void;
  /** Called once when the process has ended; `why` says how (exit code or signal). */
  onExit(listener: (why: string) => void): void;
  kill(): void;
}

export interface RemoteEngineOptions {
  start: () => EngineChild;
  pickPath?: (req: PickRequest) => Promise<string | null>;
  recentStore?: RecentStore;
  /** Granted before the first call (`reprise serve --root/--key`). */
  grant?: Grant;
}

export type RemoteEngine = RepriseApi & {
  subscribe(l: (e: ApiEvent) => void): () => void;
  /** Widens what the API may reach; for the shell's own use (dialogs, menus, command line). */
  grant(g: Grant): Promise<void>;
  /** Hands the engine an upload's private file; for the shell's own use (the web host's upload route). */
  adoptUpload(u: UploadFile): Promise<{ received: number }>;
  /**
   * Stops the engine's process, letting it remove its temporary folders first (stopChild);
   * resolves once it has ended and its folder is gone. A call after it is refused: a fresh
   * engine started during a stop would outlive it, folders and all.
   */
  close(): Promise<void>;
};

/** The engine's events to the subscribers, and which jobs are running (to fail them if the child dies). */
function engineEvents() {
  const listeners = new Set<(e: ApiEvent) => void>();
  const runningJobs = new Set<string>();
  const runningCases = new Set<string>();
  const emit = (e: ApiEvent): void => {
    if (e.type === 'job-done' || e.type === 'job-failed') runningJobs.delete(e.jobId);
    if (e.type === 'case-done' || e.type === 'case-failed') runningCases.delete(e.caseId);
    for (const l of listeners) {
      try {
        l(e);
      } catch {
        /* one broken subscriber must not stop the others */
      }
    }
  };
  return {
    emit,
    subscribe(l: (e: ApiEvent) => void): () => void {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    started(jobId: string): void {
      runningJobs.add(jobId);
    },
    startedCase(caseId: string): void {
      runningCases.add(caseId);
    },
    /** The child stopped: every job and case it ran fails with why. */
    failRunning(why: string): void {
      const message = (what: string): string =>
        `internal error: the engine process stopped (${why}) during this ${what}; it has been restarted`;
      for (const jobId of [...runningJobs])
        emit({ type: 'job-failed', jobId, message: message('job'), cancelled: false });
      for (const caseId of [...runningCases])
        emit({ type: 'case-failed', caseId, message: message('case'), cancelled: false });
    },
  };
}
type EngineEvents = ReturnType<typeof engineEvents>;

/** The line to the child: calls and grants out, answers and events back, a fresh child after a death. */
function engineLink(start: () => EngineChild, grants: Grant[], events: EngineEvents) {
  let child: EngineChild | null = null;
  let closed = false;
  const calls = new PendingCalls();
  /** Each child's temporary folder, as it named it; and each child's end, its folder removed. */
  const temps = new Map<EngineChild, string>();
  const ends = new Map<EngineChild, Promise<void>>();

  /**
   * Removes a child's temporary folder, once: when it has ended, however it ended. A child
   * that crashed (a V8 fatal error, the OOM killer) could not remove it; the shell saw it end,
   * so no process is left using it. What no shell saw end (the shell itself killed with
   * SIGKILL, the machine stopped) stays as `reprise-engine-<pid>-XXXXXX`, recognisable by its
   * name; nothing removes such folders at the next start, since a pid alone cannot prove its
   * owner gone (pids are reused, and another pid namespace may share the directory).
   */
  function sweep(c: EngineChild): Promise<void> {
    const dir = temps.get(c);
    temps.delete(c);
    return dir ? rm(dir, { recursive: true, force: true }).catch(() => undefined) : Promise.resolve();
  }

  function onMessage(c: EngineChild, m: unknown): void {
    if (c !== child || typeof m !== 'object' || m === null) return;
    if ('engineTemp' in m) {
      const dir = (m as { engineTemp: unknown }).engineTemp;
      if (isEngineTemp(dir)) temps.set(c, dir);
      return;
    }
    if ('event' in m) {
      const ev = (m as { event: unknown }).event;
      if (isApiEvent(ev)) events.emit(ev);
      return;
    }
    const r = m as ApiResponse;
    calls.settle(
      r.id,
      'error' in r ? { ok: false, error: new ApiError(r.error.message, r.error.usage) } : { ok: true, value: r.result },
    );
  }

  function onExit(c: EngineChild, why: string): void {
    if (child !== c) return;
    child = null;
    calls.failAll(
      () =>
        new ApiError(
          `internal error: the engine process stopped (${why}) while answering; it will be restarted`,
          false,
        ),
    );
    events.failRunning(why);
  }

  function spawn(): EngineChild {
    if (child) return child;
    if (closed) throw new ApiError('the engine has been closed', false);
    const c = start();
    child = c;
    c.onMessage((m) => onMessage(c, m));
    ends.set(
      c,
      new Promise((resolve) =>
        c.onExit((why) => {
          onExit(c, why);
          void sweep(c).then(() => {
            ends.delete(c);
            resolve();
          });
        }),
      ),
    );
    // Replayed before any call: the child handles messages in order.
    for (const g of grants) c.send({ id: 0, grant: g });
    return c;
  }

  /** A message to the child, answered by the id it carries (a call, or the shell's own grant or upload). */
  function ask(
    c: EngineChild,
    m: { method: ApiMethod; params: unknown[] } | { grant: Grant } | { upload: UploadFile },
  ): Promise<unknown> {
    const { id, answer } = calls.open();
    try {
      c.send({ id, ...m });
    } catch (e) {
      calls.settle(id, { ok: false, error: e instanceof Error ? e : new Error(String(e)) });
    }
    return answer;
  }

  return {
    call: async (method: ApiMethod, params: unknown[]): Promise<unknown> => ask(spawn(), { method, params }),
    async grant(g: Grant): Promise<void> {
      grants.push(g);
      const c = child;
      if (!c) return; // the next child gets it with the others
      await ask(c, { grant: g });
    },
    async adoptUpload(u: UploadFile): Promise<{ received: number }> {
      // A new child knows no upload begun in the one before.
      if (!child) throw new ApiError('unknown upload', true);
      return (await ask(child, { upload: u })) as { received: number };
    },
    async close(): Promise<void> {
      closed = true;
      const c = child;
      if (!c) return;
      await stopChild(c, ends.get(c)!);
      // Ended, or given up on: its folder goes either way (a second sweep finds nothing).
      await sweep(c);
    },
  };
}

/**
 * What a path picked in a native dialog is for, which is what it is granted as: a folder or a
 * file to read (the file's folder), a key to sign with, or an adapter to run. The dialog says
 * the same (shell-policy.ts, dialogOptions), so the user is told what the pick will grant.
 */
export function pickPurpose(req: PickRequest): 'folder' | 'file' | 'key' | 'adapter' {
  if (req.kind === 'directory') return 'folder';
  return req.use === 'key' || req.use === 'adapter' ? req.use : 'file';
}

function pickGrant(req: PickRequest, path: string): Grant {
  const purpose = pickPurpose(req);
  if (purpose === 'folder') return { roots: [path] };
  if (purpose === 'key') return { keys: [path] };
  if (purpose === 'adapter') return { adapters: [path] };
  return { files: [path] };
}

/** A native dialog answered in the shell; what the user picks there is granted. */
async function pickAndGrant(
  pick: RemoteEngineOptions['pickPath'],
  grant: (g: Grant) => Promise<void>,
  req: PickRequest,
): Promise<string | null> {
  if (!pick) return null;
  if (req?.kind !== 'file' && req?.kind !== 'directory')
    throw new ApiError('pickPath needs kind file or directory', true);
  const path = await pick({
    kind: req.kind,
    title: typeof req.title === 'string' ? req.title.slice(0, 200) : 'Choose',
    ...(req.use === 'key' || req.use === 'adapter' ? { use: req.use } : {}),
  });
  // Picked in the native dialog by the user: the one way a path (or a key) is granted, as
  // what the dialog asked for and nothing more.
  if (path) await grant(pickGrant(req, path)).catch(() => undefined);
  return path;
}

export function createRemoteEngine(opts: RemoteEngineOptions): RemoteEngine {
  const events = engineEvents();
  const link = engineLink(opts.start, opts.grant ? [opts.grant] : [], events);
  const { call } = link;
  const recent = recentList(opts.recentStore ?? memoryRecentStore(), link.grant);
  if (opts.grant) recent.granted(opts.grant);
  // The shell's own grants (the command line, dialogs, menus) are the user's: what a recent
  // file may be kept under. The list's own grants at start-up go straight to the link.
  const grant = (g: Grant): Promise<void> => {
    recent.granted(g);
    return link.grant(g);
  };
  const remote = Object.fromEntries(
    API_METHODS.filter((m) => !LOCAL.includes(m)).map((m) => [m, (...params: unknown[]) => call(m, params)]),
  ) as unknown as RepriseApi;
  return {
    ...remote,
    async engineInfo(): Promise<EngineInfo> {
      const info = (await call('engineInfo', [])) as EngineInfo;
      return { ...info, nativeDialogs: !!opts.pickPath };
    },
    async startJob(req: StartJobRequest) {
      await recent.load();
      const r = (await call('startJob', [req])) as { jobId: string };
      events.started(r.jobId);
      // Kept only under a grant of the shell's (recent-files.ts): never as the path alone.
      if (req?.source?.type === 'path' && typeof req.source.path === 'string') void recent.add(req.source.path);
      return r;
    },
    async startCase(req: StartCaseRequest) {
      const r = (await call('startCase', [req])) as CaseStarted;
      events.startedCase(r.caseId);
      return r;
    },
    pickPath: (req: PickRequest) => pickAndGrant(opts.pickPath, grant, req),
    recentFiles: () => recent.list(),
    grant,
    adoptUpload: link.adoptUpload,
    subscribe: events.subscribe,
    close: link.close,
  };
}

/**
 * The main process's side of the engine: a RepriseApi that forwards every call to the
 * engine's utilityProcess (engine-process.ts) and its events back, restarting the
 * process if it dies (its running jobs then fail with an internal error). Native dialogs
 * and the recent-files list are answered here, where the windows are.
 */
import { utilityProcess, type UtilityProcess } from 'electron';
import { basename } from 'node:path';
import { API_METHODS, isApiEvent, type ApiEvent, type ApiMethod, type ApiResponse, type PickRequest, type RecentFile, type RepriseApi, type StartJobRequest } from '../shared/api.js';
import { ApiError } from './host/api-error.js';
import type { RecentStore } from './host/engine-host.js';

const MAX_RECENT = 10;
const LOCAL: readonly ApiMethod[] = ['pickPath', 'recentFiles'];

export interface EngineClientOptions {
  entry: string;
  pickPath: (req: PickRequest) => Promise<string | null>;
  recentStore: RecentStore;
}

export type EngineClient = RepriseApi & { subscribe(l: (e: ApiEvent) => void): () => void; close(): void };

export function createEngineClient(opts: EngineClientOptions): EngineClient {
  let child: UtilityProcess | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Set<(e: ApiEvent) => void>();
  const runningJobs = new Set<string>();
  let recent: RecentFile[] | null = null;

  const emit = (e: ApiEvent): void => {
    if (e.type === 'job-done' || e.type === 'job-failed') runningJobs.delete(e.jobId);
    for (const l of listeners) l(e);
  };

  function spawn(): UtilityProcess {
    if (child) return child;
    const c = utilityProcess.fork(opts.entry, [], { serviceName: 'Reprise engine', stdio: 'inherit' });
    c.on('message', (m: unknown) => {
      if (typeof m !== 'object' || m === null) return;
      if ('event' in m) {
        const ev = (m as { event: unknown }).event;
        if (isApiEvent(ev)) emit(ev);
        return;
      }
      const r = m as ApiResponse;
      const w = waiting.get(r.id);
      if (!w) return;
      waiting.delete(r.id);
      if ('error' in r) w.reject(new ApiError(r.error.message, r.error.usage));
      else w.resolve(r.result);
    });
    c.on('exit', (code) => {
      if (child === c) child = null;
      for (const w of waiting.values()) w.reject(new ApiError(`internal error: the engine process exited (code ${code})`, false));
      waiting.clear();
      for (const jobId of [...runningJobs]) emit({ type: 'job-failed', jobId, message: `internal error: the engine process exited (code ${code}); it has been restarted`, cancelled: false });
    });
    child = c;
    return c;
  }

  const call = (method: ApiMethod, params: unknown[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      spawn().postMessage({ id, method, params });
    });

  async function loadRecent(): Promise<RecentFile[]> {
    if (!recent) recent = await opts.recentStore.load().catch(() => []);
    return recent;
  }
  async function addRecent(path: string): Promise<void> {
    const list = (await loadRecent()).filter((r) => r.path !== path);
    list.unshift({ path, name: basename(path), openedAtUtc: new Date().toISOString().replace(/\.\d+Z$/, 'Z') });
    recent = list.slice(0, MAX_RECENT);
    await opts.recentStore.save(recent).catch(() => undefined);
  }

  const remote = Object.fromEntries(API_METHODS.filter((m) => !LOCAL.includes(m)).map((m) => [m, (...params: unknown[]) => call(m, params)])) as unknown as RepriseApi;
  const client: EngineClient = {
    ...remote,
    async startJob(req: StartJobRequest) {
      const r = (await call('startJob', [req])) as { jobId: string };
      runningJobs.add(r.jobId);
      if (req?.source?.type === 'path' && typeof req.source.path === 'string') void addRecent(req.source.path);
      return r;
    },
    pickPath: (req) => opts.pickPath(req),
    recentFiles: async () => [...(await loadRecent())],
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    close() {
      child?.kill();
      child = null;
    },
  };
  return client;
}

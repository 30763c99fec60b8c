/**
 * The main process's side of the engine: engine-remote.ts over Electron's utilityProcess
 * (engine-process.ts). Native dialogs and the recent-files list are answered here, where
 * the windows are; a path the user picks in a dialog is granted to the engine (its folder
 * readable, the file usable as a signing key), and no other path or key is.
 */
import { utilityProcess } from 'electron';
import type { PickRequest } from '../shared/api.js';
import {
  createRemoteEngine,
  type EngineChild,
  type RecentStore,
  type RemoteEngine,
  type ToEngine,
} from './host/engine-remote.js';

export interface EngineClientOptions {
  entry: string;
  pickPath: (req: PickRequest) => Promise<string | null>;
  recentStore: RecentStore;
  /** Checked before each start of the engine's process (see engine-integrity.ts); throws to refuse. */
  beforeStart?: () => void;
}

export type EngineClient = RemoteEngine;

function startUtility(entry: string): EngineChild {
  const c = utilityProcess.fork(entry, [], { serviceName: 'Reprise engine', stdio: 'inherit' });
  return {
    send: (m: ToEngine) => c.postMessage(m),
    onMessage: (l) => c.on('message', l),
    onExit: (l) => c.once('exit', (code) => l(`exit code ${code}`)),
    kill: () => void c.kill(),
  };
}

export function createEngineClient(opts: EngineClientOptions): EngineClient {
  return createRemoteEngine({
    start: () => {
      opts.beforeStart?.();
      return startUtility(opts.entry);
    },
    pickPath: opts.pickPath,
    recentStore: opts.recentStore,
  });
}

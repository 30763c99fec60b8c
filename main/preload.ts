/**
 * The preload: exposes exactly the typed API of shared/api.ts, generated from its one
 * method list, plus `onEvent`, which forwards only the events named in API_EVENTS. The
 * renderer never sees ipcRenderer itself, nor the IPC event object.
 */
import { contextBridge, ipcRenderer } from 'electron';
import {
  API_METHODS,
  IPC_EVENT_CHANNEL,
  IPC_PREFIX,
  isApiEvent,
  type ApiEvent,
  type RepriseClient,
} from '../shared/api.js';

const methods = Object.fromEntries(
  API_METHODS.map((m) => [m, (...args: unknown[]) => ipcRenderer.invoke(IPC_PREFIX + m, ...args)]),
);

function onEvent(listener: (e: ApiEvent) => void): () => void {
  const handler = (_e: unknown, event: unknown): void => {
    if (isApiEvent(event)) listener(event);
  };
  ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
  return () => {
    ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
  };
}

const api = { ...methods, onEvent } as unknown as RepriseClient;

contextBridge.exposeInMainWorld('reprise', Object.freeze(api));

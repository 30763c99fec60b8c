/**
 * The preload: exposes exactly the typed API of shared/api.ts, generated from its one
 * method list. The renderer never sees ipcRenderer itself.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { API_METHODS, IPC_PREFIX, type RepriseApi } from '../shared/api.js';

const api = Object.fromEntries(API_METHODS.map((m) => [m, (...args: unknown[]) => ipcRenderer.invoke(IPC_PREFIX + m, ...args)])) as unknown as RepriseApi;

contextBridge.exposeInMainWorld('reprise', Object.freeze(api));

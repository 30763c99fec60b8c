/**
 * The engine's process in Electron: a utilityProcess hosting the EngineHost and its worker
 * threads, so that a worker's memory (a hostile archive, a 100 MiB dump) or a V8 fatal
 * error can take down this process but never the window's main process. It speaks the
 * wire messages of engine-remote.ts (engine-serve.ts). Native dialogs and recent files
 * stay in the main process (they need its windows).
 */
import { EngineHost } from './host/engine-host.js';
import { serveEngine } from './host/engine-serve.js';
import { engineCloser, ownTempFolder } from './host/engine-life.js';
import { isCloseRequest } from './host/engine-remote.js';

const port = (process as NodeJS.Process & { parentPort?: Electron.ParentPort }).parentPort;
if (!port) throw new Error('engine-process must run in an Electron utilityProcess');

// Its temporary folders in one of its own, removed when it closes (host/engine-life.ts).
const own = ownTempFolder();
port.postMessage({ engineTemp: own });

const host = new EngineHost({
  workerUrl: new URL('./engine-worker.js', import.meta.url),
  journalWorkerUrl: new URL('./journal-worker.js', import.meta.url),
  transport: 'electron',
});
const { close, signal } = engineCloser(host, own);
// The shell's close is this process's to answer (by ending), never the API's.
serveEngine(host, {
  send: (m) => port.postMessage(m),
  onMessage: (l) => port.on('message', (e: Electron.MessageEvent) => (isCloseRequest(e.data) ? close() : l(e.data))),
});
for (const name of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(name, signal);

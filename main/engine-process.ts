/**
 * The engine's process: an Electron utilityProcess hosting the EngineHost and its worker
 * threads, so that a worker's memory (a hostile archive, a 100 MiB dump) can take down
 * this process but never the window's main process. It speaks the same wire messages
 * as the web host: `{id, method, params}` in, `{id, result|error}` and `{event}` out.
 * Native dialogs and recent files stay in the main process (they need its windows).
 */
import { dispatch } from './host/dispatch.js';
import { EngineHost } from './host/engine-host.js';

const port = (process as NodeJS.Process & { parentPort?: Electron.ParentPort }).parentPort;
if (!port) throw new Error('engine-process must run in an Electron utilityProcess');

const host = new EngineHost({
  workerUrl: new URL('./engine-worker.js', import.meta.url),
  journalWorkerUrl: new URL('./journal-worker.js', import.meta.url),
  transport: 'electron',
});
host.subscribe((event) => port.postMessage({ event }));

port.on('message', (e: Electron.MessageEvent) => {
  void dispatch(host, e.data).then((resp) => {
    if (resp) port.postMessage(resp);
  });
});

/**
 * The engine's process for `reprise serve`: a Node child (forked by node-engine.ts with
 * an IPC channel and structured-clone serialization) hosting the EngineHost and its
 * workers, so that nothing an artifact does to the engine can stop the HTTP server.
 * Its temporary folders and its close: ../host/engine-life.ts.
 */
import { EngineHost } from '../host/engine-host.js';
import { serveEngine } from '../host/engine-serve.js';
import { engineCloser, ownTempFolder } from '../host/engine-life.js';
import { isCloseRequest } from '../host/engine-remote.js';

if (!process.send) throw new Error('engine-child must be forked with an IPC channel');

const own = ownTempFolder();
process.send({ engineTemp: own });

const host = new EngineHost({
  workerUrl: new URL('../../app/jobs/engine-worker.js', import.meta.url),
  journalWorkerUrl: new URL('../host/journal-worker.js', import.meta.url),
  transport: 'web',
});
const { close, signal } = engineCloser(host, own);
// The shell's close is this process's to answer (by ending), never the API's.
serveEngine(host, {
  send: (m) => process.send?.(m),
  onMessage: (l) => process.on('message', (m) => (isCloseRequest(m) ? close() : l(m))),
});

// The shell went away (its IPC channel closed): nothing is left to answer.
process.on('disconnect', close);
for (const name of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(name, signal);

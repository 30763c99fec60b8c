/**
 * The engine's process for `reprise serve`: a Node child (forked by node-engine.ts with
 * an IPC channel and structured-clone serialization) hosting the EngineHost and its
 * workers, so that nothing an artifact does to the engine can stop the HTTP server.
 */
import { EngineHost } from '../host/engine-host.js';
import { serveEngine } from '../host/engine-serve.js';

if (!process.send) throw new Error('engine-child must be forked with an IPC channel');

const host = new EngineHost({
  workerUrl: new URL('../../app/jobs/engine-worker.js', import.meta.url),
  journalWorkerUrl: new URL('../host/journal-worker.js', import.meta.url),
  transport: 'web',
});
serveEngine(host, { send: (m) => process.send?.(m), onMessage: (l) => process.on('message', l) });
// The shell went away (its IPC channel closed): nothing is left to answer.
process.on('disconnect', () => void host.close().finally(() => process.exit(0)));

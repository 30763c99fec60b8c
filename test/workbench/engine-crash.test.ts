/**
 * A job that dies never takes the host down: a job that allocates without bound ends its
 * worker (the heap cap), a job that aborts the engine's process (as a V8 fatal error does)
 * ends that process, and either way the API call fails with a clear message and the next
 * call on the same host is answered. The host is wired as `reprise serve` wires it
 * (engine-remote.ts, the engine in a child process) behind the web host's WebSocket; the
 * engine's worker is a test worker that misbehaves on two job names and otherwise runs
 * the real engine (dist/, built by npm test).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createRemoteEngine, type RemoteEngine } from '../../main/host/engine-remote.js';
import { forkEngine } from '../../main/webhost/node-engine.js';
import { startWebHost, type WebHost } from '../../main/webhost/server.js';
import type { ApiEvent, JobStarted } from '../../shared/api.js';
import { bytesSource, jobEnd, type JobApi } from '../helpers/job-report.js';

const dist = (p: string) => pathToFileURL(join(__dirname, '../../dist', p)).href;

let engine: RemoteEngine;
let web: WebHost;
let ws: WebSocket;
let nextId = 1;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'reprise-crash-'));
  const worker = join(dir, 'hostile-worker.mjs');
  await writeFile(
    worker,
    `import { parentPort } from 'node:worker_threads';
import { executeJob } from ${JSON.stringify(dist('app/jobs/execute.js'))};
parentPort.on('message', async (msg) => {
  if (msg.job.path === 'hog') { const keep = []; for (;;) keep.push({ a: Math.random(), b: [1, 2, 3] }); }
  // A V8 fatal error ends the process with a signal; process.abort() is refused in workers.
  if (msg.job.path === 'abort') process.kill(process.pid, 'SIGABRT');
  // After the host has answered startJob: the job, not the call, is what dies.
  if (msg.job.path === 'abort-later') return void setTimeout(() => process.kill(process.pid, 'SIGABRT'), 300);
  parentPort.postMessage({ id: msg.id, kind: 'done', outcome: await executeJob(msg.job) });
});
`,
  );
  const entry = join(dir, 'engine-child.mjs');
  await writeFile(
    entry,
    `import { EngineHost } from ${JSON.stringify(dist('main/host/engine-host.js'))};
import { serveEngine } from ${JSON.stringify(dist('main/host/engine-serve.js'))};
const host = new EngineHost({ workerUrl: new URL(${JSON.stringify(pathToFileURL(worker).href)}), journalWorkerUrl: new URL(${JSON.stringify(dist('main/host/journal-worker.js'))}), transport: 'web', workerLimits: { maxOldGenerationSizeMb: 64 } });
serveEngine(host, { send: (m) => process.send?.(m), onMessage: (l) => process.on('message', l) });
process.on('disconnect', () => process.exit(0));
`,
  );
  const renderer = await mkdtemp(join(tmpdir(), 'reprise-crash-ui-'));
  await writeFile(join(renderer, 'index.html'), '<!doctype html><title>t</title>');
  engine = createRemoteEngine({ start: () => forkEngine(entry) });
  web = await startWebHost({ api: engine, rendererDir: renderer });
  ws = new WebSocket(`ws://127.0.0.1:${web.port}/api?token=${web.token}`, { origin: web.origin });
  await new Promise((r) => ws.once('open', r));
});
afterAll(async () => {
  ws.close();
  await web.close();
  engine.close();
});

function call(
  method: string,
  params: unknown[],
): Promise<{ result?: unknown; error?: { message: string; usage: boolean } }> {
  const id = nextId++;
  return new Promise((resolve) => {
    const onMsg = (d: WebSocket.RawData) => {
      const m = JSON.parse(String(d)) as { id?: number };
      if (m.id !== id) return;
      ws.off('message', onMsg);
      resolve(m as { result?: unknown; error?: { message: string; usage: boolean } });
    };
    ws.on('message', onMsg);
    ws.send(JSON.stringify({ id, method, params }));
  });
}

/** The API over this WebSocket, as the window's transport sees it (calls and pushed events). */
const wire: JobApi = {
  async startJob(req) {
    const r = await call('startJob', [req]);
    if (r.error) throw new Error(r.error.message);
    return r.result as JobStarted;
  },
  subscribe(listener) {
    const onMsg = (d: WebSocket.RawData) => {
      const m = JSON.parse(String(d)) as { event?: ApiEvent };
      if (m.event) listener(m.event);
    };
    ws.on('message', onMsg);
    return () => void ws.off('message', onMsg);
  },
};

/** A job on a small file named `name` (the hostile worker misbehaves on some names): how it ended. */
async function check(name: string): Promise<{ report?: unknown; message?: string }> {
  try {
    const end = await jobEnd(wire, { source: bytesSource(name, '{"type":"something.else"}'), mode: 'verify' });
    return end.ok ? { report: end.report } : { message: end.message };
  } catch (e) {
    // The engine's process died before it answered startJob: the call itself fails.
    return { message: (e as Error).message };
  }
}

describe('a job that dies', () => {
  it('out of memory in its worker: the call fails with a clear message, the next one is answered', async () => {
    expect(await check('hog')).toEqual({
      message: 'internal error: the job ran out of memory (its worker was stopped; the host keeps running)',
    });
    expect((await check('fine.json')).report).toMatchObject({ verdict: 'fail', findings: [{ rule: 'RPR-KIND-001' }] });
  }, 60_000);

  it("aborting the engine's process (a V8 fatal error): the call fails, the server keeps serving, a fresh engine answers", async () => {
    // Whether the answer to startJob left before the process died is a race: either way the
    // window is told the engine stopped, by the call or by the job's event.
    expect((await check('abort')).message).toMatch(
      /^internal error: the engine process stopped \(signal SIGABRT\) (while answering; it will be restarted|during this job; it has been restarted)$/,
    );
    expect((await fetch(`${web.origin}/`)).status).toBe(200);
    expect((await check('fine.json')).report).toMatchObject({ verdict: 'fail', findings: [{ rule: 'RPR-KIND-001' }] });
    expect(await call('engineInfo', [])).toMatchObject({ result: { transport: 'web', nativeDialogs: false } });
  }, 60_000);

  it('a job started with startJob that kills the engine is reported as a failed job event', async () => {
    const failed = new Promise<unknown>((resolve) => {
      const onMsg = (d: WebSocket.RawData) => {
        const m = JSON.parse(String(d)) as { event?: { type: string } };
        if (m.event?.type === 'job-failed') {
          ws.off('message', onMsg);
          resolve(m.event);
        }
      };
      ws.on('message', onMsg);
    });
    const started = await call('startJob', [
      { source: { type: 'bytes', name: 'abort-later', dataBase64: '' }, mode: 'verify' },
    ]);
    expect(started.result).toMatchObject({ jobId: expect.stringMatching(/^job-/) });
    expect(await failed).toMatchObject({
      type: 'job-failed',
      cancelled: false,
      message: expect.stringMatching(/engine process stopped \(signal SIGABRT\) during this job/),
    });
    expect((await check('fine.json')).report).toMatchObject({ verdict: 'fail' });
  }, 60_000);
});

/**
 * What the web host leaves in the temporary directory: nothing of what it made, once it has
 * stopped the normal way (stopServing, what `reprise serve` runs on SIGINT and SIGTERM),
 * when its engine's process is sent SIGTERM or SIGINT itself, or when that process dies
 * without closing. Uploaded evidence (a case's copies, the picked files) and the training
 * officer's private key are among what it makes. The engine's process runs from dist/
 * (helpers.ts, builtEngineChild), with this file's own temporary directory, so only what
 * this file made is looked at. Also the byte budget of the cases sent from the window.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ApiMethod, DemoJournal } from '../../shared/api.js';
import { createRemoteEngine } from '../../main/host/engine-remote.js';
import { CASE_BUDGET, CaseSide, type CaseBudget } from '../../main/host/case-side.js';
import { Uploads } from '../../main/host/uploads.js';
import { startWebHost, type WebHost } from '../../main/webhost/server.js';
import { stopServing } from '../../main/webhost/cli.js';
import { builtEngineChild } from './helpers.js';

let base = '';
/** The temporary directory of this file, of the web host and of the engines it starts. */
let tmp = '';
let ui = '';
const saved = process.env.TMPDIR;
/** An engine's process starts its workers and the training journal: a loaded machine takes a while. */
const ENGINE_TEST_MS = 120_000;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'reprise-temp-cleanup-'));
  tmp = join(base, 'tmp');
  ui = join(base, 'ui');
  await mkdir(tmp);
  await mkdir(ui);
  await writeFile(join(ui, 'index.html'), '<!doctype html><title>t</title>');
  process.env.TMPDIR = tmp;
});
afterAll(async () => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
  await rm(base, { recursive: true, force: true });
});

/**
 * The folders and files the host made in the temporary directory, at any depth: each is named
 * reprise-*.
 */
function hostMade(): string[] {
  return readdirSync(tmp, { recursive: true, encoding: 'utf8' }).filter((p) => basename(p).startsWith('reprise-'));
}

/** The case folder holding a copy of the file sent as `name`: its path under the temporary directory. */
function caseFolderHolding(name: string): string | undefined {
  return hostMade().find((p) => basename(p).startsWith('reprise-case-') && existsSync(join(tmp, p, name)));
}

type Call = <T>(method: string, params: unknown[]) => Promise<T>;

/** A WebSocket on the web host, as the window's: calls answered by their id. */
async function socket(web: WebHost): Promise<{ ws: WebSocket; call: Call }> {
  const ws = new WebSocket(`ws://127.0.0.1:${web.port}/api?token=${web.token}`, { origin: web.origin });
  await new Promise((r) => ws.once('open', r));
  let next = 1;
  const call: Call = (method, params) =>
    new Promise((resolve, reject) => {
      const id = next++;
      const onMessage = (d: WebSocket.RawData): void => {
        const m = JSON.parse(String(d)) as { id?: number; result?: unknown; error?: { message: string } };
        if (m.id !== id) return;
        ws.off('message', onMessage);
        if (m.error) reject(new Error(m.error.message));
        else resolve(m.result as never);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { ws, call };
}

const SENT = Buffer.from('{"sent": "evidence"}\n');

/** Sends a file as the window does (beginUpload, then its bytes as an HTTP body), and adds it to a new case. */
async function sendThroughWeb(web: WebHost, call: Call): Promise<void> {
  const { uploadId } = await call<{ uploadId: string }>('beginUpload', [{ name: 'sent.json', size: SENT.length }]);
  const res = await fetch(`${web.origin}/upload/${uploadId}`, {
    method: 'POST',
    body: SENT,
    headers: { Origin: web.origin, Authorization: `Bearer ${web.token}` },
  });
  expect(res.status).toBe(200);
  await call('addCaseUpload', [{ name: 'evidence/sent.json', uploadId }]);
}

/** Sends a file in one uploadChunk call and adds it to a new case. */
async function sendInChunks(call: Call): Promise<void> {
  const { uploadId } = await call<{ uploadId: string }>('beginUpload', [{ name: 'sent.json', size: SENT.length }]);
  await call('uploadChunk', [{ uploadId, dataBase64: SENT.toString('base64') }]);
  await call('addCaseUpload', [{ name: 'evidence/sent.json', uploadId }]);
}

/** An engine's process spoken to with no shell between (so nothing but itself removes its folder). */
function bareEngine(): { child: ReturnType<typeof builtEngineChild>; call: Call; ended: Promise<string> } {
  const child = builtEngineChild();
  type Answer = { id?: unknown; result?: unknown; error?: { message: string } };
  const waiting = new Map<number, (m: Answer) => void>();
  child.onMessage((m) => {
    const id = (m as Answer).id;
    if (typeof id !== 'number') return;
    waiting.get(id)?.(m as Answer);
    waiting.delete(id);
  });
  const ended = new Promise<string>((resolve) => child.onExit(resolve));
  let next = 1;
  const call: Call = (method, params) =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, (m) => (m.error ? reject(new Error(m.error.message)) : resolve(m.result as never)));
      child.send({ id, method: method as ApiMethod, params });
    });
  return { child, call, ended };
}

describe('the temporary folders of the web host and its engine', () => {
  it(
    'a normal stop (what SIGINT and SIGTERM run) removes the case folders, the picked files and the training key',
    async () => {
      const engine = createRemoteEngine({ start: () => builtEngineChild() });
      const web = await startWebHost({ api: engine, rendererDir: ui });
      let demo: DemoJournal;
      try {
        const { ws, call } = await socket(web);
        await sendThroughWeb(web, call);
        demo = await call<DemoJournal>('createDemoJournal', []);
        ws.close();
        // What there is to remove: the copy of the sent file, the picked file's folder, the officer's key.
        expect(caseFolderHolding('evidence/sent.json')).toBeDefined();
        expect(hostMade().some((p) => basename(p).startsWith('reprise-picked-'))).toBe(true);
        expect(existsSync(demo.keyFile)).toBe(true);
      } finally {
        await stopServing(web, engine);
      }
      expect(existsSync(demo.keyFile)).toBe(false);
      expect(hostMade()).toEqual([]);
    },
    ENGINE_TEST_MS,
  );

  // SIGINT too: Ctrl-C reaches the whole process group.
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    it(
      `an engine sent ${signal} removes its folders itself (a case, the training key), then ends`,
      async () => {
        const { child, call, ended } = bareEngine();
        try {
          await sendInChunks(call);
          const demo = await call<DemoJournal>('createDemoJournal', []);
          expect(caseFolderHolding('evidence/sent.json')).toBeDefined();
          expect(existsSync(demo.keyFile)).toBe(true);
          child.process.kill(signal);
          expect(await ended).toBe('exit code 0');
          expect(hostMade()).toEqual([]);
        } finally {
          child.process.kill('SIGKILL');
        }
      },
      ENGINE_TEST_MS,
    );

  it(
    'an engine that dies without closing: the shell that saw it end removes its folder',
    async () => {
      let child: ReturnType<typeof builtEngineChild> | undefined;
      const engine = createRemoteEngine({ start: () => (child = builtEngineChild()) });
      try {
        const { uploadId } = await engine.beginUpload({ name: 'sent.json', size: SENT.length });
        await engine.uploadChunk({ uploadId, dataBase64: SENT.toString('base64') });
        await engine.addCaseUpload({ name: 'evidence/sent.json', uploadId });
        expect(caseFolderHolding('evidence/sent.json')).toBeDefined();
        const died = new Promise((resolve) => child!.process.once('exit', resolve));
        child!.process.kill('SIGKILL');
        await died;
        // The shell removes it after its own listener has seen the end: waited for by count.
        for (let i = 0; i < 400 && hostMade().length > 0; i++) await new Promise((r) => setTimeout(r, 25));
        expect(hostMade()).toEqual([]);
      } finally {
        await engine.close();
      }
    },
    ENGINE_TEST_MS,
  );
});

describe('the bytes the cases sent from the window may hold', () => {
  /** A case side whose sends are `size` bytes of one upload, under a budget of its own. */
  function side(budget: CaseBudget) {
    const uploads = new Uploads();
    const cases = new CaseSide({
      run: () => Promise.reject(new Error('no case runs here')),
      workers: 1,
      uploads,
      emit: () => undefined,
      grant: async () => undefined,
      prepare: () => Promise.reject(new Error('no case starts here')),
      confine: async (path) => path,
      budget,
    });
    const upload = (size: number): string => {
      const { uploadId } = uploads.begin({ name: 'sent.json', size });
      uploads.chunk({ uploadId, dataBase64: Buffer.alloc(size, 0x61).toString('base64') });
      return uploadId;
    };
    const add = (name: string, uploadId: string, folderId?: string) =>
      cases.addUpload({ name, uploadId, ...(folderId ? { folderId } : {}) });
    const send = (name: string, size: number, folderId?: string) => add(name, upload(size), folderId);
    return { cases, add, upload, send };
  }

  /** The files of the case folders, by folder. */
  const caseFiles = async (): Promise<string[][]> =>
    Promise.all(
      hostMade()
        .filter((p) => basename(p).startsWith('reprise-case-'))
        .map(async (p) => (await readdir(join(tmp, p))).sort()),
    );

  it('refuses a file that takes its case past the budget of a case, naming it, and copies nothing of it', async () => {
    const { cases, send } = side({ caseBytes: 1024, allBytes: 4096 });
    try {
      const { folderId } = await send('a.json', 600);
      await expect(send('b.json', 600, folderId)).rejects.toMatchObject({
        usage: true,
        message:
          'b.json (600 bytes) cannot be added: a case sent from the window holds at most 1024 bytes (this one holds 600 bytes); open a larger case from its folder',
      });
      expect(await caseFiles()).toEqual([['a.json']]);
      // The refusal claimed nothing: a file that fits still joins the case.
      expect(await send('c.json', 424, folderId)).toEqual({ folderId, files: 2 });
    } finally {
      await cases.close();
    }
  });

  it('refuses a file that takes all the sent cases past their budget, before it makes a folder', async () => {
    const { cases, send } = side({ caseBytes: 1024, allBytes: 1500 });
    try {
      await send('a.json', 1000);
      await expect(send('b.json', 600)).rejects.toMatchObject({
        usage: true,
        message:
          'b.json (600 bytes) cannot be added: the cases sent from the window hold at most 1500 bytes together (they hold 1000 bytes); open a larger case from its folder',
      });
      expect(await caseFiles()).toEqual([['a.json']]);
    } finally {
      await cases.close();
    }
  });

  it('counts sends racing into one case (one upload under many names) before any is written', async () => {
    const { cases, add, upload, send } = side({ caseBytes: 1024, allBytes: 4096 });
    try {
      const { folderId } = await send('first.json', 24);
      const shared = upload(200);
      const racing = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => add(`r${i}.json`, shared, folderId)),
      );
      expect(racing.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
      expect((await caseFiles())[0]).toHaveLength(6);
    } finally {
      await cases.close();
    }
  });

  it('holds 2 GiB a case and 4 GiB for all of them unless told otherwise', () => {
    expect(CASE_BUDGET).toEqual({ caseBytes: 2 * 1024 ** 3, allBytes: 4 * 1024 ** 3 });
  });
});

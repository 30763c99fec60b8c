/**
 * Chosen files reach the engine as raw bytes: through the web host as one HTTP request body
 * (POST /upload/ID with the token as a bearer header, the way the renderer's upload worker
 * sends it), or as uploadChunk binary WebSocket frames ([u32 header length][header
 * JSON][bytes]); a malformed binary frame closes the connection.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ApiEvent } from '../../shared/api.js';
import type { EngineHost } from '../../main/host/engine-host.js';
import { distHost } from '../helpers/dist-host.js';
import { startWebHost, type WebHost } from '../../main/webhost/server.js';
import { pipeUpload, UPLOAD_PIECE_BYTES } from '../../main/webhost/upload-route.js';

let host: EngineHost;
let web: WebHost;
beforeAll(async () => {
  host = distHost();
  const dir = await mkdtemp(join(tmpdir(), 'reprise-upload-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>t</title>');
  web = await startWebHost({ api: host, rendererDir: dir });
});
afterAll(async () => {
  await web.close();
  await host.close();
});

/** The renderer transport's binary frame. */
function frame(id: number, method: string, params: Record<string, unknown>, data: Uint8Array): Buffer {
  const head = Buffer.from(JSON.stringify({ id, method, params: [params] }), 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32BE(head.length);
  return Buffer.concat([len, head, data]);
}

async function connect(): Promise<{ ws: WebSocket; next: () => Promise<Record<string, unknown>> }> {
  const ws = new WebSocket(`ws://127.0.0.1:${web.port}/api?token=${web.token}`, { origin: web.origin });
  await new Promise((r) => ws.once('open', r));
  const queue: Record<string, unknown>[] = [];
  const waiters: ((m: Record<string, unknown>) => void)[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(String(d)) as Record<string, unknown>;
    const w = waiters.shift();
    if (w) w(m);
    else queue.push(m);
  });
  return { ws, next: () => (queue.length ? Promise.resolve(queue.shift()!) : new Promise((r) => waiters.push(r))) };
}

describe('binary upload frames', () => {
  it('uploads a file in raw chunks and verifies exactly those bytes', async () => {
    const { ws, next } = await connect();
    const bytes = Buffer.from(JSON.stringify({ a: 1, text: 'é'.repeat(3000) }), 'utf8');
    ws.send(JSON.stringify({ id: 1, method: 'beginUpload', params: [{ name: 'up.json', size: bytes.length }] }));
    const begun = (await next()) as { id: number; result: { uploadId: string } };
    const uploadId = begun.result.uploadId;
    const half = Math.floor(bytes.length / 2);
    ws.send(frame(2, 'uploadChunk', { uploadId }, bytes.subarray(0, half)));
    expect(await next()).toEqual({ id: 2, result: { received: half } });
    ws.send(frame(3, 'uploadChunk', { uploadId }, bytes.subarray(half)));
    expect(await next()).toEqual({ id: 3, result: { received: bytes.length } });
    ws.send(
      JSON.stringify({ id: 4, method: 'startJob', params: [{ source: { type: 'upload', uploadId }, mode: 'verify' }] }),
    );
    let done: ApiEvent | null = null;
    while (!done) {
      const m = (await next()) as { event?: ApiEvent };
      if (m.event?.type === 'job-done' || m.event?.type === 'job-failed') done = m.event;
    }
    if (done.type !== 'job-done') throw new Error(JSON.stringify(done));
    expect(done.report.artifact.sha256).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    ws.close();
  });

  it('an over-long chunk is refused as a usage error', async () => {
    const { ws, next } = await connect();
    ws.send(JSON.stringify({ id: 1, method: 'beginUpload', params: [{ name: 'x', size: 2 }] }));
    const { result } = (await next()) as { result: { uploadId: string } };
    ws.send(frame(2, 'uploadChunk', { uploadId: result.uploadId }, Buffer.from('abc')));
    expect(await next()).toMatchObject({
      id: 2,
      error: { usage: true, message: expect.stringMatching(/longer than announced/) },
    });
    ws.close();
  });

  it('a malformed binary frame closes the connection (1007)', async () => {
    for (const bad of [
      Buffer.from([0, 0, 0, 200, 1, 2]),
      Buffer.concat([Buffer.from([0, 0, 0, 2]), Buffer.from('{]')]),
      frame(1, 'uploadChunk', {}, Buffer.alloc(0)).subarray(0, 3),
    ]) {
      const { ws } = await connect();
      const code = await new Promise<number>((r) => {
        ws.once('close', (c) => r(c));
        ws.send(bad);
      });
      expect(code).toBe(1007);
    }
  });
});

/** A POST to the web host: its status and JSON answer. */
async function post(
  path: string,
  body: Uint8Array,
  headers: Record<string, string>,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${web.port}${path}`, {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { Origin: web.origin, Authorization: `Bearer ${web.token}`, ...headers },
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function beginUpload(size: number): Promise<string> {
  const { ws, next } = await connect();
  ws.send(JSON.stringify({ id: 1, method: 'beginUpload', params: [{ name: 'up.json', size }] }));
  const begun = (await next()) as { result: { uploadId: string } };
  ws.close();
  return begun.result.uploadId;
}

describe('the HTTP upload route', () => {
  it('takes a whole file as one request body and the engine holds exactly its bytes', async () => {
    const bytes = Buffer.from(JSON.stringify({ a: 1, pad: 'é'.repeat(6 * 1024 * 1024) }), 'utf8');
    const uploadId = await beginUpload(bytes.length);
    expect(await post(`/upload/${uploadId}`, bytes, {})).toEqual({ status: 200, json: { received: bytes.length } });
    const { ws, next } = await connect();
    ws.send(
      JSON.stringify({ id: 4, method: 'startJob', params: [{ source: { type: 'upload', uploadId }, mode: 'verify' }] }),
    );
    let done: ApiEvent | null = null;
    while (!done) {
      const m = (await next()) as { event?: ApiEvent };
      if (m.event?.type === 'job-done' || m.event?.type === 'job-failed') done = m.event;
    }
    ws.close();
    if (done.type !== 'job-done') throw new Error(JSON.stringify(done));
    expect(done.report.artifact.sha256).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    // Read from the web host's private file by path: the report names the picked file, never that one.
    expect(done.report.artifact.path).toBe('up.json');
    expect(JSON.stringify(done.report)).not.toContain('reprise-picked-');
  });

  it('refuses a missing or wrong token, a foreign Origin and a foreign Host, and names an engine refusal', async () => {
    const uploadId = await beginUpload(3);
    const body = Buffer.from('abc');
    expect((await post(`/upload/${uploadId}`, body, { Authorization: '' })).status).toBe(401);
    expect((await post(`/upload/${uploadId}`, body, { Authorization: `Bearer ${'A'.repeat(43)}` })).status).toBe(401);
    expect((await post(`/upload/${uploadId}`, body, { Origin: 'http://evil.example' })).status).toBe(403);
    const foreignHost = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: web.port,
          method: 'POST',
          path: `/upload/${uploadId}`,
          headers: { Host: `evil.example:${web.port}`, Origin: web.origin, Authorization: `Bearer ${web.token}` },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(foreignHost).toBe(421);
    const long = await post(`/upload/${uploadId}`, Buffer.from('abcd'), {});
    expect(long.status).toBe(400);
    expect(String((long.json['error'] as { message: string }).message)).toMatch(/longer than announced/);
    expect((await post('/upload/upload-999999', body, {})).json).toEqual({ error: { message: 'unknown upload' } });
  });

  it('hands the engine pieces of at most UPLOAD_PIECE_BYTES, in order, one call at a time', async () => {
    const seen: number[] = [];
    let inFlight = 0;
    let most = 0;
    let total = 0;
    const api = {
      uploadChunk: async (req: { data?: Uint8Array }) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 1));
        seen.push(req.data![0]!);
        total += req.data!.length;
        inFlight--;
        return { received: total };
      },
    };
    async function* body(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 40; i++) yield Buffer.alloc(1024 * 1024, i);
    }
    expect(await pipeUpload(api as never, body(), 'u')).toBe(40 * 1024 * 1024);
    expect(seen).toEqual([0, 8, 16, 24, 32]);
    expect(most).toBe(1);
    expect(UPLOAD_PIECE_BYTES).toBeLessThanOrEqual(12 * 1024 * 1024);
  });
});

describe('the private file an HTTP upload is written to', () => {
  /** The upload files the web host holds now: `reprise-picked-*` folders under the temporary directory. */
  async function pickedFiles(): Promise<
    { dir: string; mode: number; files: { name: string; mode: number; size: number }[] }[]
  > {
    const { readdir, stat } = await import('node:fs/promises');
    const out = [];
    for (const d of (await readdir(tmpdir())).filter((n) => n.startsWith('reprise-picked-'))) {
      const dir = join(tmpdir(), d);
      const st = await stat(dir).catch(() => null);
      if (!st) continue;
      const files = [];
      for (const f of await readdir(dir).catch(() => [])) {
        const fs = await stat(join(dir, f)).catch(() => null);
        if (fs) files.push({ name: f, mode: fs.mode & 0o777, size: fs.size });
      }
      out.push({ dir, mode: st.mode & 0o777, files });
    }
    return out;
  }

  it('is readable by its owner only, goes when the upload is replaced, and the folder when the host closes', async () => {
    const own = distHost();
    const rdir = await mkdtemp(join(tmpdir(), 'reprise-renderer-'));
    await writeFile(join(rdir, 'index.html'), '<!doctype html><title>t</title>');
    const before = new Set((await pickedFiles()).map((d) => d.dir));
    const w = await startWebHost({ api: own, rendererDir: rdir });
    const mine = async () => (await pickedFiles()).filter((d) => !before.has(d.dir));
    const begin = async (size: number): Promise<string> => {
      const ws = new WebSocket(`ws://127.0.0.1:${w.port}/api?token=${w.token}`, { origin: w.origin });
      await new Promise((r) => ws.once('open', r));
      ws.send(JSON.stringify({ id: 1, method: 'beginUpload', params: [{ name: 'up.json', size }] }));
      const m = JSON.parse(String(await new Promise((r) => ws.once('message', r)))) as { result: { uploadId: string } };
      ws.close();
      return m.result.uploadId;
    };
    const send = async (id: string, body: Buffer) =>
      (
        await fetch(`${w.origin}/upload/${id}`, {
          method: 'POST',
          body: new Uint8Array(body),
          headers: { Origin: w.origin, Authorization: `Bearer ${w.token}` },
        })
      ).status;
    try {
      const first = await begin(3);
      expect(await send(first, Buffer.from('abc'))).toBe(200);
      const [held] = await mine();
      expect(held!.mode).toBe(0o700);
      // Its owner's only, and read-only once written whole (the mark a following job waits for).
      expect(held!.files).toEqual([{ name: first, mode: 0o400, size: 3 }]);
      // A second body for the same upload is refused; a longer one leaves no file behind.
      expect(await send(first, Buffer.from('abc'))).toBe(400);
      const long = await begin(2);
      expect(await send(long, Buffer.from('abc'))).toBe(400);
      expect((await mine())[0]!.files.map((f) => f.name)).toEqual([first]);
      // Two newer uploads replace the first: its file goes.
      const second = await begin(3);
      expect(await send(second, Buffer.from('xyz'))).toBe(200);
      await new Promise((r) => setTimeout(r, 50));
      expect((await mine())[0]!.files.map((f) => f.name)).toEqual([second]);
    } finally {
      await w.close();
      await own.close();
    }
    expect(await mine()).toEqual([]);
  });
});

describe('a job that follows an upload while it arrives', () => {
  /** A POST whose body comes in `pieces`, one every `everyMs` (a browser sending a big file). */
  function postSlowly(
    uploadId: string,
    bytes: Buffer,
    pieces: number,
    everyMs: number,
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    let i = 0;
    const size = Math.ceil(bytes.length / pieces);
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        await new Promise((r) => setTimeout(r, everyMs));
        if (i * size >= bytes.length) return c.close();
        c.enqueue(new Uint8Array(bytes.subarray(i * size, ++i * size)));
      },
    });
    const init = {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { Origin: web.origin, Authorization: `Bearer ${web.token}` },
    };
    return fetch(`http://127.0.0.1:${web.port}/upload/${uploadId}`, init as RequestInit).then(async (res) => ({
      status: res.status,
      json: (await res.json()) as Record<string, unknown>,
    }));
  }

  /** Starts a job on an upload and gathers its events until it ends. */
  async function job(uploadId: string): Promise<{ end: ApiEvent; labels: string[]; fractions: number[] }> {
    const { ws, next } = await connect();
    ws.send(
      JSON.stringify({ id: 7, method: 'startJob', params: [{ source: { type: 'upload', uploadId }, mode: 'verify' }] }),
    );
    // Events of every job reach every socket: this job's only, once its id is known
    // (the events that came before the answer are kept and read then).
    let jobId: string | null = null;
    const events: ApiEvent[] = [];
    const labels: string[] = [];
    const fractions: number[] = [];
    for (;;) {
      const m = (await next()) as {
        id?: number;
        result?: { jobId: string };
        error?: { message: string };
        event?: ApiEvent;
      };
      if (m.id === 7 && m.error) throw new Error(m.error.message);
      if (m.id === 7) jobId = m.result!.jobId;
      if (m.event) events.push(m.event);
      while (jobId !== null && events.length) {
        const e = events.shift()!;
        if (!('jobId' in e) || e.jobId !== jobId) continue;
        if (e.type === 'job-progress') fractions.push(e.fraction);
        if (e.type === 'job-progress' && e.label) labels.push(e.label);
        if (e.type === 'job-done' || e.type === 'job-failed') {
          ws.close();
          return { end: e, labels, fractions };
        }
      }
    }
  }

  async function begin(size: number): Promise<{ uploadId: string; arriving?: boolean }> {
    const { ws, next } = await connect();
    ws.send(JSON.stringify({ id: 1, method: 'beginUpload', params: [{ name: 'trace.json', size }] }));
    const m = (await next()) as { result: { uploadId: string; arriving?: boolean } };
    ws.close();
    return m.result;
  }

  it('starts before the bytes are sent, shows them arriving, and reports exactly what a job on the finished upload reports', async () => {
    const { generateTrace } = await import('../../app/kinds/acgp/generate.js');
    // Over 8 MiB, with non-ASCII text: the engine decodes it as it arrives.
    const trace = generateTrace({ count: 11_000, seed: 11, traceId: 'trace-arriving-é' });
    const bytes = Buffer.from(JSON.stringify(trace), 'utf8');
    expect(bytes.length).toBeGreaterThan(8 * 1024 * 1024);
    const early = await begin(bytes.length);
    expect(early.arriving).toBe(true);
    const following = job(early.uploadId);
    expect(await postSlowly(early.uploadId, bytes, 20, 15)).toEqual({ status: 200, json: { received: bytes.length } });
    const { end, labels, fractions } = await following;
    if (end.type !== 'job-done') throw new Error(JSON.stringify(end));
    expect(labels).toContain('receiving');
    // Receiving is the bar's first half; "verifying" is said at the last byte, and the bar never runs back.
    expect(labels.slice(labels.indexOf('verifying')).every((l) => l !== 'receiving')).toBe(true);
    expect(labels).toContain('verifying');
    expect(fractions).toContain(0.5);
    expect(fractions.every((f, i) => i === 0 || f >= fractions[i - 1]!)).toBe(true);
    // The same bytes uploaded first and verified after: the same report, but for its run.
    const late = await begin(bytes.length);
    expect((await post(`/upload/${late.uploadId}`, bytes, {})).status).toBe(200);
    const after = await job(late.uploadId);
    if (after.end.type !== 'job-done') throw new Error(JSON.stringify(after.end));
    expect(after.labels).not.toContain('receiving');
    const { run: _r1, ...a } = end.report;
    const { run: _r2, ...b } = after.end.report;
    expect(a).toEqual(b);
    expect(end.report.artifact.sha256).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
  });

  it("the editor's content of an arriving upload waits until it is whole, never showing part of it", async () => {
    const bytes = Buffer.from(JSON.stringify({ a: 'é'.repeat(200_000), b: [1, 2, 3] }), 'utf8');
    const { uploadId } = await begin(bytes.length);
    const { ws, next } = await connect();
    ws.send(JSON.stringify({ id: 9, method: 'artifactContent', params: [{ source: { type: 'upload', uploadId } }] }));
    expect((await postSlowly(uploadId, bytes, 10, 10)).status).toBe(200);
    let m: { id?: number; result?: { raw: string | null } } = {};
    while (m.id !== 9) m = (await next()) as typeof m;
    ws.close();
    expect(m.result?.raw).toBe(bytes.toString('utf8'));
  });

  it('a body that ends short of its announced size is refused, and a job following it fails at once', async () => {
    const words = 'the upload of trace.json failed: the upload ended after 7 of the 20 bytes announced';
    const { uploadId } = await begin(20);
    // A job started (its id answered) before the body is sent: it follows the upload as it arrives.
    const { ws, next } = await connect();
    ws.send(
      JSON.stringify({ id: 7, method: 'startJob', params: [{ source: { type: 'upload', uploadId }, mode: 'verify' }] }),
    );
    let m = (await next()) as { id?: number; result?: { jobId: string }; event?: ApiEvent };
    while (m.id !== 7) m = (await next()) as typeof m;
    const jobId = m.result!.jobId;
    const short = await post(`/upload/${uploadId}`, Buffer.from('{"a":1}'), {});
    expect(short).toEqual({
      status: 400,
      json: { error: { message: 'the upload ended after 7 of the 20 bytes announced' } },
    });
    const ends = (e: ApiEvent | undefined) => (e?.type === 'job-done' || e?.type === 'job-failed') && e.jobId === jobId;
    while (!ends(m.event)) m = (await next()) as typeof m;
    const end = m.event;
    expect(end?.type === 'job-failed' && end.message).toBe(words);
    // A job started after it is refused with the same words.
    ws.send(
      JSON.stringify({ id: 8, method: 'startJob', params: [{ source: { type: 'upload', uploadId }, mode: 'verify' }] }),
    );
    let r = (await next()) as { id?: number; error?: { message: string } };
    while (r.id !== 8) r = (await next()) as typeof r;
    ws.close();
    expect(r.error?.message).toBe(words);
  });

  it("ends with the sending's own reason when the body fails", async () => {
    const { uploadId } = await begin(10);
    const following = job(uploadId);
    const refused = await postSlowly(uploadId, Buffer.from('{"a":"too long for ten bytes"}'), 3, 5);
    expect(refused.status).toBe(400);
    const { end } = await following;
    expect(end.type, JSON.stringify(end).slice(0, 600)).toBe('job-failed');
    expect(end.type === 'job-failed' && end.message).toMatch(
      /^the upload of trace\.json failed: the upload is longer than announced \(10 bytes\)$/,
    );
  });
});

/** The loopback web host: token, Origin and path checks, and a real API round trip. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RepriseApi } from '../../shared/api.js';
import { startWebHost, tokenMatches, type WebHost } from '../../main/webhost/server.js';
import { dispatch } from '../../main/host/dispatch.js';

const fakeApi = {
  engineInfo: async () => ({ version: 't', kinds: [], transport: 'web' }),
  listExamples: async () => [],
  startJob: async () => {
    throw new Error('not in this test');
  },
} as unknown as RepriseApi;

let host: WebHost;
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'reprise-web-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>t</title>');
  host = await startWebHost({ api: fakeApi, rendererDir: dir });
});
afterAll(async () => host.close());

function connect(path: string, origin: string | undefined): Promise<{ ok: boolean; status?: number; ws?: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}${path}`, origin ? { origin } : {});
    ws.on('open', () => resolve({ ok: true, ws }));
    ws.on('unexpected-response', (_req, res) => resolve({ ok: false, status: res.statusCode }));
    ws.on('error', () => resolve({ ok: false }));
  });
}

/** A raw upgrade request with a chosen Host header: the status it gets (101 when upgraded). */
function upgradeStatus(hostHeader: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port: host.port,
      path: `/api?token=${host.token}`,
      headers: {
        Host: hostHeader,
        Origin: host.origin,
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('response', (res) => resolve(res.statusCode ?? 0));
    req.on('error', reject);
    req.end();
  });
}

describe('web host', () => {
  it('listens on 127.0.0.1 only, with a 256-bit token in the URL fragment', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}$/);
  });
  it('rejects a missing token, a wrong token and a foreign Origin', async () => {
    expect((await connect('/api', host.origin)).status).toBe(401);
    expect((await connect('/api?token=wrong', host.origin)).status).toBe(401);
    expect((await connect(`/api?token=${host.token}x`, host.origin)).status).toBe(401);
    expect((await connect(`/api?token=${host.token}`, 'http://evil.example')).status).toBe(403);
    expect((await connect(`/api?token=${host.token}`, `http://localhost:${host.port}`)).status).toBe(403);
    expect((await connect(`/api?token=${host.token}`, undefined)).status).toBe(403);
  });
  it('answers API calls with the right token and Origin', async () => {
    const c = await connect(`/api?token=${host.token}`, host.origin);
    expect(c.ok).toBe(true);
    const reply = await new Promise<unknown>((resolve) => {
      c.ws!.on('message', (d) => resolve(JSON.parse(String(d))));
      c.ws!.send(JSON.stringify({ id: 7, method: 'engineInfo', params: [] }));
    });
    expect(reply).toEqual({ id: 7, result: { version: 't', kinds: [], transport: 'web' } });
    c.ws!.close();
  });
  it('serves the renderer with a CSP and refuses other hosts (DNS rebinding)', async () => {
    const r = await fetch(`${host.origin}/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(`${host.origin}/nope.js`)).status).toBe(404);
  });
  it('the CSP lets the page connect to its own WebSocket port only', async () => {
    const csp = (await fetch(`${host.origin}/`)).headers.get('content-security-policy') ?? '';
    const connect = csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('connect-src'));
    expect(connect).toBe(`connect-src 'self' ws://127.0.0.1:${host.port}`);
    expect(csp).not.toContain('*');
  });
  it('the WebSocket upgrade checks the Host header too (DNS rebinding)', async () => {
    expect(await upgradeStatus(`127.0.0.1:${host.port}`)).toBe(101);
    expect(await upgradeStatus(`evil.example:${host.port}`)).toBe(421);
    expect(await upgradeStatus(`localhost:${host.port}`)).toBe(421);
    expect(await upgradeStatus(`127.0.0.1:${host.port + 1}`)).toBe(421);
    expect(await upgradeStatus('127.0.0.1')).toBe(421);
  });
  it('compares tokens in constant time and never matches null', () => {
    expect(tokenMatches(null, 'a')).toBe(false);
    expect(tokenMatches('a', 'a')).toBe(true);
    expect(tokenMatches('ab', 'a')).toBe(false);
  });
  it('dispatch refuses unknown methods and reports errors without stacks', async () => {
    expect(await dispatch(fakeApi, { id: 1, method: 'constructor', params: [] })).toMatchObject({
      id: 1,
      error: { usage: true },
    });
    expect(await dispatch(fakeApi, { id: 3, method: 'checkBytes', params: [{}] })).toMatchObject({
      id: 3,
      error: { usage: true, message: 'unknown method "checkBytes"' },
    });
    const r = await dispatch(fakeApi, { id: 2, method: 'startJob', params: [{}] });
    expect(r).toMatchObject({ id: 2, error: { message: 'internal error: not in this test' } });
    expect(await dispatch(fakeApi, 'junk')).toBeNull();
  });
});

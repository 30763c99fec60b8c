/**
 * `reprise serve`: the workbench over loopback HTTP + WebSocket, for machines where
 * Electron cannot start. Security: binds 127.0.0.1 only; a random 256-bit token is
 * handed to the browser in the URL *fragment*, which the browser never sends, so loading
 * the page puts it in no request. The page then presents it, checked in constant time: on
 * the WebSocket upgrade in the URL's query (`/api?token=`, onUpgrade), because a browser's
 * WebSocket cannot set a header; and on an upload as a bearer header (upload-route.ts).
 * The query is in the request line, but that stays on the loopback interface (no proxy or
 * other machine sees it) and this server logs no request; and a page of another site cannot
 * use the token even had it learned it: the upgrade is refused unless its Origin header
 * (set by the browser, not by a page) equals our own origin exactly, and its Host header is
 * our own host:port (DNS rebinding). An upload is held to the same Origin and Host checks, every static
 * request to the Host check; a picked file's bytes come as one HTTP request body; static
 * files are confined to the renderer build (static-files.ts, by real path) and sent with a
 * strict CSP whose connect-src is our own WebSocket origin only.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile, realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { BINARY_HEADER_BYTES, type ApiEvent, type ApiEventMessage, type RepriseApi } from '../../shared/api.js';
import { sha256 } from '../../app/core/hash.js';
import { dispatch } from '../host/dispatch.js';
import { MAX_MESSAGE_BYTES } from '../host/message-size.js';
import { resolveStatic, securityHeaders } from '../static-files.js';
import { serveUpload, uploadIdOf } from './upload-route.js';
import { takesUploadFiles, UploadFiles } from './upload-files.js';

/** A binary frame: [u32 BE header length][header JSON {id, method, params}][data → params[0].data]. Throws if malformed. */
function binaryRequest(data: Buffer | ArrayBuffer | Buffer[]): unknown {
  const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
  const n = buf.readUInt32BE(0);
  if (BINARY_HEADER_BYTES + n > buf.length) throw new Error('short frame');
  const head = JSON.parse(buf.subarray(BINARY_HEADER_BYTES, BINARY_HEADER_BYTES + n).toString('utf8')) as {
    params?: unknown;
  };
  const first = Array.isArray(head.params) ? (head.params[0] as unknown) : undefined;
  if (typeof first !== 'object' || first === null || Array.isArray(first))
    throw new Error('no parameter object for the data');
  (first as { data?: Uint8Array }).data = buf.subarray(BINARY_HEADER_BYTES + n);
  return head;
}

/** Largest WebSocket message accepted: the bound of every call, Electron's IPC too (message-size.ts). */
export { MAX_MESSAGE_BYTES };

export interface WebHost {
  url: string;
  origin: string;
  port: number;
  token: string;
  server: Server;
  close(): Promise<void>;
}

/** The API plus, optionally, the host's pushed events (EngineHost has both). */
export type HostedApi = RepriseApi & { subscribe?(listener: (e: ApiEvent) => void): () => void };

export interface WebHostOptions {
  api: HostedApi;
  rendererDir: string;
  port?: number;
  /** For tests: a fixed token. */
  token?: string;
}

/** Constant-time token comparison (hashing first makes the lengths equal). */
export function tokenMatches(given: string | null, expected: string): boolean {
  if (given === null) return false;
  return timingSafeEqual(sha256(given), sha256(expected));
}

/** What the handlers share; origin is known once the server listens. */
interface Site {
  api: HostedApi;
  /** Where picked files land: private temporary files the engine opens by path (upload-files.ts). */
  files: UploadFiles | null;
  root: string;
  token: string;
  origin: string;
}

/** DNS-rebinding guard: only our own literal host:port is served, on HTTP and on upgrades. */
const ourHost = (site: Site, req: IncomingMessage): boolean => req.headers.host === site.origin.slice('http://'.length);
// connect-src names our WebSocket's exact origin, never every loopback port.
const siteHeaders = (site: Site) => securityHeaders(`ws://127.0.0.1:${new URL(site.origin).port}`);

async function serveStatic(site: Site, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers = siteHeaders(site);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, headers).end();
    return;
  }
  if (!ourHost(site, req)) {
    res.writeHead(421, headers).end('misdirected request');
    return;
  }
  let target;
  try {
    target = await resolveStatic(site.root, new URL(req.url ?? '/', site.origin).pathname);
  } catch {
    target = { ok: false, status: 400 } as const;
  }
  if (!target.ok) {
    res
      .writeHead(target.status, headers)
      .end(target.status === 404 ? 'not found' : target.status === 403 ? 'forbidden' : 'bad path');
    return;
  }
  // A bundled renderer file (resolveStatic keeps the real path under the renderer's root), not a user's path.
  const body = await readFile(target.file).catch(() => null);
  if (!body) {
    res.writeHead(404, headers).end('not found');
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Type': target.contentType, 'Content-Length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function onRequest(site: Site, req: IncomingMessage, res: ServerResponse): void {
  const uploadId = uploadIdOf(req.url?.split('?')[0] ?? '');
  const served = uploadId
    ? serveUpload(site.files ?? site.api, req, res, uploadId, {
        origin: site.origin,
        ourHost: (r) => ourHost(site, r),
        tokenOk: (t) => tokenMatches(t, site.token),
        headers: siteHeaders(site),
      })
    : serveStatic(site, req, res);
  served.catch(() => {
    if (!res.headersSent) res.writeHead(500).end();
  });
}

/** The WebSocket upgrade: our host, path /api, our exact origin and the token, or refused. */
function onUpgrade(site: Site, wss: WebSocketServer, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const reject = (code: number, why: string): void => {
    socket.end(`HTTP/1.1 ${code} ${why}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };
  let url: URL;
  try {
    url = new URL(req.url ?? '/', site.origin);
  } catch {
    reject(400, 'Bad Request');
    return;
  }
  if (!ourHost(site, req)) return reject(421, 'Misdirected Request');
  if (url.pathname !== '/api') return reject(404, 'Not Found');
  if (req.headers.origin !== site.origin) return reject(403, 'Forbidden');
  if (!tokenMatches(url.searchParams.get('token'), site.token)) return reject(401, 'Unauthorized');
  wss.handleUpgrade(req, socket, head, (ws) => onConnection(site.api, ws));
}

function onConnection(api: HostedApi, ws: WebSocket): void {
  // Server-pushed events (job progress, results, cancellations) go to every
  // authenticated connection: there is one user, holding the one token.
  const unsubscribe = api.subscribe?.((event) => {
    if (ws.readyState !== ws.OPEN) return;
    const msg: ApiEventMessage = { event };
    ws.send(JSON.stringify(msg));
  });
  ws.on('close', () => unsubscribe?.());
  ws.on('message', (data, isBinary) => {
    let msg: unknown;
    try {
      msg = isBinary ? binaryRequest(data) : JSON.parse(data.toString());
    } catch {
      ws.close(1007, isBinary ? 'bad binary frame' : 'not JSON');
      return;
    }
    void dispatch(api, msg).then((resp) => {
      if (resp && ws.readyState === ws.OPEN) ws.send(JSON.stringify(resp));
    });
  });
}

/** Listens on loopback only; resolves to the port bound. */
async function listenLoopback(server: Server, port: number): Promise<number> {
  await new Promise<void>((res, rej) => {
    server.once('error', rej);
    server.listen(port, '127.0.0.1', () => res());
  });
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('no address');
  return addr.port;
}

export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const files = takesUploadFiles(opts.api) ? new UploadFiles(opts.api) : null;
  const site: Site = {
    api: files?.hosted() ?? opts.api,
    files,
    root: await realpath(resolve(opts.rendererDir)),
    token: opts.token ?? randomBytes(32).toString('base64url'),
    origin: '',
  };
  const server = createServer((req, res) => onRequest(site, req, res));
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on('upgrade', (req, socket, head) => onUpgrade(site, wss, req, socket, head));
  const port = await listenLoopback(server, opts.port ?? 0);
  site.origin = `http://127.0.0.1:${port}`;
  return {
    url: `${site.origin}/#token=${site.token}`,
    origin: site.origin,
    port,
    token: site.token,
    server,
    close: () =>
      new Promise<void>((res) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.close(() => void (files?.close() ?? Promise.resolve()).then(() => res()));
      }),
  };
}

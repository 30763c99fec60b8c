/**
 * `POST /upload/<uploadId>`: a picked file's bytes as one streamed HTTP request body, written
 * to a private file the engine then opens by path (upload-files.ts), or, for an engine that
 * takes no files, passed on as uploadChunk calls. Chromium streams a File into an HTTP body from its
 * own process, without the page's thread, several times faster than it sends WebSocket
 * frames (measured here: 100 MiB in ~0.4 s against ~1.5 s for 2 MiB binary frames), so the
 * picker is not held to the socket's speed. Same guards as the API socket: our own Host
 * and Origin, and the token, presented as a bearer header (never in the URL), checked in
 * constant time. A cross-site page cannot send that header without a CORS preflight,
 * which this host never answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RepriseApi } from '../../shared/api.js';
import { UploadFiles } from './upload-files.js';

/** What one uploadChunk call carries (the engine accepts at most 12 MiB). */
export const UPLOAD_PIECE_BYTES = 8 * 1024 * 1024;

const UPLOAD_PATH = /^\/upload\/([A-Za-z0-9_-]{1,64})$/;

/** The upload id named by a request path, or null when the path is not an upload's. */
export function uploadIdOf(pathname: string): string | null {
  return UPLOAD_PATH.exec(pathname)?.[1] ?? null;
}

export interface UploadGuards {
  origin: string;
  ourHost(req: IncomingMessage): boolean;
  tokenOk(given: string | null): boolean;
  headers: Record<string, string>;
}

function bearer(req: IncomingMessage): string | null {
  const m = /^Bearer ([A-Za-z0-9_-]+)$/.exec(req.headers.authorization ?? '');
  return m ? m[1]! : null;
}

/** Why the request may not upload (status and reason), or null when it may. */
function refusal(req: IncomingMessage, g: UploadGuards): [number, string] | null {
  if (!g.ourHost(req)) return [421, 'misdirected request'];
  if (req.method !== 'POST') return [405, 'POST only'];
  if (req.headers.origin !== g.origin) return [403, 'forbidden'];
  if (!g.tokenOk(bearer(req))) return [401, 'unauthorized'];
  return null;
}

/**
 * Reads the body into pieces of UPLOAD_PIECE_BYTES and hands each to the engine while the
 * next is read (one call in flight: the engine appends in order, and a slow engine slows
 * the reading, so memory stays at about two pieces). Answers the bytes the engine holds.
 */
export async function pipeUpload(
  api: Pick<RepriseApi, 'uploadChunk'>,
  body: AsyncIterable<Buffer>,
  uploadId: string,
): Promise<number> {
  let parts: Buffer[] = [];
  let size = 0;
  let received = 0;
  const flush = async (): Promise<void> => {
    const data = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
    parts = [];
    size = 0;
    received = (await api.uploadChunk({ uploadId, data })).received;
  };
  let sent: Promise<void> = Promise.resolve();
  for await (const d of body) {
    parts.push(d);
    size += d.length;
    if (size >= UPLOAD_PIECE_BYTES) {
      await sent;
      sent = flush();
      sent.catch(() => undefined);
    }
  }
  await sent;
  if (size > 0 || received === 0) await flush();
  return received;
}

function answer(res: ServerResponse, g: UploadGuards, status: number, body: unknown): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { ...g.headers, 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

/** Serves one upload request: refuses it, or streams its body to the engine and answers `{received}` or `{error}`. */
export async function serveUpload(
  api: Pick<RepriseApi, 'uploadChunk'> | UploadFiles,
  req: IncomingMessage,
  res: ServerResponse,
  uploadId: string,
  g: UploadGuards,
): Promise<void> {
  const refused = refusal(req, g);
  if (refused) {
    req.resume();
    return answer(res, g, refused[0], { error: { message: refused[1] } });
  }
  try {
    answer(res, g, 200, {
      received: await (api instanceof UploadFiles ? api.receive(uploadId, req) : pipeUpload(api, req, uploadId)),
    });
  } catch (e) {
    // The rest of the body is not wanted; closing after the answer stops the browser sending it.
    res.setHeader('Connection', 'close');
    res.once('finish', () => req.destroy());
    answer(res, g, 400, { error: { message: e instanceof Error ? e.message : String(e) } });
  }
}

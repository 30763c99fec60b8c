/// <reference lib="webworker" />
/**
 * The web host's API socket, held in a Web Worker (transport.ts starts it and forwards
 * calls): answers and events are parsed here, off the window's thread, and reach the window
 * as structured clones, a large one in pieces (lib/pieces.ts). A finished job's report can
 * be several MB of JSON; parsing and receiving it whole froze the window for as long.
 */
import { BINARY_HEADER_BYTES, isApiEvent, type ApiEventMessage, type ApiResponse } from '../../shared/api';
import { postInPieces } from './lib/pieces';

/** What the window sends: the socket's address (first), a call, or a request to connect for the host's events. */
export type ToTransport =
  { t: 'open'; url: string } | { t: 'call'; id: number; method: string; params: unknown[] } | { t: 'listen' };
/** What the window gets (each in pieces when large): an answer, or a pushed event. */
export type FromTransport =
  | { t: 'answer'; id: number; result: unknown }
  | { t: 'answer'; id: number; error: string; transport: boolean }
  | { t: 'event'; event: unknown };

/** A request carrying raw bytes as one binary frame (see BINARY_HEADER_BYTES in shared/api.ts), or null. */
export function binaryFrame(id: number, method: string, params: unknown[]): Uint8Array<ArrayBuffer> | null {
  const first = params[0];
  if (typeof first !== 'object' || first === null || !((first as { data?: unknown }).data instanceof Uint8Array))
    return null;
  const { data, ...rest } = first as { data: Uint8Array };
  const head = new TextEncoder().encode(JSON.stringify({ id, method, params: [rest, ...params.slice(1)] }));
  const frame = new Uint8Array(BINARY_HEADER_BYTES + head.length + data.length);
  new DataView(frame.buffer).setUint32(0, head.length);
  frame.set(head, BINARY_HEADER_BYTES);
  frame.set(data, BINARY_HEADER_BYTES + head.length);
  return frame;
}

const scope = self as unknown as Worker;
let posted = 0;
const post = (m: FromTransport): void => postInPieces(m, posted++, (p) => scope.postMessage(p));
let url = '';

const NOT_REACHED = 'Cannot reach the Reprise engine (is `reprise serve` still running, and is the token right?)';
const CLOSED = 'The connection to the engine closed.';
let socket: Promise<WebSocket> | null = null;
/** Calls sent and not yet answered (answered as failed if the socket closes). */
const waiting = new Set<number>();

function onSocketMessage(ev: MessageEvent): void {
  let msg: ApiResponse | ApiEventMessage;
  try {
    msg = JSON.parse(String(ev.data)) as ApiResponse | ApiEventMessage;
  } catch {
    return;
  }
  if ('event' in msg) {
    if (isApiEvent(msg.event)) post({ t: 'event', event: msg.event });
    return;
  }
  if (!waiting.delete(msg.id)) return;
  post(
    'error' in msg
      ? { t: 'answer', id: msg.id, error: msg.error.message, transport: false }
      : { t: 'answer', id: msg.id, result: msg.result },
  );
}

function connect(): Promise<WebSocket> {
  if (socket) return socket;
  socket = new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error(NOT_REACHED));
    ws.onclose = () => {
      socket = null;
      for (const id of waiting) post({ t: 'answer', id, error: CLOSED, transport: true });
      waiting.clear();
    };
    ws.onmessage = onSocketMessage;
  });
  socket.catch(() => (socket = null));
  return socket;
}

scope.onmessage = (e: MessageEvent<ToTransport>) => {
  const m = e.data;
  if (m.t === 'open') return void (url = m.url);
  if (m.t === 'listen') return void connect().catch(() => undefined);
  connect().then(
    (ws) => {
      waiting.add(m.id);
      ws.send(
        binaryFrame(m.id, m.method, m.params) ?? JSON.stringify({ id: m.id, method: m.method, params: m.params }),
      );
    },
    (err: Error) => post({ t: 'answer', id: m.id, error: err.message, transport: true }),
  );
};

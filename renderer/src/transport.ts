/**
 * Picks the transport at start-up: the Electron preload's `window.reprise`, or the
 * loopback WebSocket of `reprise serve` (token from the URL fragment). Both implement
 * the same RepriseClient, generated from API_METHODS and API_EVENTS; nothing else in the
 * UI can tell them apart.
 */
import { API_METHODS, BINARY_HEADER_BYTES, isApiEvent, type ApiEvent, type ApiEventMessage, type ApiResponse, type RepriseClient } from '../../shared/api';

/** A request carrying raw bytes as one binary frame (see BINARY_HEADER_BYTES in shared/api.ts), or null. */
export function binaryFrame(id: number, method: string, params: unknown[]): Uint8Array<ArrayBuffer> | null {
  const first = params[0];
  if (typeof first !== 'object' || first === null || !((first as { data?: unknown }).data instanceof Uint8Array)) return null;
  const { data, ...rest } = first as { data: Uint8Array };
  const head = new TextEncoder().encode(JSON.stringify({ id, method, params: [rest, ...params.slice(1)] }));
  const frame = new Uint8Array(BINARY_HEADER_BYTES + head.length + data.length);
  new DataView(frame.buffer).setUint32(0, head.length);
  frame.set(head, BINARY_HEADER_BYTES);
  frame.set(data, BINARY_HEADER_BYTES + head.length);
  return frame;
}

declare global {
  interface Window {
    reprise?: RepriseClient;
  }
}

export class TransportError extends Error {}

/** The web host's access token (from the URL fragment), or null (Electron, or no token). */
export function webHostToken(): string | null {
  if (typeof window !== 'undefined' && window.reprise) return null;
  return new URLSearchParams(location.hash.slice(1)).get('token');
}

/** The web host's API socket address, or null (Electron, or no token). */
export function webSocketUrl(): string | null {
  const token = webHostToken();
  return token ? `ws://${location.host}/api?token=${encodeURIComponent(token)}` : null;
}

function webSocketApi(): RepriseClient {
  const found = webSocketUrl();
  if (!found) throw new TransportError('No access token in the address. Open the URL that `reprise serve` printed, including the part after #.');
  const url: string = found;
  let socket: Promise<WebSocket> | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Set<(e: ApiEvent) => void>();

  function connect(): Promise<WebSocket> {
    if (socket) return socket;
    socket = new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.onopen = () => resolve(ws);
      ws.onerror = () => reject(new TransportError('Cannot reach the Reprise engine (is `reprise serve` still running, and is the token right?)'));
      ws.onclose = () => {
        socket = null;
        for (const w of waiting.values()) w.reject(new TransportError('The connection to the engine closed.'));
        waiting.clear();
      };
      ws.onmessage = (ev) => {
        let msg: ApiResponse | ApiEventMessage;
        try {
          msg = JSON.parse(String(ev.data)) as ApiResponse | ApiEventMessage;
        } catch {
          return;
        }
        if ('event' in msg) {
          if (isApiEvent(msg.event)) for (const l of listeners) l(msg.event);
          return;
        }
        const w = waiting.get(msg.id);
        if (!w) return;
        waiting.delete(msg.id);
        if ('error' in msg) w.reject(new Error(msg.error.message));
        else w.resolve(msg.result);
      };
    });
    socket.catch(() => (socket = null));
    return socket;
  }

  const call = async (method: string, params: unknown[]): Promise<unknown> => {
    const ws = await connect();
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      ws.send(binaryFrame(id, method, params) ?? JSON.stringify({ id, method, params }));
    });
  };
  const methods = Object.fromEntries(API_METHODS.map((m) => [m, (...params: unknown[]) => call(m, params)]));
  const onEvent = (listener: (e: ApiEvent) => void): (() => void) => {
    listeners.add(listener);
    void connect().catch(() => undefined);
    return () => listeners.delete(listener);
  };
  return { ...methods, onEvent } as unknown as RepriseClient;
}

export function pickTransport(): RepriseClient {
  return window.reprise ?? webSocketApi();
}

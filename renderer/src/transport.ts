/**
 * Picks the transport at start-up: the Electron preload's `window.reprise`, or the
 * loopback WebSocket of `reprise serve` (token from the URL fragment). Both implement
 * the same RepriseClient, generated from API_METHODS and API_EVENTS; nothing else in the
 * UI can tell them apart.
 */
import { API_METHODS, isApiEvent, type ApiEvent, type RepriseClient } from '../../shared/api';
import { PendingCalls } from '../../shared/pending-calls';
import { assembler, type Piece } from './lib/pieces';
import type { FromTransport, ToTransport } from './transport.worker';
import TransportWorker from './transport.worker?worker';

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

/**
 * The web host's client: the socket lives in a Web Worker (transport.worker.ts), which
 * parses answers and events there and posts them here as structured clones, large ones
 * in pieces (lib/pieces.ts), so no message costs this thread a long task.
 */
function webSocketApi(): RepriseClient {
  const url = webSocketUrl();
  if (!url)
    throw new TransportError(
      'No access token in the address. Open the URL that `reprise serve` printed, including the part after #.',
    );
  const worker = new TransportWorker();
  const send = (m: ToTransport): void => worker.postMessage(m);
  const calls = new PendingCalls();
  const listeners = new Set<(e: ApiEvent) => void>();
  const receive = assembler((value) => {
    const m = value as FromTransport;
    if (m.t === 'event') {
      if (isApiEvent(m.event)) for (const l of listeners) l(m.event);
      return;
    }
    calls.settle(
      m.id,
      'error' in m
        ? { ok: false, error: m.transport ? new TransportError(m.error) : new Error(m.error) }
        : { ok: true, value: m.result },
    );
  });
  worker.onmessage = (e: MessageEvent<Piece>) => receive(e.data);
  worker.onerror = () => {
    calls.failAll(() => new TransportError('The connection to the engine stopped (its worker failed).'));
  };
  send({ t: 'open', url });

  const call = (method: string, params: unknown[]): Promise<unknown> => {
    const { id, answer } = calls.open();
    send({ t: 'call', id, method, params });
    return answer;
  };
  const methods = Object.fromEntries(API_METHODS.map((m) => [m, (...params: unknown[]) => call(m, params)]));
  const onEvent = (listener: (e: ApiEvent) => void): (() => void) => {
    listeners.add(listener);
    send({ t: 'listen' });
    return () => listeners.delete(listener);
  };
  return { ...methods, onEvent } as unknown as RepriseClient;
}

export function pickTransport(): RepriseClient {
  return window.reprise ?? webSocketApi();
}

/** Dispatches a wire request to the engine host: the one place both transports share. */
import { isApiMethod, type ApiResponse, type RepriseApi } from '../../shared/api.js';
import { ApiError } from './api-error.js';

export async function dispatch(api: RepriseApi, raw: unknown): Promise<ApiResponse | null> {
  if (typeof raw !== 'object' || raw === null) return null;
  const { id, method, params } = raw as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) return null;
  if (!isApiMethod(method)) return { id, error: { message: `unknown method ${JSON.stringify(method)}`, usage: true } };
  const args = Array.isArray(params) ? params : [];
  try {
    const fn = api[method] as (...a: unknown[]) => Promise<unknown>;
    return { id, result: await fn.apply(api, args) };
  } catch (e) {
    const usage = e instanceof ApiError ? e.usage : false;
    const message = e instanceof Error ? e.message : String(e);
    // Messages relayed from the engine's process (or a worker) already say so once.
    const internal = usage || message.startsWith('internal error: ') ? message : `internal error: ${message}`;
    return { id, error: { message: internal, usage } };
  }
}

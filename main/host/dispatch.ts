/** Dispatches a wire request to the engine host: the one place both transports share. */
import { isApiMethod, type ApiResponse, type RepriseApi } from '../../shared/api.js';
import { ApiError } from './api-error.js';
import { MAX_DEPTH } from '../../app/core/jcs.js';

/**
 * The deepest request answered: an artifact nests at most MAX_DEPTH (the engine refuses one
 * deeper), and a report holds its values a few levels down. Every method walks what it is
 * given (a report to sign, two to compare), and a walk of a value nested 200,000 deep ends
 * in "Maximum call stack size exceeded": refused here, as the user's, before any walk.
 */
const MAX_REQUEST_DEPTH = MAX_DEPTH + 16;

/** Whether `value` nests arrays or objects deeper than `limit`, found without recursion (the depth is the caller's). */
function nestsPast(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

export async function dispatch(api: RepriseApi, raw: unknown): Promise<ApiResponse | null> {
  if (typeof raw !== 'object' || raw === null) return null;
  const { id, method, params } = raw as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) return null;
  if (!isApiMethod(method)) return { id, error: { message: `unknown method ${JSON.stringify(method)}`, usage: true } };
  const args = Array.isArray(params) ? params : [];
  if (nestsPast(args, MAX_REQUEST_DEPTH))
    return {
      id,
      error: {
        message: `the request nests deeper than ${MAX_REQUEST_DEPTH} levels, which no report or artifact the engine reads does: nothing was done`,
        usage: true,
      },
    };
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

/**
 * The largest call either transport carries: the web host's WebSocket message (its
 * `maxPayload`) and an Electron IPC call's arguments are held to the one bound, so neither
 * shell hands the engine more than the other would. It imports nothing, so the Electron
 * main process reads it without loading the web host.
 */

/** Largest call accepted (a base64 artifact of MAX_API_BYTES plus framing). */
export const MAX_MESSAGE_BYTES = 700 * 1024 * 1024;

/** What one value adds to the count by itself: at least one byte (its separator), its text or its bytes. */
function ownBytes(v: unknown): number {
  if (typeof v === 'string') return v.length + 3;
  if (ArrayBuffer.isView(v)) return v.byteLength + 1;
  if (v instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && v instanceof SharedArrayBuffer))
    return v.byteLength + 1;
  if (Array.isArray(v)) return v.length + 3;
  if (v instanceof Map) return 2 * v.size + 3;
  if (v instanceof Set) return v.size + 3;
  if (typeof v === 'object' && v !== null) return Object.keys(v).reduce((n, k) => n + k.length + 4, 3);
  return 1;
}

/**
 * The values inside an array, a plain object, a Map or a Set (IPC's structured clone carries
 * the last two), onto `todo`: a loop, as a spread of a long array overflows the stack.
 */
function pushInside(v: unknown, todo: unknown[]): void {
  if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return;
  if (v instanceof Map) {
    for (const [k, child] of v) todo.push(k, child);
    return;
  }
  for (const child of Array.isArray(v) || v instanceof Set ? v : Object.values(v)) todo.push(child);
}

/**
 * Whether `value` would take more than `limit` bytes as a message: counted as its JSON
 * text would be at least (a string by its length, binary data by its bytes), a value shared
 * by several places once per place, without recursion. Every value counts at least one byte
 * and is counted before what it holds is looked at, so the walk stops within `limit` steps
 * of a graph of any size (a cycle included).
 */
export function exceedsBytes(value: unknown, limit: number): boolean {
  const todo: unknown[] = [value];
  let bytes = 0;
  while (todo.length > 0) {
    const v = todo.pop();
    bytes += ownBytes(v);
    if (bytes > limit) return true;
    pushInside(v, todo);
  }
  return false;
}

/** The refusal of a call whose arguments are larger than MAX_MESSAGE_BYTES, or null for one within it. */
export function oversizedCall(params: unknown[]): string | null {
  if (!exceedsBytes(params, MAX_MESSAGE_BYTES)) return null;
  return `refused: the call's arguments are larger than ${MAX_MESSAGE_BYTES} bytes, the most one call may carry; nothing was done`;
}

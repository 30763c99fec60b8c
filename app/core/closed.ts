/**
 * Closed-format checks shared by every reader of JSON documents: the plain-object test,
 * RFC 6901 pointers, and the other small helpers each format would otherwise write again.
 */

import { statSync } from 'node:fs';

// One RFC 6901 reference token (shared/json-pointer.ts, which the window uses too).
export { escapePointerToken } from '../../shared/json-pointer.js';

// The plain-object test (shared/plain-object.ts, which the window's readers use too).
export { isPlainObject } from '../../shared/plain-object.js';

/** A JSON value's type in a word, as findings name it: `array` and `null` told apart from `object`. */
export const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * The file's identity as the system keeps it (device, inode, size, change and modification
 * times to the nanosecond), or null when it cannot be read (the loader then says why).
 */
function fileStamp(path: string): string | null {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return null;
  }
}

/**
 * `loader` run once per version of a file (a flag file: a trust store, a policy, a
 * registry): callers of one path share one promise while the file is unchanged. Each call
 * looks at the file again (one stat), so a process that lives long (the workbench's engine
 * and its workers) judges against the file as it is now: a key revoked, a store emptied or
 * deleted, a model removed from a registry is seen by the next job, never hidden by the
 * first read. A failure is forgotten, so the next call reads the file again.
 */
export function memoFile<T>(loader: (path: string) => Promise<T>): (path: string) => Promise<T> {
  const cache = new Map<string, { stamp: string; p: Promise<T> }>();
  return (path) => {
    const stamp = fileStamp(path);
    const hit = cache.get(path);
    if (hit && stamp !== null && hit.stamp === stamp) return hit.p;
    cache.delete(path);
    const p = loader(path);
    if (stamp === null) return p;
    const entry = { stamp, p };
    cache.set(path, entry);
    p.catch(() => {
      if (cache.get(path) === entry) cache.delete(path);
    });
    return p;
  };
}

/**
 * Closed-format checks shared by every reader of JSON documents: the plain-object test,
 * RFC 6901 pointers, and the other small helpers each format would otherwise write again.
 */

// One RFC 6901 reference token (shared/json-pointer.ts, which the window uses too).
export { escapePointerToken } from '../../shared/json-pointer.js';

// The plain-object test (shared/plain-object.ts, which the window's readers use too).
export { isPlainObject } from '../../shared/plain-object.js';

/**
 * `loader` run once per path per process (a flag file: a trust store, a policy, a
 * registry): callers of one path share one promise. A failure is forgotten, so the next
 * call reads the file again (the user may have fixed it meanwhile, in the workbench).
 */
export function memoFile<T>(loader: (path: string) => Promise<T>): (path: string) => Promise<T> {
  const cache = new Map<string, Promise<T>>();
  return (path) => {
    let p = cache.get(path);
    if (!p) {
      p = loader(path);
      cache.set(path, p);
      p.catch(() => cache.delete(path));
    }
    return p;
  };
}

/** RFC 6901 JSON pointers: the one escaping of a reference token, for the engine and the window. */

/** One RFC 6901 reference token: `~` as `~0`, `/` as `~1`. */
export function escapePointerToken(token: string): string {
  if (token.indexOf('~') === -1 && token.indexOf('/') === -1) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

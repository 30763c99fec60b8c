/**
 * Closed-format checks shared by every reader of JSON documents: the plain-object test,
 * RFC 6901 pointers, and the other small helpers each format would otherwise write again.
 */

/** One RFC 6901 reference token: `~` as `~0`, `/` as `~1`. */
export function escapePointerToken(token: string): string {
  if (token.indexOf('~') === -1 && token.indexOf('/') === -1) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A JSON object: not null, not an array (what JSON.parse gives for `{…}`). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The one plain-object test (re-exported by app/core/closed.ts for the engine). Pure; imports nothing. */

/** A JSON object: not null, not an array (what JSON.parse gives for `{…}`). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

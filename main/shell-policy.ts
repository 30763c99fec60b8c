/**
 * The Electron shell's pure decisions, kept free of Electron so they can be unit-tested:
 * which frame URLs are our own page (IPC is answered only for them), and what an
 * `app://reprise/...` request is answered with (static-files.ts: decoded inside a guard,
 * confined by real path, with nosniff and the CSP).
 */
import { readFile } from 'node:fs/promises';
import { resolveStatic, securityHeaders } from './static-files.js';

export const APP_SCHEME = 'app';
export const APP_HOST = 'reprise';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * True for a URL of our own page. `URL.origin` is "null" for a non-special scheme such as
 * app:, so the check compares the parsed parts instead: scheme, host, and no user, password
 * or port smuggled in.
 */
export function isAppUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return (
    u.protocol === `${APP_SCHEME}:` &&
    u.hostname === APP_HOST &&
    u.port === '' &&
    u.username === '' &&
    u.password === ''
  );
}

/** The answer to an app:// request: status, headers, and the body when there is one. */
export async function appResponse(
  rendererRootReal: string,
  requestUrl: string,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer | null }> {
  // The IPC transport needs no connect-src beyond 'self'.
  const headers = securityHeaders(null);
  if (!isAppUrl(requestUrl)) return { status: 403, headers, body: null };
  const target = await resolveStatic(rendererRootReal, new URL(requestUrl).pathname);
  if (!target.ok) return { status: target.status, headers, body: null };
  // A bundled renderer file (resolveStatic keeps the real path under the renderer's root), not a user's path.
  const body = await readFile(target.file).catch(() => null);
  if (!body) return { status: 404, headers, body: null };
  return { status: 200, headers: { ...headers, 'Content-Type': target.contentType }, body };
}

/**
 * The Electron shell's pure decisions, kept free of Electron so they can be unit-tested:
 * which frame URLs are our own page (IPC is answered only for them), what an
 * `app://reprise/...` request is answered with (static-files.ts: decoded inside a guard,
 * confined by real path, with nosniff and the CSP), which permission the page is given, and
 * what a native open dialog says.
 */
import { readFile } from 'node:fs/promises';
import type { OpenDialogOptions } from 'electron';
import type { PickRequest } from '../shared/api.js';
import { pickPurpose } from './host/engine-remote.js';
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

/**
 * Whether the page is given a permission it asks for (a request or a check): only writing
 * text to the clipboard (its Copy buttons, `navigator.clipboard.writeText`), and only for our
 * own page's main frame. Reading the clipboard, and everything else, is refused.
 */
export function permissionAllowed(
  permission: string,
  requestingUrl: string | undefined,
  isMainFrame: boolean,
): boolean {
  return permission === 'clipboard-sanitized-write' && isMainFrame && !!requestingUrl && isAppUrl(requestingUrl);
}

/**
 * What the native open dialog says, chosen here from what the pick will be granted as
 * (pickPurpose, the grant's own rule): the page names the title of a dialog that only lets
 * something be read, never of one whose file the engine will run or sign with, which could
 * otherwise be titled "Open an artifact". `message` shows on macOS, the button everywhere.
 */
export function dialogOptions(req: PickRequest): OpenDialogOptions {
  const purpose = pickPurpose(req);
  const properties: OpenDialogOptions['properties'] = [purpose === 'folder' ? 'openDirectory' : 'openFile'];
  if (purpose === 'adapter')
    return {
      title: 'Allow a kernel adapter to run',
      message: 'Reprise will RUN the file you choose as code (a kernel adapter). Choose only code you trust.',
      buttonLabel: 'Allow to Run',
      properties,
    };
  if (purpose === 'key')
    return {
      title: 'Choose a private key to sign with',
      message: 'Reprise will use the private key you choose to SIGN in your name.',
      buttonLabel: 'Use to Sign',
      properties,
    };
  const message =
    purpose === 'folder'
      ? 'Reprise will be able to read the folder you choose and everything in it.'
      : 'Reprise will be able to read the file you choose and the other files in its folder.';
  return { title: typeof req.title === 'string' ? req.title.slice(0, 200) : 'Open', message, properties };
}

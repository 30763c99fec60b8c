/**
 * The renderer's static files and their security headers, for both shells: the web host
 * (`http://127.0.0.1:PORT`) and Electron's `app://reprise` handler share the one path
 * resolution and the one CSP, so a fix to either reaches both.
 *
 * Confinement uses the real path: a URL path is decoded (malformed escapes are a 400),
 * resolved under the root, and then the file's realpath must still lie under the root's
 * realpath, so a symlink inside the build cannot serve a file outside it.
 */
import { realpath, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { isWithin } from './host/path-gate.js';

export const MIME: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ttf': 'font/ttf',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/**
 * The CSP. `connect` is the one extra connect-src source: the web host's own WebSocket
 * origin with its exact port (`ws://127.0.0.1:PORT`), or nothing (Electron talks over IPC),
 * so a page can never reach another loopback service.
 */
export function contentSecurityPolicy(connect: string | null): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    connect ? `connect-src 'self' ${connect}` : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** Headers on every static response, error or not. */
export function securityHeaders(connect: string | null): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(connect),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

export type StaticTarget = { ok: true; file: string; contentType: string } | { ok: false; status: 400 | 403 | 404 };

/**
 * Maps a request's (still encoded) URL pathname to a regular file under `root`.
 * `root` must already be a real path (resolve it once with `realpath`).
 */
export async function resolveStatic(root: string, encodedPathname: string): Promise<StaticTarget> {
  let pathname: string;
  try {
    pathname = decodeURIComponent(encodedPathname);
  } catch {
    return { ok: false, status: 400 };
  }
  if (pathname.includes('\0')) return { ok: false, status: 400 };
  if (pathname === '/' || pathname === '') pathname = '/index.html';
  const file = resolve(root, '.' + pathname);
  if (file === root || !isWithin(root, file)) return { ok: false, status: 403 };
  let real: string;
  try {
    real = await realpath(file);
    if (!(await stat(real)).isFile()) return { ok: false, status: 404 };
  } catch {
    return { ok: false, status: 404 };
  }
  if (!isWithin(root, real)) return { ok: false, status: 403 };
  return { ok: true, file: real, contentType: MIME[extname(real).toLowerCase()] ?? 'application/octet-stream' };
}

/**
 * The life of an engine's process, the web host's (webhost/engine-child.ts) and Electron's
 * (engine-process.ts) alike: every temporary folder the engine makes (a case sent from the
 * window, with a copy of each file sent; the training officer's private key, trust store and
 * journals; the built-in examples; an attestation's bytes) lies inside one folder of the
 * process's own, `reprise-engine-<pid>-XXXXXX`, named as the temporary directory here, which
 * every worker thread and process the engine starts copies. Closing removes it whole: asked
 * by the shell (engine-remote.ts, stopChild), or on a signal. A process that dies without
 * closing (a V8 fatal error, SIGKILL) leaves it; the shell that saw it end removes it
 * (engine-remote.ts, sweep).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE_TEMP_PREFIX } from './engine-temp.js';

/**
 * How long closing may take (the workers stopped, the folders removed) before the folder is
 * removed at once and the process ends: within the time the shell waits (engine-remote.ts).
 */
const CLOSE_BOUND_MS = 4000;

/** Makes this process's temporary folder and names it the temporary directory of all the engine starts. */
export function ownTempFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), `${ENGINE_TEMP_PREFIX}${process.pid}-`));
  // os.tmpdir() reads TMPDIR on Linux and macOS, TEMP and TMP on Windows.
  for (const name of ['TMPDIR', 'TMP', 'TEMP']) process.env[name] = dir;
  return dir;
}

/**
 * `close` (asked again, it goes on): closes the host (its jobs and workers stopped, its case
 * folders removed), then the folder, then ends the process; `signal`: the same, or, when
 * closing already (a second Ctrl-C), the folder at once, whatever still runs, and the process.
 */
export function engineCloser(host: { close(): Promise<void> }, own: string): { close(): void; signal(): void } {
  let closing = false;
  const endNow = (): void => {
    try {
      rmSync(own, { recursive: true, force: true });
    } finally {
      process.exit(0);
    }
  };
  const close = (): void => {
    if (closing) return;
    closing = true;
    setTimeout(endNow, CLOSE_BOUND_MS);
    void host
      .close()
      .catch(() => undefined)
      .then(() => rm(own, { recursive: true, force: true }))
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  return { close, signal: () => (closing ? endNow() : close()) };
}

/**
 * Where a worker thread's script is. In the tsc build (dist/, the CLI and the web host) it
 * sits next to the module that starts it; in the Electron bundle (out/main/) shared code is
 * in chunks/ and the worker entries one level up. Callers fall back to working on their own
 * thread when the script cannot start, so a missing one costs speed, never a result.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function workerScript(name: string, base: string): URL {
  const here = new URL(`./${name}`, base);
  if (existsSync(fileURLToPath(here))) return here;
  const up = new URL(`../${name}`, base);
  return existsSync(fileURLToPath(up)) ? up : here;
}

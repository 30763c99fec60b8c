/**
 * What the tests of writes that cannot finish need: a small real filesystem to fill (a
 * tmpfs, which only root may mount) and a file-size limit (`prlimit --fsize`).
 */
import { execFileSync } from 'node:child_process';

/** Mounting a tmpfs needs root: the full-disk tests are skipped otherwise, and say so in their name. */
export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Whether util-linux's prlimit is there, to run a command under a file-size limit. */
export const hasPrlimit = (() => {
  try {
    execFileSync('prlimit', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Mounts a tmpfs of `size` (mount's notation: `64k`, `1m`) on `dir`; false when it cannot. */
export function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A writer that loses the race for a lock just as its holder releases it: with `race.on`,
 * reading a lock file's holder first removes the lock, as the finishing holder would. For
 * `vi.mock('…/app/core/files.js', async (o) => (await import('…/lock-race.js')).racingFiles(await o(), isLock))`.
 */
import { unlink } from 'node:fs/promises';

export const race = { on: false };

export function racingFiles<T extends { readRegularText(path: string, max?: number): Promise<string> }>(
  real: T,
  isLock: (path: string) => boolean,
): T {
  return {
    ...real,
    async readRegularText(path: string, max?: number): Promise<string> {
      if (race.on && isLock(path)) await unlink(path);
      return real.readRegularText(path, max);
    },
  };
}

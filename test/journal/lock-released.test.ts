/**
 * Two writers racing: the second one's link() fails on the first one's lock, which the first
 * releases before the second reads who held it. The second is told so in words, never
 * "locked by another writer (pid ? on ? since ?)" (found by a red team of concurrent writers).
 * The race is made certain: reading the lock's holder first releases the lock, as its holder would.
 */
import { unlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acquireLock } from '../../app/journal/index.js';
import { LOCK_FILE } from '../../app/journal/format.js';
import { tmp } from './helpers.js';

const race = { on: false };

vi.mock('../../app/core/files.js', async (original) => {
  const real = await original<typeof import('../../app/core/files.js')>();
  return {
    ...real,
    async readRegularText(path: string, max?: number): Promise<string> {
      // The holder finishes just as the loser goes to read its lock.
      if (race.on && basename(path) === LOCK_FILE) await unlink(path);
      return real.readRegularText(path, max);
    },
  };
});

describe('a lock released before its holder could be read', () => {
  afterEach(() => void (race.on = false));

  it('is LOCKED, said plainly: released meanwhile, nothing written, try again', async () => {
    const dir = tmp('reprise-lock-released-');
    const first = await acquireLock(dir);
    race.on = true;
    const lost = acquireLock(dir);
    await expect(lost).rejects.toMatchObject({
      code: 'LOCKED',
      message: `journal ${dir} was locked by another writer, which released the lock before its holder could be read; nothing was written, try again`,
    });
    await expect(lost).rejects.not.toThrow(/\?/);
    await first.release();
    // Trying again takes it.
    const again = await acquireLock(dir);
    await again.release();
  });

  it('a holder that is read is still named', async () => {
    const dir = tmp('reprise-lock-held-');
    const first = await acquireLock(dir);
    await expect(acquireLock(dir)).rejects.toThrow(
      new RegExp(
        `^journal ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is locked by another writer \\(pid ${process.pid} on `,
      ),
    );
    await first.release();
  });
});

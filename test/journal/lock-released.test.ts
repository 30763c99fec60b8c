/**
 * Two writers racing: the second one's link() fails on the first one's lock, which the first
 * releases before the second reads who held it. The second is told so in words, never
 * "locked by another writer (pid ? on ? since ?)" (found by a red team of concurrent writers).
 * The race is made certain: reading the lock's holder first releases the lock, as its holder would.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acquireLock } from '../../app/journal/index.js';
import { LOCK_FILE } from '../../app/journal/format.js';
import { race } from '../helpers/lock-race.js';
import { tmp } from './helpers.js';

vi.mock('../../app/core/files.js', async (original) =>
  (await import('../helpers/lock-race.js')).racingFiles(
    await original<typeof import('../../app/core/files.js')>(),
    (path) => path.endsWith(`/${LOCK_FILE}`),
  ),
);

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

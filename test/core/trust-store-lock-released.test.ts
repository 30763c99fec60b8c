/**
 * A trust store's writer that gave up waiting just as the other writer released the lock, so
 * that its holder could no longer be read: told so in words, never "locked by another writer
 * (pid ? on ? since ?)" (found by a red team of concurrent writers). The race is made certain:
 * reading the lock's holder first releases the lock, as its holder would.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { updateTrustStore } from '../../app/core/keys.js';
import { takeLock } from '../../app/core/lock.js';
import { race } from '../helpers/lock-race.js';
import { tmp } from '../journal/helpers.js';

vi.mock('../../app/core/files.js', async (original) =>
  (await import('../helpers/lock-race.js')).racingFiles(
    await original<typeof import('../../app/core/files.js')>(),
    (path) => path.endsWith('.lock'),
  ),
);

describe("a trust store's lock released before its holder could be read", () => {
  afterEach(() => void (race.on = false));

  it('is refused, said plainly: released meanwhile, nothing written, try again', async () => {
    const store = join(tmp('reprise-store-lock-released-'), 'trust.json');
    const doc = '{"type":"reprise.trust-store/v1","keys":[]}\n';
    writeFileSync(store, doc);
    const held = await takeLock(`${store}.lock`);
    race.on = true;
    const edit = vi.fn(() => null);
    const lost = updateTrustStore(store, edit as never, 0);
    await expect(lost).rejects.toThrow(
      `trust store ${store} was locked by another writer, which released the lock before its holder could be read; nothing was written, try again`,
    );
    await expect(lost).rejects.not.toThrow(/\?/);
    expect(edit).not.toHaveBeenCalled();
    await held.release().catch(() => undefined);
  });
});

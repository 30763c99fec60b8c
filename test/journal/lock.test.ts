/** The single-writer lock under contention from one process (worker threads share a pid). */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock } from '../../app/journal/index.js';
import { JournalError } from '../../app/journal/errors.js';

describe('journal lock', () => {
  it('many attempts at once: exactly one holds it, every other is told LOCKED (never an I/O error)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reprise-lock-'));
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => acquireLock(dir)));
    const held = results.filter((r) => r.status === 'fulfilled');
    expect(held).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') {
        expect(r.reason).toBeInstanceOf(JournalError);
        expect((r.reason as JournalError).code).toBe('LOCKED');
      }
    }
    await (held[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireLock>>>).value.release();
    const again = await acquireLock(dir);
    await again.release();
  });
});

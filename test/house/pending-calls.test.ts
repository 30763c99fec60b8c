/**
 * One promise-per-id client (shared/pending-calls.ts) for every message link: the window's
 * socket worker, the shell's link to the engine's process, the host's journal worker. The
 * second test keeps it one: no other module keeps its own map of resolve/reject by id.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PendingCalls } from '../../shared/pending-calls.js';
import { sources } from '../helpers/sources.js';

const ROOT = join(__dirname, '../..');

describe('pending calls', () => {
  it('settles each call by its id, ignores answers for none, fails all that wait', async () => {
    const calls = new PendingCalls<string>();
    const a = calls.open();
    const b = calls.open();
    const c = calls.open();
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
    expect(calls.settle(b.id, { ok: true, value: 'B' })).toBe(true);
    expect(calls.settle(b.id, { ok: true, value: 'again' })).toBe(false);
    expect(calls.settle(999, { ok: true, value: 'forged' })).toBe(false);
    expect(calls.settle(a.id, { ok: false, error: new Error('refused') })).toBe(true);
    expect(calls.size).toBe(1);
    calls.failAll(() => new Error('the other side stopped'));
    expect(calls.size).toBe(0);
    await expect(b.answer).resolves.toBe('B');
    await expect(a.answer).rejects.toThrow('refused');
    await expect(c.answer).rejects.toThrow('the other side stopped');
  });

  it('no other module keeps its own calls by id', () => {
    const own = /new Map<number, \{[^}]*\breject\b/;
    const found = ['shared', 'app', 'main', 'renderer/src']
      .flatMap((r) => sources(join(ROOT, r)))
      .filter((f) => own.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(found).toEqual(['shared/pending-calls.ts']);
  });
});

/** `journal unlock` says "not locked" of a folder only: a typo or a file is an error, never an all-clear. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliIn } from '../cli/in-process.js';
import { tmp } from './helpers.js';

describe('journal unlock on a path that is not a folder', () => {
  it('a missing folder is exit 3 with its name, with or without --force', async () => {
    const base = tmp();
    for (const force of [[], ['--force']]) {
      const r = await cliIn(base, 'journal', 'unlock', join(base, 'nodir'), ...force);
      expect(r.code).toBe(3);
      expect(r.out).toBe('');
      expect(r.err).toContain(`no such file or directory: ${join(base, 'nodir')}`);
    }
  });

  it('a regular file is exit 3 and said to be a file', async () => {
    const base = tmp();
    writeFileSync(join(base, 'f'), 'x');
    const r = await cliIn(base, 'journal', 'unlock', join(base, 'f'), '--force');
    expect(r.code).toBe(3);
    expect(r.err).toContain('a regular file, not a folder');
  });

  it('a folder without a lock is still "not locked", exit 0', async () => {
    const base = tmp();
    mkdirSync(join(base, 'j'));
    const r = await cliIn(base, 'journal', 'unlock', join(base, 'j'));
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe(`${join(base, 'j')} is not locked\n`);
  });
});

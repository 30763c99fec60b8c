/**
 * How a path that cannot be read is said: `lint` on a FIFO said "cannot read f: error", and
 * `verify ""` named nothing at all (found by a red team). Each now says what the path is.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tmp } from '../journal/helpers.js';
import { cliIn } from './in-process.js';

let dir = '';
beforeAll(() => {
  dir = tmp('reprise-path-words-');
});

describe('a path that cannot be read, in words', () => {
  it('lint on a FIFO: what it is, exit 3, never blocking on it', async () => {
    const fifo = join(dir, 'spec.md');
    execFileSync('mkfifo', [fifo]);
    const r = await cliIn(dir, 'lint', fifo);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(new RegExp(`^reprise: cannot read ${fifo}: .*FIFO`));
    expect(r.err).not.toContain(': error');
  });

  it('verify "": the path given is empty', async () => {
    const r = await cliIn(dir, 'verify', '');
    expect(r).toMatchObject({ code: 3, err: 'reprise: no such file or directory: "" (the path given is empty)\n' });
  });
});

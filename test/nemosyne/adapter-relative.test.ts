/**
 * A kernel adapter given as a relative path is the file under the working folder, as its
 * option digest (and a module adapter) reads it: never a program of that name found on
 * PATH, which would run something other than what the run statement names.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAdapter } from '../../app/kinds/nemosyne/kernel-adapter.js';
import { tmp } from '../journal/helpers.js';

const home = process.cwd();
const path = process.env['PATH'];
afterEach(() => {
  process.chdir(home);
  process.env['PATH'] = path;
});

/** A script that leaves `mark` in `dir` and answers nothing a kernel would. */
function script(dir: string, mark: string): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'adapter.sh');
  writeFileSync(file, `#!/bin/sh\ntouch '${join(dir, mark)}'\necho '{}'\n`);
  chmodSync(file, 0o755);
}

const request = { formatVersion: 2, kernelVersion: 'k', manifest: {}, packagePath: '/nowhere.nemosyne', entries: {} };

describe('a relative kernel adapter', () => {
  it('runs the file under the working folder, not one of that name on PATH', async () => {
    const base = tmp('adapter-rel-');
    script(join(base, 'work'), 'ran-here');
    script(join(base, 'bin'), 'ran-from-path');
    process.env['PATH'] = `${join(base, 'bin')}:${path ?? ''}`;
    process.chdir(join(base, 'work'));
    await expect(runAdapter('adapter.sh', request as never)).rejects.toThrow();
    expect(existsSync(join(base, 'work', 'ran-here'))).toBe(true);
    expect(existsSync(join(base, 'bin', 'ran-from-path'))).toBe(false);
  });

  it('is refused when no such file is under the working folder, though PATH has one', async () => {
    const base = tmp('adapter-rel-');
    mkdirSync(join(base, 'work'));
    script(join(base, 'bin'), 'ran-from-path');
    process.env['PATH'] = `${join(base, 'bin')}:${path ?? ''}`;
    process.chdir(join(base, 'work'));
    await expect(runAdapter('adapter.sh', request as never)).rejects.toThrow(/adapter\.sh/);
    expect(existsSync(join(base, 'bin', 'ran-from-path'))).toBe(false);
  });
});

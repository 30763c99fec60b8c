/**
 * `reprise examples DIR` writes only inside DIR: a folder inside it that is a symbolic link
 * (DIR/tg -> elsewhere) is refused (exit 3) before anything is written, as a link at a
 * file's own path is, and nothing lands where the link leads.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliIn } from '../cli/in-process.js';
import { tmp } from '../journal/helpers.js';

describe('examples never write through a linked folder', () => {
  it('DIR/tg linked elsewhere: exit 3 naming it, nothing written there or in DIR', async () => {
    const work = tmp('reprise-examples-link-');
    const dir = join(work, 'ex');
    const outside = join(work, 'outside');
    mkdirSync(dir);
    mkdirSync(outside);
    symlinkSync(outside, join(dir, 'tg'));
    const r = await cliIn(work, 'examples', dir);
    expect(r.code).toBe(3);
    expect(r.err).toContain(`${join(dir, 'tg')} is a symbolic link`);
    expect(readdirSync(outside)).toEqual([]);
    expect(readdirSync(dir)).toEqual(['tg']);
  });

  it('a linked folder deeper down is refused too; a real folder of the same name is written', async () => {
    const work = tmp('reprise-examples-link-');
    const dir = join(work, 'ex');
    const outside = join(work, 'outside');
    mkdirSync(join(dir, 'tg'), { recursive: true });
    mkdirSync(outside);
    symlinkSync(outside, join(dir, 'tg', 'exact-intact'));
    expect((await cliIn(work, 'examples', dir)).code).toBe(3);
    expect(readdirSync(outside)).toEqual([]);
    const clean = join(work, 'clean');
    mkdirSync(join(clean, 'tg'), { recursive: true });
    expect((await cliIn(work, 'examples', clean)).code).toBe(0);
    expect(existsSync(join(clean, 'tg', 'exact-intact', 'manifest.json'))).toBe(true);
  });
});

/**
 * app/engine/paths.ts walks a batch without importing the artifact kinds, so it has its own
 * test for "this directory is an artifact": it must agree with every directory kind's
 * detectDir (app/kinds/registry.ts), and run.ts must still export the same expandPaths.
 */
import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { childPrefix, expandPaths, isDirectoryArtifact } from '../../app/engine/paths.js';
import * as run from '../../app/engine/run.js';
import { DIRECTORY_KINDS } from '../../app/kinds/registry.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reprise-paths-'));
});

describe('expandPaths (app/engine/paths.ts)', () => {
  it('imports no artifact kind', async () => {
    const src = await readFile(new URL('../../app/engine/paths.ts', import.meta.url), 'utf8');
    const imports = [...src.matchAll(/^import\s[^;]*?from\s+'([^']+)'/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((i) => /kinds|engine\/run|\.\/run\.js/.test(i!))).toEqual([]);
  });

  it('builds child paths exactly as path.join does', () => {
    for (const d of [
      '.',
      './',
      '',
      'a',
      'a/',
      './a',
      'a/./b',
      'a/../b',
      'a//b/',
      '../x',
      '/',
      '/tmp',
      '/tmp/',
      '//x',
      'a/b/..',
      '..',
      '...',
    ]) {
      for (const name of ['f.json', 'x', '.hidden', '...', 'é'])
        expect(childPrefix(d) + name, `${d} + ${name}`).toBe(posix.join(d, name));
    }
  });

  it('is what app/engine/run.ts exports', () => {
    expect(run.expandPaths).toBe(expandPaths);
  });

  it('agrees with every directory kind on which directories are artifacts', async () => {
    expect(DIRECTORY_KINDS.map((k) => k.kind)).toEqual(['journal']); // a new directory kind needs a test in isDirectoryArtifact
    const cases: Record<string, string> = {
      journal: join(dir, 'journal'),
      'entries.jsonl is a directory': join(dir, 'not-a-journal'),
      empty: join(dir, 'empty'),
      'a file': join(dir, 'file.json'),
      missing: join(dir, 'missing'),
    };
    await mkdir(cases['journal']!, { recursive: true });
    await writeFile(join(cases['journal']!, 'entries.jsonl'), '');
    await mkdir(join(cases['entries.jsonl is a directory']!, 'entries.jsonl'), { recursive: true });
    await mkdir(cases['empty']!, { recursive: true });
    await writeFile(cases['a file']!, '{}');
    for (const [what, p] of Object.entries(cases)) {
      const mine = await isDirectoryArtifact(p);
      expect(mine, what).toBe(what === 'journal');
      for (const k of DIRECTORY_KINDS) expect(await k.detectDir(p), `${k.kind}: ${what}`).toBe(mine);
    }
  });

  it('lists a journal as one artifact and what else it holds, walks the rest in code-unit order, follows links, and cuts loops', async () => {
    const root = join(dir, 'walk');
    await mkdir(join(root, 'j'), { recursive: true });
    await writeFile(join(root, 'j', 'entries.jsonl'), '');
    await writeFile(join(root, 'j', 'inside.json'), '{}');
    await mkdir(join(root, 'sub'), { recursive: true });
    await writeFile(join(root, 'sub', 'b.json'), '{}');
    await writeFile(join(root, 'B.json'), '{}');
    await writeFile(join(root, 'a.json'), '{}');
    await symlink(join(root, 'a.json'), join(root, 'link.json'));
    await symlink(root, join(root, 'sub', 'loop'));
    expect(await expandPaths([root])).toEqual(
      ['B.json', 'a.json', 'j', 'j/inside.json', 'link.json', 'sub/b.json'].map((p) => join(root, p)),
    );
  });

  it('refuses a missing path with a one-line usage error', async () => {
    await expect(expandPaths([join(dir, 'nope')])).rejects.toThrow(run.UsageError);
    await expect(expandPaths([join(dir, 'nope')])).rejects.toThrow(/^no such file or directory: .*nope$/);
  });
});

/**
 * Adding a kind is its folder and its line in the registry. In a temporary copy of the tree
 * (the rooms the kind reaches, the configs, the kind-generic tests; node_modules linked),
 * the fixture kind (fixtures/new-kind/, stored as *.fixture so this tree does not compile it)
 * becomes app/kinds/fixture-note/ and the registry gets its import and its list entry; the
 * lists of kinds outside app/ are regenerated (test/kinds/generated.test.ts with
 * UPDATE_KINDS=1). Then the type-check, the lint of what changed and the kind-generic tests
 * pass there, and no other file of the copy differs from this tree.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const COPIED = [
  'app',
  'shared',
  'main',
  'bin',
  'docs/report.schema.json',
  'test/helpers',
  'test/setup',
  'test/kinds',
  'test/core/report-schema.test.ts',
  'package.json',
  'tsconfig.base.json',
  'tsconfig.node.json',
  'eslint.config.js',
  'vitest.config.ts',
];
const KIND_TESTS = [
  'test/kinds/generated.test.ts',
  'test/core/report-schema.test.ts',
  'test/kinds/plugin-kind.test.ts',
  'test/kinds/sniff.test.ts',
];
const FIXTURE = join(ROOT, 'test/kinds/fixtures/new-kind');

/** CPU seconds of this process's waited-for children (cutime + cstime in /proc/self/stat). */
function childCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

function digests(dir: string, base = dir, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(p).isDirectory()) digests(p, base, out);
    else out.set(relative(base, p), createHash('sha256').update(readFileSync(p)).digest('hex'));
  }
  return out;
}

function run(cwd: string, args: string[], env: Record<string, string> = {}): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, args, {
    cwd,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
}
const bin = (name: string): string => join(ROOT, 'node_modules', name);

/** The kind's folder and its registry line: the import after the last kind's, the handler last in the file kinds' list. */
function addKind(tree: string): void {
  const folder = join(tree, 'app/kinds/fixture-note');
  mkdirSync(folder);
  for (const f of readdirSync(FIXTURE)) cpSync(join(FIXTURE, f), join(folder, f.replace(/\.fixture$/, '')));
  const registry = join(tree, 'app/kinds/registry.ts');
  const text = readFileSync(registry, 'utf8');
  const lastImport = [...text.matchAll(/^import .* from '\.\/[^']+\/declare\.js';$/gm)].at(-1)!;
  const at = lastImport.index + lastImport[0].length;
  const added =
    `${text.slice(0, at)}\nimport { fixtureNoteKind } from './fixture-note/declare.js';${text.slice(at)}`.replace(
      /(export const FILE_KIND_LIST = \[[^\]]*?),?\s*\]/,
      '$1,\n  fixtureNoteKind,\n]',
    );
  expect(added).toContain('  fixtureNoteKind,\n] as const');
  writeFileSync(registry, added);
}

const tree = mkdtempSync(join(tmpdir(), 'reprise-new-kind-'));
afterAll(() => rmSync(tree, { recursive: true, force: true }));

describe('a new kind is its folder and its registry line', () => {
  it('type-checks, lints and passes the kind-generic tests in a copy of the tree, nothing else edited', () => {
    const cpu0 = childCpuSeconds();
    for (const p of COPIED) cpSync(join(ROOT, p), join(tree, p), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
    const before = digests(tree);
    addKind(tree);

    const generated = run(tree, [bin('vitest/vitest.mjs'), 'run', 'test/kinds/generated.test.ts'], {
      UPDATE_KINDS: '1',
    });
    expect(generated.status, generated.out).toBe(0);
    const tsc = run(tree, [bin('typescript/bin/tsc'), '-p', 'tsconfig.node.json', '--noEmit']);
    expect(tsc.status, tsc.out).toBe(0);
    const lint = run(tree, [bin('eslint/bin/eslint.js'), 'app/kinds/fixture-note', 'app/kinds/registry.ts', 'shared']);
    expect(lint.status, lint.out).toBe(0);
    const tests = run(tree, [bin('vitest/vitest.mjs'), 'run', ...KIND_TESTS]);
    expect(tests.status, tests.out).toBe(0);
    expect(tests.out).toMatch(/Test Files +4 passed/);

    // Besides the new folder, the registry and the two generated lists are all that changed.
    const after = digests(tree);
    const changed = [...after]
      .filter(([p, d]) => before.get(p) !== d)
      .map(([p]) => p)
      .filter((p) => !p.startsWith('app/kinds/fixture-note/'));
    expect(changed.sort()).toEqual(['app/kinds/registry.ts', 'docs/report.schema.json', 'shared/kinds.ts']);
    expect([...before.keys()].filter((p) => !after.has(p))).toEqual([]);
    expect(readFileSync(join(tree, 'shared/kinds.ts'), 'utf8')).toContain("'fixture-note'");
    // Generating, type-checking, linting and testing a small tree: bounded in CPU, not in time.
    expect(childCpuSeconds() - cpu0).toBeLessThan(240);
  }, 900_000);
});

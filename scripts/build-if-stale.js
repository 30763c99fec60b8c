#!/usr/bin/env node
// `npm start` builds only when the build is not current: a full build (the CLI and the
// Electron/renderer bundles) takes about two minutes here, and starting the workbench again
// after changing nothing should not. "Current" means the build finished after the inputs it
// was made from were last changed: a stamp written after a successful build records a digest
// of every input's path, size and modification time; any change to a source, a config or the
// lock file changes it. A missing output counts as stale too.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const INPUT_DIRS = ['app', 'main', 'renderer', 'shared'];
const INPUT_FILES = [
  'package.json',
  'package-lock.json',
  'electron.vite.config.ts',
  'tsconfig.base.json',
  'tsconfig.json',
  'tsconfig.cli.json',
  'tsconfig.node.json',
  'tsconfig.web.json',
];
const OUTPUTS = ['dist/app/cli/main.js', 'out/main/index.js'];
const STAMP = join(root, 'out', '.build-inputs');

function* files(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (e.isFile()) yield p;
  }
}

function inputsDigest() {
  const h = createHash('sha256');
  const all = [
    ...INPUT_DIRS.filter((d) => existsSync(join(root, d))).flatMap((d) => [...files(join(root, d))]),
    ...INPUT_FILES.map((f) => join(root, f)).filter(existsSync),
  ];
  for (const p of all.sort()) {
    const st = statSync(p);
    h.update(`${relative(root, p)}\0${st.size}\0${st.mtimeMs}\n`);
  }
  return h.digest('hex');
}

const digest = inputsDigest();
const current =
  OUTPUTS.every((o) => existsSync(join(root, o))) && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === digest;
if (current) {
  process.stderr.write('the build is current (no source changed since it was made): starting without building\n');
} else {
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  writeFileSync(STAMP, digest + '\n');
}

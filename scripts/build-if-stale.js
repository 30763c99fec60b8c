#!/usr/bin/env node
// `npm start` builds only when the build is not current: a full build (the CLI and the
// Electron/renderer bundles) takes about two minutes here, and starting the workbench again
// after changing nothing should not.
//
// "Current" means a build finished after the inputs it was made from were last changed, and
// everything it wrote is still there. `npm run build` itself (whoever runs it: `npm start`,
// `npm test`, a person) records that: `--begin` (before it compiles anything) removes the
// stamp and notes a digest of every input's path, size and modification time; `--end`
// (after both builds succeeded) writes the stamp out/.build-inputs holding that digest and
// every output file with its size. A build that fails leaves no stamp; a source changed
// while a build ran no longer matches the digest noted before it. `npm start` (no argument)
// then builds only when the digest differs, the stamp is missing, or an output the stamp
// lists, or one the start needs, is missing or has another size.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
/** Where the builds write (tsc: dist/, electron-vite: out/). */
const OUTPUT_DIRS = ['dist', 'out'];
/** What the start needs whatever the stamp says: the CLI, the web host and its engine, the Electron main and preload, the UI. */
const REQUIRED = [
  'dist/app/cli/main.js',
  'dist/main/webhost/cli.js',
  'dist/main/webhost/engine-child.js',
  'out/main/index.js',
  'out/preload/index.cjs',
  'out/renderer/index.html',
];
const STAMP = join(root, 'out', '.build-inputs');
/** The digest noted by `--begin`, kept outside out/ (electron-vite empties its output folders). */
const PENDING = join(root, 'dist', '.build-inputs.pending');

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

/** Every file the builds wrote, with its size (the stamp and the pending digest are not outputs). */
function outputs() {
  const out = {};
  for (const d of OUTPUT_DIRS.filter((d) => existsSync(join(root, d))))
    for (const p of files(join(root, d))) out[relative(root, p).split('\\').join('/')] = statSync(p).size;
  return out;
}

function sizeOf(rel) {
  try {
    const st = statSync(join(root, rel));
    return st.isFile() ? st.size : null;
  } catch {
    return null;
  }
}

function readStamp() {
  try {
    const s = JSON.parse(readFileSync(STAMP, 'utf8'));
    return typeof s?.inputs === 'string' && s.outputs && typeof s.outputs === 'object' ? s : null;
  } catch {
    return null;
  }
}

/** Why the build is not current, or null when it is. */
function staleness() {
  const missing = REQUIRED.find((o) => sizeOf(o) === null);
  if (missing) return `${missing} is missing`;
  const stamp = readStamp();
  if (!stamp) return 'no finished build is recorded (out/.build-inputs)';
  if (stamp.inputs !== inputsDigest()) return 'a source, a config or the lock file changed since the last build';
  for (const [o, size] of Object.entries(stamp.outputs)) {
    const now = sizeOf(o);
    if (now === null) return `${o} is missing`;
    if (now !== size) return `${o} is ${now} bytes, not the ${size} the build wrote`;
  }
  return null;
}

const mode = process.argv[2];
if (mode === '--begin') {
  rmSync(STAMP, { force: true });
  mkdirSync(dirname(PENDING), { recursive: true });
  writeFileSync(PENDING, inputsDigest() + '\n');
} else if (mode === '--end') {
  const inputs = existsSync(PENDING) ? readFileSync(PENDING, 'utf8').trim() : null;
  rmSync(PENDING, { force: true });
  // Without the digest noted before the build, what the build was made from is not known: no stamp.
  if (inputs) {
    mkdirSync(dirname(STAMP), { recursive: true });
    writeFileSync(STAMP + '.tmp', JSON.stringify({ inputs, outputs: outputs() }) + '\n');
    renameSync(STAMP + '.tmp', STAMP);
  }
} else if (mode !== undefined) {
  process.stderr.write(`build-if-stale: unknown argument ${mode} (--begin, --end, or none)\n`);
  process.exit(3);
} else {
  const why = staleness();
  if (why === null) {
    process.stderr.write('the build is current (no source changed since it was made): starting without building\n');
  } else {
    process.stderr.write(`building first: ${why}\n`);
    const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
    if (r.status !== 0) process.exit(r.status ?? 1);
    const missing = REQUIRED.find((o) => sizeOf(o) === null);
    if (missing) {
      process.stderr.write(`the build finished without ${missing}\n`);
      process.exit(1);
    }
  }
}

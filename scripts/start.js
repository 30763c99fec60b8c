#!/usr/bin/env node
// `npm start`: launch the desktop workbench; where Electron cannot start (no binary, as
// on machines whose Electron download is blocked, or no display), start `reprise serve`
// instead and print its loopback URL. Never fails just because Electron is missing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function electronBinary() {
  try {
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve('electron/package.json'));
    const rel = readFileSync(join(dir, 'path.txt'), 'utf8').trim();
    const bin = join(process.env.ELECTRON_OVERRIDE_DIST_PATH || join(dir, 'dist'), rel);
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

const hasDisplay = process.platform !== 'linux' || !!(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const bin = electronBinary();
if (bin && hasDisplay && process.env.REPRISE_FORCE_SERVE !== '1') {
  const probe = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 20000 });
  if (probe.status === 0) {
    const child = spawn(bin, [root], { stdio: 'inherit' });
    child.on('exit', (code) => process.exit(code ?? 0));
    process.on('SIGINT', () => child.kill('SIGINT'));
  } else fallback(`Electron at ${bin} did not start`);
} else {
  fallback(!bin ? 'no Electron binary is installed' : !hasDisplay ? 'no display' : 'REPRISE_FORCE_SERVE=1');
}

/**
 * The folder a relative --root, --key or --kernel-adapter means: the one the user ran
 * `npm start` in. npm runs this script in the package root and passes the user's folder as
 * INIT_CWD; resolving against the package root would grant another folder than the one named
 * (`cd docs && npm start -- --root .` granted the whole repository).
 */
function userFolder() {
  const dir = process.env.INIT_CWD;
  if (!dir) return process.cwd(); // run as `node scripts/start.js`: the shell's folder is this process's
  if (!isAbsolute(dir) || !statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    process.stderr.write(
      `reprise: the folder npm start was run in (INIT_CWD=${dir}) is not a directory any more, so a relative --root, --key or --kernel-adapter cannot be resolved; run npm start again from an existing folder\n`,
    );
    process.exit(3);
  }
  return dir;
}

function fallback(why) {
  process.stderr.write(`Electron cannot start here (${why}); serving the same workbench on loopback instead.\n`);
  const child = spawn(process.execPath, [join(root, 'bin', 'reprise.js'), 'serve', ...process.argv.slice(2)], {
    stdio: 'inherit',
    cwd: userFolder(),
  });
  child.on('exit', (code) => process.exit(code ?? 0));
  process.on('SIGINT', () => child.kill('SIGINT'));
  process.on('SIGTERM', () => child.kill('SIGTERM'));
}

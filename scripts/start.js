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

const PLATFORM_EXECUTABLE = {
  linux: 'electron',
  darwin: 'Electron.app/Contents/MacOS/Electron',
  win32: 'electron.exe',
};

function electronBinary() {
  try {
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve('electron/package.json'));
    // path.txt is written by Electron's download; a binary of one's own (ELECTRON_OVERRIDE_DIST_PATH,
    // as Electron's own launcher reads it) has the platform's executable name.
    const pathTxt = join(dir, 'path.txt');
    const rel = existsSync(pathTxt) ? readFileSync(pathTxt, 'utf8').trim() : PLATFORM_EXECUTABLE[process.platform];
    if (!rel) return null;
    const bin = join(process.env.ELECTRON_OVERRIDE_DIST_PATH || join(dir, 'dist'), rel);
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

const hasDisplay = process.platform !== 'linux' || !!(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const bin = electronBinary();
// `npm start -- --root DIR --key FILE`: options of the loopback workbench. The desktop window
// takes none (it grants folders and keys through its own dialogs), so they are never dropped
// in silence there: given any, the loopback workbench is what starts, and it says why.
const served = process.argv.length > 2;
if (served)
  fallback(
    `${process.argv.slice(2, 4).join(' ')}${process.argv.length > 4 ? ' …' : ''} are options of the loopback workbench (the desktop window grants folders and keys through its own dialogs)`,
    'serving the workbench on loopback with them',
  );
else if (bin && hasDisplay && process.env.REPRISE_FORCE_SERVE !== '1') {
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

function fallback(why, what = 'serving the same workbench on loopback instead') {
  const said = what === 'serving the same workbench on loopback instead' ? `Electron cannot start here (${why})` : why;
  process.stderr.write(`${said}; ${what}.\n`);
  const child = spawn(process.execPath, [join(root, 'bin', 'reprise.js'), 'serve', ...process.argv.slice(2)], {
    stdio: 'inherit',
    cwd: userFolder(),
  });
  child.on('exit', (code) => process.exit(code ?? 0));
  process.on('SIGINT', () => child.kill('SIGINT'));
  process.on('SIGTERM', () => child.kill('SIGTERM'));
}

#!/usr/bin/env node
// `npm start`: launch the desktop workbench; where Electron cannot start (no binary, as
// on machines whose Electron download is blocked, or no display), start `reprise serve`
// instead and print its loopback URL. Never fails just because Electron is missing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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

function fallback(why) {
  process.stderr.write(`Electron cannot start here (${why}); serving the same workbench on loopback instead.\n`);
  const child = spawn(process.execPath, [join(root, 'bin', 'reprise.js'), 'serve', ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  child.on('exit', (code) => process.exit(code ?? 0));
  process.on('SIGINT', () => child.kill('SIGINT'));
  process.on('SIGTERM', () => child.kill('SIGTERM'));
}

/**
 * `npm start -- --root DIR --key FILE` (scripts/start.js serving the workbench through
 * `reprise serve`): npm runs the script in the package root and passes the folder the user
 * ran npm in as INIT_CWD; a relative grant means that folder, never the package root (which
 * granted the whole repository for `cd docs && npm start -- --root .`). A refusal names the
 * path as resolved.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const SERVE_BUILT = existsSync(join(ROOT, 'dist', 'main', 'webhost', 'cli.js'));
const UI_BUILT = existsSync(join(ROOT, 'out', 'renderer', 'index.html'));

let user: string;
beforeAll(() => {
  // The user's folder: a 'sub' folder and a key file that the package root does not have.
  user = realpathSync(mkdtempSync(join(tmpdir(), 'reprise-start-')));
  mkdirSync(join(user, 'sub'));
  writeFileSync(join(user, 'officer.pem'), 'not checked before the start\n');
});
afterAll(() => rmSync(user, { recursive: true, force: true }));

/** Runs scripts/start.js as npm does (cwd the package root, INIT_CWD the user's folder) until `until` shows in its output or it exits. */
function start(
  args: string[],
  until?: RegExp,
  env: NodeJS.ProcessEnv = { ...process.env, INIT_CWD: user, REPRISE_FORCE_SERVE: '1' },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.js'), ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const seen = (): void => {
      if (until?.test(stdout)) child.kill('SIGTERM');
    };
    child.stdout.on('data', (d: Buffer) => ((stdout += d.toString('utf8')), seen()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe.skipIf(!SERVE_BUILT)('npm start: a relative --root/--key means the folder npm was run in', () => {
  it('a folder that exists only in the user folder is granted; a missing key is named as resolved there', async () => {
    const r = await start(['--root', 'sub', '--key', 'missing.pem']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`reprise: --key missing.pem: ${join(user, 'missing.pem')} is not a regular file`);
  });

  it('a missing folder is named as resolved in the user folder', async () => {
    const r = await start(['--root', 'nothere']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`reprise: --root nothere: ${join(user, 'nothere')} is not a directory`);
  });

  it.skipIf(!UI_BUILT)('--root . grants the user folder, not the package root', async () => {
    const r = await start(['--root', '.', '--key', 'officer.pem', '--port', '0'], /Reachable by path/);
    expect(r.stdout).toContain(`Reachable by path: files under ${user}.`);
    expect(r.stdout).not.toContain(ROOT.replace(/\/$/, '') + '.');
  });
});

/**
 * Where the desktop window can start (an Electron binary and a display; here a stand-in
 * binary that records being launched), `npm start` with no option opens it, and `npm start --
 * --root DIR --key FILE` serves the loopback workbench with those options and says why: the
 * window takes none, and they were dropped in silence.
 */
describe.skipIf(!SERVE_BUILT || !UI_BUILT || process.platform !== 'linux')('npm start where Electron can start', () => {
  const run = (args: string[], fake: string, until?: RegExp) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      INIT_CWD: user,
      DISPLAY: ':99',
      ELECTRON_OVERRIDE_DIST_PATH: fake,
    };
    delete env['REPRISE_FORCE_SERVE'];
    return start(args, until, env);
  };

  it('opens the window without options, and serves on loopback with --root and --key, saying why', async () => {
    const fake = realpathSync(mkdtempSync(join(tmpdir(), 'reprise-fake-electron-')));
    const launched = join(fake, 'launched');
    writeFileSync(
      join(fake, 'electron'),
      `#!/bin/sh\nif [ "$1" = --version ]; then echo v0; exit 0; fi\necho "$@" > '${launched}'\n`,
      { mode: 0o755 },
    );
    try {
      const window = await run([], fake);
      expect(window.code, window.stderr).toBe(0);
      expect(existsSync(launched)).toBe(true);
      rmSync(launched);
      const served = await run(['--root', '.', '--key', 'officer.pem', '--port', '0'], fake, /Reachable by path/);
      expect(served.stderr).toContain(
        '--root . … are options of the loopback workbench (the desktop window grants folders and keys through its own dialogs); serving the workbench on loopback with them.',
      );
      expect(served.stdout).toContain(`Reachable by path: files under ${user}.`);
      expect(existsSync(launched)).toBe(false);
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });
});

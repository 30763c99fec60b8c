/**
 * `npm start` builds only when the build is not current (scripts/build-if-stale.js). The
 * script runs here in a package of its own, made in a temporary folder: the real script, the
 * real `build` script of package.json, and two stand-in builds that write what the real ones
 * write (dist/ by tsc; out/main, out/preload, out/renderer by electron-vite, which empties
 * each folder first) and count how often they ran.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const FAKE_CLI = `import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
for (const f of ['dist/app/cli/main.js', 'dist/main/webhost/cli.js', 'dist/main/webhost/engine-child.js']) {
  mkdirSync(f.slice(0, f.lastIndexOf('/')), { recursive: true });
  writeFileSync(f, '// ' + f + '\\n');
}
if (process.env.EDIT_DURING_BUILD) appendFileSync('app/a.ts', '// edited while the build ran\\n');
appendFileSync('builds.log', 'build\\n');
`;
const FAKE_APP = `import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
if (process.env.FAIL_BUILD) process.exit(1);
for (const d of ['out/main', 'out/preload', 'out/renderer']) rmSync(d, { recursive: true, force: true });
for (const f of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'out/renderer/assets/index.js']) {
  mkdirSync(f.slice(0, f.lastIndexOf('/')), { recursive: true });
  writeFileSync(f, '// ' + f + '\\n');
}
`;

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reprise-build-stale-'));
  const real = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const pkg = {
    name: 'build-stale-fixture',
    private: true,
    type: 'module',
    scripts: { build: real.scripts.build, 'build:cli': 'node fake-cli.js', 'build:app': 'node fake-app.js' },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  mkdirSync(join(dir, 'scripts'));
  copyFileSync(join(ROOT, 'scripts', 'build-if-stale.js'), join(dir, 'scripts', 'build-if-stale.js'));
  writeFileSync(join(dir, 'fake-cli.js'), FAKE_CLI);
  writeFileSync(join(dir, 'fake-app.js'), FAKE_APP);
  mkdirSync(join(dir, 'app'));
  writeFileSync(join(dir, 'app', 'a.ts'), 'export const a = 1;\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(cmd: string, args: string[], env: Record<string, string> = {}): { status: number | null; stderr: string } {
  const r = spawnSync(cmd, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  return { status: r.status, stderr: r.stderr };
}
/** `npm start`'s first step. */
const start = (env: Record<string, string> = {}) => run(process.execPath, ['scripts/build-if-stale.js'], env);
const npmBuild = (env: Record<string, string> = {}) => run('npm', ['run', 'build'], env);
const builds = (): number => readFileSync(join(dir, 'builds.log'), 'utf8').split('\n').filter(Boolean).length;

describe('npm start: is the build current?', { timeout: 180_000 }, () => {
  it('a build made by `npm run build` is current: the start does not build again', () => {
    expect(npmBuild().status).toBe(0);
    const s = start();
    expect(s.status).toBe(0);
    expect(builds()).toBe(1);
    expect(s.stderr).toContain('the build is current');
  });

  it('a build made by the start is current for the next start', () => {
    expect(start().status).toBe(0);
    expect(builds()).toBe(1);
    expect(start().stderr).toContain('the build is current');
    expect(builds()).toBe(1);
  });

  it('the UI missing (out/renderer gone) is not current: the start builds, naming what is missing', () => {
    expect(start().status).toBe(0);
    rmSync(join(dir, 'out', 'renderer'), { recursive: true });
    const s = start();
    expect(s.stderr).toContain('out/renderer/index.html is missing');
    expect(builds()).toBe(2);
  });

  it('any output the build wrote, missing or cut short, is not current', () => {
    expect(start().status).toBe(0);
    rmSync(join(dir, 'out', 'renderer', 'assets', 'index.js'));
    expect(start().stderr).toContain('out/renderer/assets/index.js is missing');
    expect(builds()).toBe(2);
    writeFileSync(join(dir, 'dist', 'main', 'webhost', 'cli.js'), '');
    expect(start().stderr).toContain('dist/main/webhost/cli.js is 0 bytes');
    expect(builds()).toBe(3);
  });

  it('a source changed after the build, or while it ran, is not current', () => {
    expect(npmBuild({ EDIT_DURING_BUILD: '1' }).status).toBe(0);
    expect(start().stderr).toContain('a source, a config or the lock file changed');
    expect(builds()).toBe(2);
    appendFileSync(join(dir, 'app', 'a.ts'), '// edited\n');
    expect(start().stderr).toContain('changed since the last build');
    expect(builds()).toBe(3);
  });

  it('a build that failed leaves no stamp, even over a build that was current', () => {
    expect(npmBuild().status).toBe(0);
    expect(npmBuild({ FAIL_BUILD: '1' }).status).not.toBe(0);
    expect(start().stderr).toContain('no finished build is recorded');
    expect(builds()).toBe(3);
  });
});

/**
 * The pure security decisions of both shells: the path gate (roots and picked keys, by
 * real path), the static files' confinement, the app:// answer and origin check, and the
 * engine-file manifest.
 */
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isWithin, PathGate, realPathOf } from '../../main/host/path-gate.js';
import { resolveStatic, contentSecurityPolicy } from '../../main/static-files.js';
import { appResponse, isAppUrl } from '../../main/shell-policy.js';
import {
  buildEngineManifest,
  checkEngineFiles,
  engineFileProblems,
  ENGINE_FILES,
} from '../../main/host/engine-integrity.js';

let base = '';
let root = '';
let outside = '';
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'reprise-gate-'));
  root = join(base, 'root');
  outside = join(base, 'outside');
  await mkdir(join(root, 'sub'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, 'a.json'), '{}');
  await writeFile(join(outside, 'secret.txt'), 'secret');
  await writeFile(join(outside, 'key.pem'), 'k');
  await symlink(outside, join(root, 'escape'));
  await symlink(join(outside, 'secret.txt'), join(root, 'secret-link.txt'));
  await symlink(join(root, 'a.json'), join(outside, 'into-root.json'));
});

const hints = { root: 'add a root', key: 'pick the key', adapter: 'name the adapter' };

describe('path gate', () => {
  it('isWithin is a containment test on whole components', () => {
    expect(isWithin('/a/b', '/a/b')).toBe(true);
    expect(isWithin('/a/b', '/a/b/c')).toBe(true);
    expect(isWithin('/a/b', '/a/bc')).toBe(false);
    expect(isWithin('/a/b', '/a')).toBe(false);
    expect(isWithin('/a/b', '/a/b/../c')).toBe(false);
    expect(isWithin('/', '/etc')).toBe(true);
  });

  it('realPathOf resolves symlinks, and a missing tail under its real ancestor', async () => {
    expect(await realPathOf(join(root, 'escape', 'secret.txt'))).toBe(join(outside, 'secret.txt'));
    expect(await realPathOf(join(root, 'escape', 'new-dir', 'x'))).toBe(join(outside, 'new-dir', 'x'));
  });

  it('confines to the roots: /etc/passwd, a symlink out, `..` and a relative path are refused', async () => {
    const gate = new PathGate(hints);
    await gate.addRoot(root);
    expect(await gate.confine(join(root, 'a.json'), 'the file')).toBe(join(root, 'a.json'));
    expect(await gate.confine(join(root, 'sub', 'not-yet'), 'the journal')).toBe(join(root, 'sub', 'not-yet'));
    for (const p of [
      '/etc/passwd',
      '/etc/shadow',
      join(root, 'escape', 'secret.txt'),
      join(root, 'secret-link.txt'),
      join(root, '..', 'outside', 'secret.txt'),
      `${root}/sub/../../outside/secret.txt`,
      join(root, 'escape', 'new'),
    ]) {
      await expect(gate.confine(p, 'the file'), p).rejects.toMatchObject({
        usage: true,
        message: expect.stringMatching(/^refused: .* outside the folders this workbench may read; add a root$/),
      });
    }
    await expect(gate.confine('a.json', 'the file')).rejects.toMatchObject({
      usage: true,
      message: 'the file must be an absolute path',
    });
    await expect(gate.confine(`${root}/a\0.json`, 'the file')).rejects.toMatchObject({ usage: true });
    // A symlink outside the roots pointing into one reaches the file it names, which is under a root.
    expect(await gate.confine(join(outside, 'into-root.json'), 'the file')).toBe(join(root, 'a.json'));
  });

  it('a picked file grants its folder; nothing else is reachable', async () => {
    const gate = new PathGate(hints);
    await expect(gate.confine(join(root, 'a.json'), 'the file')).rejects.toMatchObject({ usage: true });
    await gate.addFileFolder(join(root, 'a.json'));
    expect(await gate.confine(join(root, 'sub'), 'the file')).toBe(join(root, 'sub'));
    await expect(gate.confine(join(outside, 'secret.txt'), 'the file')).rejects.toMatchObject({ usage: true });
  });

  it('signs only with picked keys, compared by real path', async () => {
    const gate = new PathGate(hints);
    await gate.addRoot(base);
    await expect(gate.keyFile(join(outside, 'key.pem'), 'officer key file')).rejects.toMatchObject({
      usage: true,
      message: `refused: ${join(outside, 'key.pem')} was not picked for signing; pick the key`,
    });
    await gate.addKey(join(outside, 'key.pem'));
    expect(await gate.keyFile(join(root, 'escape', 'key.pem'), 'officer key file')).toBe(join(outside, 'key.pem'));
    await expect(gate.keyFile(join(outside, 'secret.txt'), 'officer key file')).rejects.toMatchObject({ usage: true });
    await expect(gate.keyFile(join(outside, 'missing.pem'), 'officer key file')).rejects.toMatchObject({
      usage: true,
      message: expect.stringMatching(/missing\.pem: ENOENT/),
    });
    await expect(gate.keyFile('key.pem', 'officer key file')).rejects.toMatchObject({
      usage: true,
      message: 'choose the officer key file (an absolute path)',
    });
  });

  it('runs only an allowed kernel adapter, compared by real path: under a root is not enough, nor is a signing key', async () => {
    const gate = new PathGate(hints);
    await gate.addRoot(base);
    await gate.addKey(join(outside, 'key.pem'));
    await expect(gate.adapterFile(join(outside, 'key.pem'), 'kernel adapter')).rejects.toMatchObject({
      usage: true,
      message: `refused: ${join(outside, 'key.pem')} is code the engine would run and was not allowed as a kernel adapter; name the adapter`,
    });
    await gate.addAdapter(join(outside, 'secret.txt'));
    expect(await gate.adapterFile(join(root, 'escape', 'secret.txt'), 'kernel adapter')).toBe(
      join(outside, 'secret.txt'),
    );
    await expect(gate.keyFile(join(outside, 'secret.txt'), 'officer key file')).rejects.toMatchObject({ usage: true });
    await expect(gate.adapterFile('adapter.mjs', 'kernel adapter')).rejects.toMatchObject({
      usage: true,
      message: 'kernel adapter must be an absolute path',
    });
  });
});

describe('static files (both shells)', () => {
  it('serves files under the root, by real path, and refuses the rest', async () => {
    expect(await resolveStatic(root, '/a.json')).toMatchObject({
      ok: true,
      file: join(root, 'a.json'),
      contentType: 'application/json',
    });
    expect(await resolveStatic(root, '/secret-link.txt')).toEqual({ ok: false, status: 403 });
    expect(await resolveStatic(root, '/escape/secret.txt')).toEqual({ ok: false, status: 403 });
    expect(await resolveStatic(root, '/%2e%2e/outside/secret.txt')).toEqual({ ok: false, status: 403 });
    expect(await resolveStatic(root, '/..%2foutside%2fsecret.txt')).toEqual({ ok: false, status: 403 });
    expect(await resolveStatic(root, '/%E0%A4%A')).toEqual({ ok: false, status: 400 });
    expect(await resolveStatic(root, '/a%00.json')).toEqual({ ok: false, status: 400 });
    expect(await resolveStatic(root, '/sub')).toEqual({ ok: false, status: 404 });
    expect(await resolveStatic(root, '/nope.js')).toEqual({ ok: false, status: 404 });
  });

  it('the CSP names one connect source or none', () => {
    expect(contentSecurityPolicy('ws://127.0.0.1:4321')).toContain("connect-src 'self' ws://127.0.0.1:4321;");
    expect(contentSecurityPolicy(null)).toContain("connect-src 'self';");
    expect(contentSecurityPolicy(null)).not.toContain('*');
  });
});

describe('the Electron shell (pure parts)', () => {
  it('isAppUrl accepts only app://reprise, with no user, password or port', () => {
    expect(isAppUrl('app://reprise/index.html')).toBe(true);
    expect(isAppUrl('app://reprise')).toBe(true);
    for (const u of [
      'app://reprisex/index.html',
      'app://reprise.evil/',
      'app://evil@reprise/',
      'app://reprise:1/',
      'app://user:pw@reprise/',
      'http://reprise/',
      'file:///index.html',
      'https://app//reprise/',
      'not a url',
      '',
    ])
      expect(isAppUrl(u), u).toBe(false);
  });

  it('app:// answers: a malformed escape is 400 (not a throw), a symlink out is 403, nosniff and CSP on every answer', async () => {
    const bad = await appResponse(root, 'app://reprise/%E0%A4%A');
    expect(bad.status).toBe(400);
    expect(bad.headers['X-Content-Type-Options']).toBe('nosniff');
    expect((await appResponse(root, 'app://reprise/secret-link.txt')).status).toBe(403);
    expect((await appResponse(root, 'app://other/a.json')).status).toBe(403);
    const ok = await appResponse(root, 'app://reprise/a.json');
    expect(ok).toMatchObject({
      status: 200,
      headers: { 'X-Content-Type-Options': 'nosniff', 'Content-Type': 'application/json' },
    });
    expect(ok.headers['Content-Security-Policy']).toContain("connect-src 'self';");
    expect(String(ok.body)).toBe('{}');
  });

  it('engine files are checked against their build-time manifest', async () => {
    const main = await mkdtemp(join(tmpdir(), 'reprise-manifest-'));
    await mkdir(join(main, 'chunks'));
    for (const f of ENGINE_FILES) await writeFile(join(main, f), `// ${f}`);
    await writeFile(join(main, 'chunks', 'c1.js'), '// chunk');
    const manifest = buildEngineManifest(main);
    expect(Object.keys(manifest.files)).toEqual([
      'canonical-worker.js',
      'chunks/c1.js',
      'engine-process.js',
      'engine-worker.js',
      'inflate-worker.js',
      'journal-worker.js',
    ]);
    expect(engineFileProblems(main, manifest)).toEqual([]);
    expect(() => checkEngineFiles(main)).toThrow(/manifest .* missing/);
    await writeFile(join(main, 'engine-manifest.json'), JSON.stringify(manifest));
    expect(() => checkEngineFiles(main)).not.toThrow();
    await writeFile(join(main, 'chunks', 'c1.js'), '// chunk, modified');
    await writeFile(join(main, 'chunks', 'extra.js'), '// added');
    expect(engineFileProblems(main, manifest)).toEqual([
      'chunks/c1.js does not match its build-time SHA-256',
      'chunks/extra.js is not in the manifest',
    ]);
    expect(() => checkEngineFiles(main)).toThrow(/modified after the build/);
  });
});

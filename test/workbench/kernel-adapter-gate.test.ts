/**
 * A kernel adapter is code the engine runs: the Kernel adapter option takes only an adapter
 * the user named (`reprise serve --kernel-adapter`, or Electron's native dialog), never a
 * file merely under a root. And a package's members are read only under a root. Runs the
 * host as `reprise serve` does (engine-remote.ts); workers from dist/ (npm run build:cli).
 */
import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api.js';
import type { Report } from '../../shared/report.js';
import { writeExamples } from '../../app/examples/index.js';
import { createRemoteEngine, type RemoteEngine } from '../../main/host/engine-remote.js';
import { forkEngine } from '../../main/webhost/node-engine.js';

const childEntry = new URL('../../dist/main/webhost/engine-child.js', import.meta.url);

let root = '';
let allowed = '';
let notAllowed = '';
let picked = '';
let next: string | null = null;
let engine: RemoteEngine;

beforeAll(async () => {
  const base = await mkdtemp(join(tmpdir(), 'reprise-adapter-gate-'));
  root = join(base, 'root');
  await mkdir(root);
  await writeExamples(root);
  allowed = join(root, 'packages', 'kernel-adapter.mjs');
  notAllowed = join(root, 'packages', 'copy-of-adapter.mjs');
  await copyFile(allowed, notAllowed);
  await mkdir(join(base, 'elsewhere'));
  picked = join(base, 'elsewhere', 'picked-adapter.mjs');
  await copyFile(allowed, picked);
  await writeFile(join(root, 'a.json'), '{"a":1}');
  engine = createRemoteEngine({
    start: () => forkEngine(childEntry),
    grant: { roots: [root], adapters: [allowed] },
    pickPath: async () => next,
  });
});
afterAll(() => engine.close());

const refused = (p: Promise<unknown>, re: RegExp) =>
  expect(p).rejects.toMatchObject({ usage: true, message: expect.stringMatching(re) });

/** Runs a verify job to its report. */
async function verify(path: string, kernelAdapter: string): Promise<Report> {
  let off: () => unknown = () => undefined;
  const done = new Promise<Report>((resolve, reject) => {
    off = engine.subscribe((e: ApiEvent) => {
      if (e.type === 'job-done') resolve(e.report);
      if (e.type === 'job-failed') reject(new Error(e.message));
    });
  });
  await engine.startJob({
    source: { type: 'path', path },
    mode: 'verify',
    options: { kernelAdapter, profiles: join(root, 'packages', 'profiles.json') },
  });
  try {
    return await done;
  } finally {
    off();
  }
}

describe('the kernel adapter is run only as the user allowed it', () => {
  const pkg = () => join(root, 'packages', 'intact', 'v3.nemosyne');

  it('refuses an adapter under a root that was not named with --kernel-adapter, naming how to allow it', async () => {
    await refused(
      engine.startJob({
        source: { type: 'path', path: pkg() },
        mode: 'verify',
        options: { kernelAdapter: notAllowed },
      }),
      /^refused: .*copy-of-adapter\.mjs is code the engine would run and was not allowed as a kernel adapter; start reprise serve with --kernel-adapter FILE naming it$/,
    );
    await refused(
      engine.startJob({
        source: { type: 'example', path: 'packages/intact/v3.nemosyne' },
        mode: 'verify',
        options: { kernelAdapter: join(root, 'a.json') },
      }),
      /^refused: .*not allowed as a kernel adapter/,
    );
  });

  it('runs the adapter named at start-up: the V3 package reaches PASS', async () => {
    expect((await verify(pkg(), allowed)).verdict).toBe('pass');
  });

  it('runs an adapter picked in the native dialog', async () => {
    await refused(
      engine.startJob({ source: { type: 'path', path: pkg() }, mode: 'verify', options: { kernelAdapter: picked } }),
      /not allowed as a kernel adapter/,
    );
    next = picked;
    // Picked to open (an artifact), the file is no adapter: a link naming it is refused.
    expect(await engine.pickPath({ kind: 'file', title: 'Open an artifact' })).toBe(picked);
    await refused(
      engine.startJob({ source: { type: 'path', path: pkg() }, mode: 'verify', options: { kernelAdapter: picked } }),
      /not allowed as a kernel adapter/,
    );
    expect(await engine.pickPath({ kind: 'file', title: 'Kernel adapter', use: 'adapter' })).toBe(picked);
    expect((await verify(pkg(), picked)).verdict).toBe('pass');
  });
});

describe('package members through the host', () => {
  it('lists and reads members of a package under a root, and refuses one outside', async () => {
    const pkg = join(root, 'packages', 'intact', 'v3.nemosyne');
    const list = await engine.packageMembers({ source: { type: 'path', path: pkg } });
    expect(list.members.map((m) => m.role)).toEqual(
      expect.arrayContaining(['manifest', 'envelope', 'command log', 'dataset']),
    );
    const ds = await engine.packageMembers({ source: { type: 'path', path: pkg }, path: 'data/dataset.raw' });
    expect(ds.member?.table?.columns.length).toBeGreaterThan(0);
    await refused(engine.packageMembers({ source: { type: 'path', path: '/etc/passwd' } }), /^refused: /);
    await refused(
      engine.packageMembers({ source: { type: 'path', path: join(root, 'a.json') } }),
      /strict ZIP reader refuses/,
    );
  });
});

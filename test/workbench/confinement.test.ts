/**
 * What a token holder (or a compromised renderer) can reach through the API: only files
 * under the roots the user chose, and only keys the user picked for signing. Runs the
 * host as `reprise serve` does (the engine in a child process, engine-remote.ts), with the
 * native dialog of Electron played by a stub. Workers run from dist/ (npm test builds it).
 */
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigner, trustStoreEntry, writePrivateKey, TRUST_STORE_TYPE } from '../../app/core/keys.js';
import { jobReport } from '../helpers/job-report.js';
import { createRemoteEngine, type RemoteEngine } from '../../main/host/engine-remote.js';
import { forkEngine } from '../../main/webhost/node-engine.js';
import { asShown } from '../helpers/shown.js';

const childEntry = new URL('../../dist/main/webhost/engine-child.js', import.meta.url);

let base = '';
let root = '';
let outside = '';
let picked = '';
let unpicked = '';
let next: string | null = null;
let engine: RemoteEngine;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'reprise-confine-'));
  root = join(base, 'root');
  outside = join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(root, 'a.json'), '{"a":1}');
  await writeFile(join(outside, 'secret.json'), '{"secret":true}');
  await symlink(outside, join(root, 'escape'));
  const reviewer = generateSigner();
  picked = join(outside, 'picked.key.pem');
  unpicked = join(root, 'unpicked.key.pem');
  await writePrivateKey(picked, reviewer);
  await writePrivateKey(unpicked, reviewer);
  await writeFile(
    join(root, 'trust-store.json'),
    JSON.stringify({ type: TRUST_STORE_TYPE, keys: [trustStoreEntry(reviewer, 'reviewer', 'test')] }),
  );
  engine = createRemoteEngine({
    start: () => forkEngine(childEntry),
    grant: { roots: [root] },
    pickPath: async () => next,
  });
});
afterAll(() => engine.close());

const refused = (p: Promise<unknown>, re: RegExp) =>
  expect(p).rejects.toMatchObject({ usage: true, message: expect.stringMatching(re) });

describe('open by path only under the roots', () => {
  it('artifactContent reads a file under a root', async () => {
    expect(await engine.artifactContent({ source: { type: 'path', path: join(root, 'a.json') } })).toMatchObject({
      raw: '{"a":1}',
    });
  });

  it('a file opened by path is the first recent file (the shell keeps the list, not the engine)', async () => {
    const path = join(root, 'a.json');
    await jobReport(engine, { source: { type: 'path', path }, mode: 'verify' });
    expect((await engine.recentFiles())[0]).toMatchObject({ path, name: 'a.json' });
  });

  it('refuses /etc/passwd, /etc/shadow, a symlink escaping the root, and `..`', async () => {
    for (const path of [
      '/etc/passwd',
      '/etc/shadow',
      join(root, 'escape', 'secret.json'),
      `${root}/../outside/secret.json`,
    ]) {
      await refused(
        engine.artifactContent({ source: { type: 'path', path } }),
        /^refused: .* is outside the folders this workbench may read; start reprise serve with --root DIR/,
      );
      await refused(engine.startJob({ source: { type: 'path', path }, mode: 'verify' }), /^refused: /);
    }
  });

  it('refuses engine options and journal directories outside the roots', async () => {
    await refused(
      engine.startJob({
        source: { type: 'path', path: join(root, 'a.json') },
        mode: 'verify',
        options: { trustStore: '/etc/passwd' },
      }),
      /^refused: \/etc\/passwd/,
    );
    await refused(engine.journalStatus({ dir: '/etc' }), /^refused: \/etc /);
    await refused(engine.journalStatus({ dir: root, trustStore: join(root, 'escape', 'secret.json') }), /^refused: /);
  });
});

describe('sign only with a key the user picked', () => {
  it('refuses a key file on disk that was not picked, even under a root', async () => {
    await refused(
      engine.attestReplay({ source: { type: 'example', path: 'tg/exact-intact/manifest.json' }, keyFile: unpicked }),
      /^refused: .*unpicked\.key\.pem was not picked for signing/,
    );
    const demo = await engine.createDemoJournal();
    await refused(
      engine.decideCase({
        ...demo,
        keyFile: unpicked,
        ...(await asShown({ ...demo, keyFile: unpicked, caseId: 'case-0' })),
        caseId: 'case-0',
        decision: 'escalate',
        rationale: 'A second look by another officer is needed here.',
      }),
      /^refused: .*was not picked for signing/,
    );
  });

  it('signs with the key picked in the (native) dialog, and with the training journal key the host made', async () => {
    next = picked;
    // Picked to open, the file is no key: nothing signs with it.
    expect(await engine.pickPath({ kind: 'file', title: 'Open an artifact' })).toBe(picked);
    await refused(
      engine.attestReplay({ source: { type: 'example', path: 'tg/exact-intact/manifest.json' }, keyFile: picked }),
      /was not picked for signing/,
    );
    expect(await engine.pickPath({ kind: 'file', title: 'Reviewer key', use: 'key' })).toBe(picked);
    const a = await engine.attestReplay({
      source: { type: 'example', path: 'tg/exact-intact/manifest.json' },
      keyFile: picked,
    });
    expect(a.verdict).toBe('pass');
    const demo = await engine.createDemoJournal();
    const r = await engine.decideCase({
      ...demo,
      ...(await asShown({ ...demo, caseId: 'case-0' })),
      caseId: 'case-0',
      decision: 'escalate',
      rationale: 'A second look by another officer is needed here.',
    });
    expect(r.state).toBe('escalated');
    // The picked file's folder became readable; its neighbours' keys still are not keys.
    expect(
      await engine.artifactContent({ source: { type: 'path', path: join(outside, 'secret.json') } }),
    ).toMatchObject({ raw: '{"secret":true}' });
  });
});

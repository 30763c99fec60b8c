/**
 * The confinement race (red team): the host checks a path's real path and a worker opens it
 * later by path, so a folder on it swapped for a symbolic link in between led the open
 * outside every granted folder (an outside file's text through artifactContent, its hash and
 * facts through a case). Now a run the host starts carries the granted folders
 * (EngineOptions.readRoots) and every open descriptor is checked against them. Here the swap
 * has already happened when the worker opens: each reader refuses, and nothing of the
 * outside file reaches its answer. The CLI, which sets no roots, reads the same path.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api.js';
import { writeExamples } from '../../app/examples/index.js';
import { batchItem } from '../../app/jobs/batch-item.js';
import { executeJob } from '../../app/jobs/execute.js';
import { testHost } from './helpers.js';
import { runConfinedOp } from '../../main/host/confined-op.js';

const SECRET = 'outside-secret-7f3a';
let root = '';
let outside = '';
let swapped = '';
const refusal = 'outside the folders this workbench may read';

beforeAll(async () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'reprise-confine-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'inside'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'x.json'), JSON.stringify({ secret: SECRET }));
  writeFileSync(join(root, 'inside', 'x.json'), JSON.stringify({ here: true }));
  await writeExamples(join(base, 'ex'));
  cpSync(join(base, 'ex', 'journal', 'sample'), join(outside, 'journal'), { recursive: true });
  // The folder the gate saw as root/d is now a link out of the root.
  symlinkSync(outside, join(root, 'd'));
  swapped = join(root, 'd', 'x.json');
});

describe('reads confined to the granted folders', () => {
  it('a job refuses a file a swapped folder leads out of the root; the CLI (no roots) reads it', async () => {
    const confined = await executeJob({ op: 'runPath', path: swapped, mode: 'verify', options: { readRoots: [root] } });
    expect(confined).toMatchObject({ ok: false, usage: true });
    expect(JSON.stringify(confined)).toContain(refusal);
    expect(JSON.stringify(confined)).not.toContain(SECRET);
    const inside = await executeJob({
      op: 'runPath',
      path: join(root, 'inside', 'x.json'),
      mode: 'verify',
      options: { readRoots: [root] },
    });
    expect(inside.ok).toBe(true);
    expect((await executeJob({ op: 'runPath', path: swapped, mode: 'verify', options: {} })).ok).toBe(true);
  });

  it('a journal folder reached through the swapped folder is refused too', async () => {
    const o = await executeJob({
      op: 'runPath',
      path: join(root, 'd', 'journal'),
      mode: 'verify',
      options: { readRoots: [root] },
    });
    expect(o).toMatchObject({ ok: false, usage: true });
    expect(JSON.stringify(o)).toContain(refusal);
  });

  it("the editor's content and a diff refuse it, with nothing of it in the error", async () => {
    const content = runConfinedOp({ op: 'content', path: swapped, readRoots: [root] });
    await expect(content).rejects.toThrow(refusal);
    await expect(content).rejects.not.toThrow(SECRET);
    // A diff reads each side's content beside its report: the side it cannot read says why.
    const ran = await executeJob({ op: 'runPath', path: join(root, 'inside', 'x.json'), mode: 'verify', options: {} });
    const report = ran.ok ? ran.report : null;
    const side = { name: 'x.json', report, path: swapped };
    const diff = JSON.stringify(
      await runConfinedOp({ op: 'compare', left: side, right: side, readRoots: [root] } as never),
    );
    expect(diff).toContain(refusal);
    expect(diff).not.toContain(SECRET);
  });

  it("the journal worker's operations on a journal reached through the swapped folder are refused", async () => {
    await expect(
      runConfinedOp({ op: 'status', req: { dir: join(root, 'd', 'journal') }, readRoots: [root] }),
    ).rejects.toThrow(refusal);
    // Unconfined (the host's own demo journal), the same journal is read.
    await expect(runConfinedOp({ op: 'status', req: { dir: join(root, 'd', 'journal') } })).resolves.toBeTruthy();
  });

  it("a case's artifact is one it could not verify, without its hash", async () => {
    const item = await batchItem(
      { paths: [swapped], rels: ['d/x.json'], mode: 'verify', options: { readRoots: [root] }, render: 'none' },
      0,
    );
    expect(item).toMatchObject({ ok: false, usage: true });
    expect(JSON.stringify(item)).toContain(refusal);
    expect(JSON.stringify(item)).not.toContain('sha256:');
  });
});

describe('what a confined run of the host may open', () => {
  it('a replay anchoring in a journal under a root reads its signing key, picked outside every root', async () => {
    const { generateSigner } = await import('../../app/core/keys.js');
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'reprise-confine-key-')));
    const [inRoot, keys] = [join(base, 'root'), join(base, 'keys')];
    mkdirSync(inRoot);
    mkdirSync(keys);
    const key = join(keys, 'reviewer.pem');
    writeFileSync(key, generateSigner().privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    await writeExamples(join(inRoot, 'ex'));
    const host = testHost([inRoot], [key]);
    try {
      const ended = new Promise<ApiEvent>((resolve) => {
        const off = host.subscribe((e) => {
          if (e.type !== 'job-done' && e.type !== 'job-failed') return;
          off();
          resolve(e);
        });
      });
      const manifest = join(inRoot, 'ex', 'tg', 'banded-drift-material', 'manifest.json');
      await host.startJob({
        source: { type: 'path', path: manifest },
        mode: 'replay',
        options: { journal: join(inRoot, 'journal') },
        key,
      });
      const e = await ended;
      expect(e.type, JSON.stringify(e).slice(0, 400)).toBe('job-done');
      expect(readFileSync(join(inRoot, 'journal', 'entries.jsonl'), 'utf8')).toContain('replay-drift');
    } finally {
      await host.close();
    }
  }, 60_000);
});

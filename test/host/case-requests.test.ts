/**
 * What the engine host refuses of a case before it runs (case-side.ts): an option file it
 * cannot read, a path that is no folder, and the names of files the window sends into a
 * case of its own. The case engine never starts on a refused request, so nothing here
 * waits for a verdict but the single job's, run in a worker from dist/ (npm run build:cli).
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api.js';
import { writeExamples } from '../../app/examples/index.js';
import { EngineHost } from '../../main/host/engine-host.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url);
let root = '';
let host: EngineHost;

beforeAll(async () => {
  root = join(await mkdtemp(join(tmpdir(), 'reprise-case-req-')), 'root');
  await mkdir(join(root, 'case'), { recursive: true });
  await mkdir(join(root, 'ts-dir'));
  await writeExamples(join(root, 'ex'));
  await copyFile(join(root, 'ex', 'dumps', 'intact.dump.json'), join(root, 'case', 'dump.json'));
  execFileSync('mkfifo', [join(root, 'fifo')]);
  host = new EngineHost({
    workerUrl: dist('app/jobs/engine-worker.js'),
    journalWorkerUrl: dist('main/host/journal-worker.js'),
    transport: 'web',
    roots: [root],
  });
});
afterAll(() => host.close());

const verify = (path: string, options?: Record<string, string>) =>
  ({ source: { type: 'path', path }, mode: 'verify', ...(options ? { options } : {}) }) as const;

describe('a case whose option file cannot be read', () => {
  it('is refused before it runs, naming the option and why: never a FAIL report', async () => {
    for (const [ts, why] of [
      [join(root, 'gone.json'), 'ENOENT'],
      [join(root, 'ts-dir'), 'a directory, not a regular file'],
      [join(root, 'fifo'), 'a FIFO (named pipe), not a regular file'],
    ] as const) {
      await expect(host.startCase(verify(join(root, 'case'), { trustStore: ts })), ts).rejects.toMatchObject({
        usage: true,
        message: `cannot read the option trustStore ${ts}: ${why}`,
      });
    }
  });

  it('a trust store it can read lets the case start', async () => {
    const ts = join(root, 'ex', 'journal', 'trust-store.json');
    const { caseId } = await host.startCase(verify(join(root, 'case'), { trustStore: ts }));
    expect(await host.cancelCase({ caseId })).toBe(true);
  });

  it('a single job with that option fails in one line, with no report (as it did)', async () => {
    const ended = new Promise<ApiEvent>((resolve) => {
      const off = host.subscribe((e) => {
        if (e.type !== 'job-done' && e.type !== 'job-failed') return;
        off();
        resolve(e);
      });
    });
    const gone = join(root, 'gone.json');
    await host.startJob(verify(join(root, 'case', 'dump.json'), { trustStore: gone }));
    expect(await ended).toMatchObject({ type: 'job-failed', message: `cannot read trust store ${gone}: ENOENT` });
  }, 30_000);
});

describe('a case path that is no folder', () => {
  it('names a FIFO as what it is', async () => {
    await expect(host.startCase(verify(join(root, 'fifo')))).rejects.toMatchObject({
      usage: true,
      message: `${join(root, 'fifo')} is a FIFO (named pipe), not a folder: a case is a folder`,
    });
  });
});

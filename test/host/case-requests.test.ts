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
import type { EngineHost } from '../../main/host/engine-host.js';
import { testHost } from './helpers.js';

let root = '';
let host: EngineHost;

beforeAll(async () => {
  root = join(await mkdtemp(join(tmpdir(), 'reprise-case-req-')), 'root');
  await mkdir(join(root, 'case'), { recursive: true });
  await mkdir(join(root, 'ts-dir'));
  await writeExamples(join(root, 'ex'));
  await copyFile(join(root, 'ex', 'dumps', 'intact.dump.json'), join(root, 'case', 'dump.json'));
  execFileSync('mkfifo', [join(root, 'fifo')]);
  host = testHost([root]);
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

/** Sends one file's bytes as the window does, then adds it to a sent case under `name`. */
async function send(name: string, folderId?: string, text = '{"sent": true}\n') {
  const bytes = Buffer.from(text);
  const { uploadId } = await host.beginUpload({ name: name.split('/').at(-1)!, size: bytes.length });
  await host.uploadChunk({ uploadId, dataBase64: bytes.toString('base64') });
  return host.addCaseUpload({ name, uploadId, ...(folderId ? { folderId } : {}) });
}

describe('the names of files sent into a case', () => {
  // Windows names a drive or a stream with `:`, so its shell refuses it (case-side.ts).
  it.skipIf(process.platform === 'win32')(
    'takes a : in a name (timestamped evidence) and a tree 64 levels deep',
    async () => {
      const { folderId } = await send('run-2026-05-04T10:00:00Z.dump.json');
      const deep = Array.from({ length: 63 }, (_, i) => `d${i}`).join('/') + '/x.json';
      expect(await send(deep, folderId)).toEqual({ folderId, files: 2 });
    },
  );

  it('refuses a path that would leave the case, saying what is wrong with it', async () => {
    const { folderId } = await send('first.json');
    const tooDeep = Array.from({ length: 65 }, () => 'd').join('/');
    for (const [name, why] of [
      ['/etc/x.json', 'is an absolute path: a sent file is named by its path inside the case'],
      ['a//b.json', 'has an empty folder name (a doubled / or one at the end)'],
      ['a/', 'has an empty folder name (a doubled / or one at the end)'],
      ['a/../../b.json', 'has a . or .. folder, which a path inside a case may not'],
      ['a\\..\\b.json', 'holds \\, which separates folders on Windows: a path in a case separates them with /'],
      ['a\0b.json', 'holds a NUL character, which no file name can'],
      [tooDeep, 'is 65 levels deep; a sent case goes at most 64 levels deep'],
    ] as const) {
      const err = await send(name, folderId).catch((e: unknown) => e);
      expect(err, name).toMatchObject({ usage: true, message: `the sent file ${JSON.stringify(name)} ${why}` });
      expect((err as Error).message).not.toMatch(/not a relative path/);
    }
  });
});

describe('a sent file that clashes with the files sent before', () => {
  it('says which is a file and which a folder, in one line naming no temporary path', async () => {
    const { folderId } = await send('x');
    await send('d/e/f.json', folderId);
    for (const [name, message] of [
      ['x/y', 'the case already holds x as a file, so x/y cannot be added'],
      ['x/y/z.json', 'the case already holds x as a file, so x/y/z.json cannot be added'],
      ['d/e', 'the case already holds d/e as a folder, so a file of that name cannot be added'],
      ['d/e/f.json', 'the case already holds d/e/f.json'],
    ] as const) {
      await expect(send(name, folderId), name).rejects.toMatchObject({ usage: true, message });
    }
    // What was refused left the case as it was: another file still joins it.
    expect(await send('d/e/g.json', folderId)).toEqual({ folderId, files: 3 });
  });
});

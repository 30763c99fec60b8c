/**
 * The reviewer's case through the host as `reprise serve` runs it (engine-remote.ts and the
 * engine's own process, with the case engine and its worker threads from dist/: npm run
 * build:cli): a folder under a root runs as a case, its verdicts landing as events before
 * the case report; a folder outside the roots is refused before anything is read; files
 * sent from the window become a case of their own.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api.js';
import type { CaseReport } from '../../shared/case.js';
import { writeExamples } from '../../app/examples/index.js';
import { createRemoteEngine, type RemoteEngine } from '../../main/host/engine-remote.js';
import { forkEngine } from '../../main/webhost/node-engine.js';

const childEntry = new URL('../../dist/main/webhost/engine-child.js', import.meta.url);

let root = '';
let examples = '';
let engine: RemoteEngine;

beforeAll(async () => {
  const base = await mkdtemp(join(tmpdir(), 'reprise-case-host-'));
  root = join(base, 'root');
  examples = join(base, 'examples');
  await mkdir(join(root, 'case', 'sub'), { recursive: true });
  await writeExamples(examples);
  await copyFile(join(examples, 'dumps', 'intact.dump.json'), join(root, 'case', 'dump.json'));
  await writeFile(join(root, 'case', 'sub', 'note.json'), '{"not": "an artifact"}\n');
  engine = createRemoteEngine({ start: () => forkEngine(childEntry), grant: { roots: [root] } });
});
afterAll(() => engine.close());

/** Every event of one case until it ends. */
function caseEvents(caseId: () => string | null): Promise<ApiEvent[]> {
  const seen: ApiEvent[] = [];
  return new Promise((resolve) => {
    const off = engine.subscribe((e) => {
      if (!('caseId' in e)) return;
      seen.push(e);
      if (e.caseId === caseId() && e.type !== 'case-progress') {
        off();
        resolve(seen.filter((x) => 'caseId' in x && x.caseId === caseId()));
      }
    });
  });
}

describe('a case through the host', () => {
  it('a folder under a root: each verdict lands as an event, then the case report', async () => {
    let id: string | null = null;
    const events = caseEvents(() => id);
    const started = await engine.startCase({ source: { type: 'path', path: join(root, 'case') }, mode: 'verify' });
    id = started.caseId;
    expect(started.dir).toBe(join(root, 'case'));
    const all = await events;
    const end = all.at(-1)!;
    if (end.type !== 'case-done') throw new Error(`the case did not end well: ${JSON.stringify(end)}`);
    const report: CaseReport = end.report;
    expect(report.artifacts.map((a) => [a.path, a.kind])).toEqual([
      ['dump.json', 'replay-dump'],
      ['sub/note.json', 'unknown'],
    ]);
    // One progress over the case: done counts up to the total, each landed artifact once.
    const progress = all.filter((e) => e.type === 'case-progress');
    expect(progress.at(-1)).toMatchObject({ done: 2, total: 2 });
    const landed = progress.flatMap((e) => (e.type === 'case-progress' && e.artifact ? [e.artifact.path] : []));
    expect(landed.sort()).toEqual(['dump.json', 'sub/note.json']);
  });

  it('a folder outside the roots, or a file, is refused in one line', async () => {
    await expect(
      engine.startCase({ source: { type: 'path', path: join(examples, 'dumps') }, mode: 'verify' }),
    ).rejects.toMatchObject({ usage: true, message: expect.stringMatching(/^refused: .* outside the folders/) });
    await expect(
      engine.startCase({ source: { type: 'path', path: join(root, 'case', 'dump.json') }, mode: 'verify' }),
    ).rejects.toMatchObject({ usage: true, message: expect.stringMatching(/is a file: a case is a folder/) });
  });

  it('a folder under a root that holds no file: the case fails in one line, no report', async () => {
    await mkdir(join(root, 'empty', 'sub'), { recursive: true });
    let id: string | null = null;
    const events = caseEvents(() => id);
    id = (await engine.startCase({ source: { type: 'path', path: join(root, 'empty') }, mode: 'verify' })).caseId;
    const all = await events;
    expect(all.some((e) => e.type === 'case-done')).toBe(false);
    expect(all.at(-1)).toEqual({
      type: 'case-failed',
      caseId: id,
      message: `${join(root, 'empty')} holds no file: there is nothing in it to check`,
      cancelled: false,
    });
  });

  it('a link in a granted folder to a file or folder outside every root is refused and listed, never read', async () => {
    const dir = join(root, 'linked');
    const outside = await mkdtemp(join(tmpdir(), 'reprise-case-outside-'));
    await mkdir(join(dir, 'in'), { recursive: true });
    await mkdir(join(outside, 'keys'));
    const secret = Buffer.from('{"password": "hunter2"}\n');
    await writeFile(join(outside, 'secret.json'), secret);
    await writeFile(join(outside, 'keys', 'id.json'), secret);
    await copyFile(join(examples, 'dumps', 'intact.dump.json'), join(dir, 'in', 'dump.json'));
    await symlink(join(outside, 'secret.json'), join(dir, 'secret.json'));
    await symlink(join(outside, 'keys'), join(dir, 'keys'));
    // A link that stays under the root is read as its target is.
    await symlink(join(dir, 'in', 'dump.json'), join(dir, 'same.json'));
    // A link to itself: no real path, so the engine says why, in the CLI's words.
    await symlink('loop', join(dir, 'loop'));
    let id: string | null = null;
    const events = caseEvents(() => id);
    id = (await engine.startCase({ source: { type: 'path', path: dir }, mode: 'verify' })).caseId;
    const all = await events;
    const end = all.at(-1)!;
    if (end.type !== 'case-done') throw new Error(`the case did not end well: ${JSON.stringify(end)}`);
    expect(end.report.artifacts.map((a) => a.path)).toEqual(['in/dump.json', 'same.json']);
    const refused = end.report.findings.filter((f) => f.rule === 'RPR-CASE-002').map((f) => f.message);
    // The folder outside is one refused entry: the walk does not enter it, so not even the
    // names of what it holds reach the window (a link to / would otherwise list the disk).
    // Each named by its path in the case, never by the folder as the host holds it.
    expect(refused).toEqual([
      expect.stringMatching(/^keys could not be verified: refused: keys is outside the folders/),
      expect.stringMatching(/^loop could not be verified: /),
      expect.stringMatching(/^secret\.json could not be verified: refused: secret\.json is outside the folders/),
    ]);
    expect(JSON.stringify(end.report.findings)).not.toContain(dir);
    // The loop's entry is the CLI's, word for word: the case is the same bytes there.
    const cli = spawnSync(
      process.execPath,
      [join(__dirname, '..', '..', 'bin', 'reprise.js'), 'verify', dir, '--case', '-'],
      {
        encoding: 'utf8',
      },
    );
    const cliLoop = (JSON.parse(cli.stdout) as CaseReport).findings.find((f) => f.pointer === 'entry:loop');
    expect(refused[1]).toBe(cliLoop?.message);
    expect(end.report.verdict).toBe('fail');
    // Nothing of the files outside reached the window: neither their bytes' hash nor their content.
    const sent = JSON.stringify(all);
    expect(sent).not.toContain(createHash('sha256').update(secret).digest('hex'));
    expect(sent).not.toContain('hunter2');
    expect(sent).not.toContain('id.json');
    // Every walked entry counts in the one progress over the case.
    expect(all.filter((e) => e.type === 'case-progress').at(-1)).toMatchObject({ done: 5, total: 5 });
  });

  it('files sent from the window become a case folder of their own, opened by path afterwards', async () => {
    const dump = await readFile(join(examples, 'dumps', 'intact.dump.json'));
    let folderId: string | undefined;
    for (const [name, bytes] of [
      ['a/dump.json', dump],
      ['b.json', Buffer.from('{"b": 1}')],
    ] as const) {
      const { uploadId } = await engine.beginUpload({ name, size: bytes.length });
      await engine.uploadChunk({ uploadId, dataBase64: bytes.toString('base64') });
      folderId = (await engine.addCaseUpload({ ...(folderId ? { folderId } : {}), name, uploadId })).folderId;
    }
    let id: string | null = null;
    const events = caseEvents(() => id);
    const started = await engine.startCase({ source: { type: 'uploads', folderId: folderId! }, mode: 'verify' });
    id = started.caseId;
    const end = (await events).at(-1)!;
    if (end.type !== 'case-done') throw new Error(`the case did not end well: ${JSON.stringify(end)}`);
    expect(end.report.artifacts.map((a) => a.path)).toEqual(['a/dump.json', 'b.json']);
    // The folder the host made is granted: an artifact of the case opens by path in a job.
    await expect(
      engine.startJob({ source: { type: 'path', path: join(started.dir, 'a', 'dump.json') }, mode: 'verify' }),
    ).resolves.toMatchObject({ jobId: expect.stringMatching(/^job-/) });
  });
});

/**
 * The host's case side (main/host/case-side.ts) with a stand-in case engine: files sent
 * from the window become one private case folder (relative names only, never two of one
 * name), the case runs on the folder, its progress and verdicts arrive as events in
 * order, and a failing or cancelled case says so (case-failed).
 */
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiEvent, StartJobRequest } from '../../shared/api.js';
import type { CaseArtifact, CaseReport } from '../../shared/case.js';
import { CaseSide, type RunCase } from '../../main/host/case-side.js';
import { Uploads } from '../../main/host/uploads.js';
import type { EngineJob } from '../../app/jobs/protocol.js';

const artifact = (path: string): CaseArtifact => ({
  path,
  kind: 'replay-dump',
  sha256: `sha256:${'0'.repeat(64)}`,
  verdict: 'pass',
  id: null,
  reportDigest: `sha256:${'1'.repeat(64)}`,
  counts: { fail: 0, unavailable: 0, warning: 0, info: 0 },
});

function report(paths: string[]): CaseReport {
  return {
    schema: 'reprise.case/v1',
    verdict: 'pass',
    artifacts: paths.map(artifact),
    links: [],
    timeline: [],
    judgements: [],
    findings: [],
  };
}

/** A stand-in engine: lists the folder, lands one verdict per file, or throws / waits to be aborted. */
const listing: RunCase = async (dir, o) => {
  const names = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name).slice(dir.length + 1))
    .sort();
  o.onProgress?.({ done: 0, total: names.length });
  names.forEach((n, i) => o.onProgress?.({ done: i + 1, total: names.length, artifact: artifact(n) }));
  return report(names);
};

function side(run: RunCase, root: string) {
  const events: ApiEvent[] = [];
  const uploads = new Uploads();
  const grants: string[] = [];
  const prepare = async (req: StartJobRequest): Promise<{ job: EngineJob }> => {
    const path = req.source.type === 'path' ? req.source.path : '';
    if (!path.startsWith(root) && !grants.some((g) => path.startsWith(g))) throw new Error(`refused: ${path}`);
    return { job: { op: 'runPath', path, mode: req.mode, options: {} } };
  };
  const cases = new CaseSide({
    run,
    workers: 2,
    uploads,
    emit: (e) => events.push(e),
    grant: async (g) => void grants.push(...(g.roots ?? [])),
    prepare,
    confine: async (path) => path,
  });
  const send = async (name: string, text: string, folderId?: string) => {
    const bytes = Buffer.from(text);
    const { uploadId } = uploads.begin({ name, size: bytes.length });
    uploads.chunk({ uploadId, dataBase64: bytes.toString('base64') });
    return cases.addUpload({ ...(folderId ? { folderId } : {}), name, uploadId });
  };
  const ended = (caseId: string) =>
    new Promise<ApiEvent>((resolve) => {
      const t = setInterval(() => {
        const e = events.find((x) => 'caseId' in x && x.caseId === caseId && x.type !== 'case-progress');
        if (e) {
          clearInterval(t);
          resolve(e);
        }
      }, 5);
    });
  return { cases, events, send, ended, grants };
}

describe('case side', () => {
  it('files sent from the window become one case folder, verified as a case with its progress and verdicts', async () => {
    const root = await mkdtemp(join(tmpdir(), 'reprise-case-side-'));
    const { cases, events, send, ended, grants } = side(listing, root);
    const { folderId } = await send('a.dump.json', '{"a":1}');
    expect(await send('journal/entries.jsonl', '', folderId)).toEqual({ folderId, files: 2 });
    for (const bad of ['../x', '/abs', 'a//b', 'a\\b', 'a/./b', ''])
      await expect(send(bad, 'x', folderId)).rejects.toMatchObject({ usage: true });
    await expect(send('a.dump.json', 'other', folderId)).rejects.toThrow(/already holds a\.dump\.json/);
    const { caseId, dir } = await cases.start({ source: { type: 'uploads', folderId }, mode: 'verify' });
    // The folder is granted, so its artifacts open by path in the chain view.
    expect(grants).toContain(dir);
    expect(await readFile(join(dir, 'a.dump.json'), 'utf8')).toBe('{"a":1}');
    const end = await ended(caseId);
    expect(end).toMatchObject({
      type: 'case-done',
      report: { artifacts: [{ path: 'a.dump.json' }, { path: 'journal/entries.jsonl' }] },
    });
    const progress = events.filter((e) => e.type === 'case-progress');
    expect(progress.map((e) => (e.type === 'case-progress' ? [e.done, e.total, e.artifact?.path] : null))).toEqual([
      [0, 2, undefined],
      [1, 2, 'a.dump.json'],
      [2, 2, 'journal/entries.jsonl'],
    ]);
    await cases.close();
  });

  it('a folder by path runs; a file, an unknown folder and a failing engine are said, never a crash', async () => {
    const root = await mkdtemp(join(tmpdir(), 'reprise-case-side-'));
    await writeFile(join(root, 'one.json'), '{}');
    const { cases, ended } = side(listing, root);
    const ok = await cases.start({ source: { type: 'path', path: root }, mode: 'verify' });
    expect(ok.dir).toBe(root);
    expect(await ended(ok.caseId)).toMatchObject({ type: 'case-done' });
    await expect(
      cases.start({ source: { type: 'path', path: join(root, 'one.json') }, mode: 'verify' }),
    ).rejects.toThrow(/is a file: a case is a folder/);
    await expect(
      cases.start({ source: { type: 'uploads', folderId: 'casefolder-9' }, mode: 'verify' }),
    ).rejects.toThrow(/unknown case folder/);
    const failing = side(async () => {
      throw new Error('the walk failed');
    }, root);
    const f = await failing.cases.start({ source: { type: 'path', path: root }, mode: 'verify' });
    expect(await failing.ended(f.caseId)).toEqual({
      type: 'case-failed',
      caseId: f.caseId,
      message: 'the walk failed',
      cancelled: false,
    });
  });

  it('cancel aborts the running case: it ends as cancelled, and a second cancel finds nothing', async () => {
    const root = await mkdtemp(join(tmpdir(), 'reprise-case-side-'));
    const waiting: RunCase = (_dir, o) =>
      new Promise((_resolve, reject) => o.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const { cases, ended } = side(waiting, root);
    const { caseId } = await cases.start({ source: { type: 'path', path: root }, mode: 'verify' });
    expect(await cases.cancel({ caseId })).toBe(true);
    expect(await ended(caseId)).toMatchObject({ type: 'case-failed', cancelled: true, message: 'cancelled' });
    expect(await cases.cancel({ caseId })).toBe(false);
  });
});

/**
 * What the recent-files list grants at the next start (main/host/recent-files.ts): exactly
 * the grant of the shell each file was opened under, never a folder derived from the path the
 * window sent. The engine's process is a stub that starts every job it is asked to (the real
 * one refuses a path outside the grants; the shell must not rely on the path alone anyway)
 * and logs the grants it is sent; one store shared by two engines is a restart.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PickRequest } from '../../shared/api.js';
import {
  createRemoteEngine,
  memoryRecentStore,
  type EngineChild,
  type Grant,
  type RecentStore,
  type RemoteEngine,
} from '../../main/host/engine-remote.js';

let base = '';
let chosen = '';
let other = '';
let engineTemp = '';
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'reprise-recent-'));
  chosen = join(base, 'chosen');
  other = join(base, 'other');
  await mkdir(join(chosen, 'sub'), { recursive: true });
  await mkdir(other);
  await writeFile(join(chosen, 'a.json'), '{}');
  await writeFile(join(other, 'picked.json'), '{}');
  await writeFile(join(base, 'outside.json'), '{}');
  // Named as an engine's own folder is (engine-life.ts): nothing in it is ever recent.
  engineTemp = join(tmpdir(), `reprise-engine-999999-${base.slice(-6)}`);
  await mkdir(engineTemp);
  await writeFile(join(engineTemp, 'training.json'), '{}');
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
  await rm(engineTemp, { recursive: true, force: true });
});

/** An engine's process that starts every job, logs every grant it is sent, and ends when asked to close. */
function stubChild(grants: Grant[]): EngineChild {
  let listener: (m: unknown) => void = () => undefined;
  let exited: (why: string) => void = () => undefined;
  let jobs = 0;
  const answer = (id: number, result: unknown) => setImmediate(() => listener({ id, result }));
  return {
    send(m) {
      if ('grant' in m) {
        grants.push(m.grant);
        if (m.id !== 0) answer(m.id, null);
      } else if ('method' in m) answer(m.id, m.method === 'startJob' ? { jobId: `job-${++jobs}` } : null);
      else if ('close' in m) setImmediate(() => exited('exit code 0'));
    },
    onMessage: (l) => void (listener = l),
    onExit: (l) => void (exited = l),
    kill: () => exited('signal SIGKILL'),
  };
}

/** A session of the shell: its engine, what its child was granted, and the next path its dialog returns. */
function session(store: RecentStore, grant?: Grant) {
  const grants: Grant[] = [];
  const picks: { next: string | null } = { next: null };
  const engine: RemoteEngine = createRemoteEngine({
    start: () => stubChild(grants),
    recentStore: store,
    pickPath: async (_req: PickRequest) => picks.next,
    ...(grant ? { grant } : {}),
  });
  return { engine, grants, picks };
}

const open = (engine: RemoteEngine, path: string) =>
  engine.startJob({ source: { type: 'path', path }, mode: 'verify' });

/** What the next start grants: a new session on the same store, its list loaded and its child started. */
async function nextStart(store: RecentStore) {
  const s = session(store);
  const list = await s.engine.recentFiles();
  await s.engine.listExamples();
  await s.engine.close();
  const roots = s.grants.flatMap((g) => g.roots ?? []);
  const files = s.grants.flatMap((g) => g.files ?? []);
  return { list, roots, files };
}

describe('the recent files grant at the next start only what the shell granted them under', () => {
  it('a granted folder opened as a source is not kept, and its parent is never granted', async () => {
    const store = memoryRecentStore();
    const s = session(store);
    s.picks.next = chosen;
    expect(await s.engine.pickPath({ kind: 'directory', title: 'Choose a folder' })).toBe(chosen);
    await open(s.engine, `${chosen}/`);
    await open(s.engine, join(chosen, 'sub'));
    expect(await s.engine.recentFiles()).toEqual([]);
    await s.engine.close();
    const next = await nextStart(store);
    expect(next.roots).not.toContain(base);
    expect(next.roots).not.toContain(`${base}/`);
    expect(next).toMatchObject({ list: [], roots: [], files: [] });
  });

  it('a file under a chosen folder is kept with that folder, granted again exactly', async () => {
    const store = memoryRecentStore();
    const s = session(store);
    s.picks.next = chosen;
    await s.engine.pickPath({ kind: 'directory', title: 'Choose a folder' });
    await open(s.engine, join(chosen, 'a.json'));
    await s.engine.recentFiles();
    await s.engine.close();
    const next = await nextStart(store);
    // The API shows the file as before: the grant is the shell's own record.
    expect(next.list).toEqual([{ path: join(chosen, 'a.json'), name: 'a.json', openedAtUtc: expect.any(String) }]);
    expect(next).toMatchObject({ roots: [chosen], files: [] });
  });

  it('a file picked in a dialog, or named to the shell (Open Recent), is kept as itself: granted again as a file', async () => {
    const store = memoryRecentStore();
    const s = session(store);
    s.picks.next = join(other, 'picked.json');
    await s.engine.pickPath({ kind: 'file', title: 'Open an artifact' });
    await open(s.engine, join(other, 'picked.json'));
    await s.engine.grant({ files: [join(chosen, 'a.json')] });
    await open(s.engine, join(chosen, 'a.json'));
    await s.engine.recentFiles();
    await s.engine.close();
    const next = await nextStart(store);
    expect(next.list.map((r) => r.path)).toEqual([join(chosen, 'a.json'), join(other, 'picked.json')]);
    expect(next.roots).toEqual([]);
    expect(next.files.sort()).toEqual([join(chosen, 'a.json'), join(other, 'picked.json')].sort());
  });

  it('a path under no grant of the shell, or inside an engine folder, is not kept', async () => {
    const store = memoryRecentStore();
    const s = session(store);
    await open(s.engine, join(base, 'outside.json'));
    // Even picked in the dialog: the engine's own folder goes with its process.
    s.picks.next = join(engineTemp, 'training.json');
    await s.engine.pickPath({ kind: 'file', title: 'Open an artifact' });
    await open(s.engine, join(engineTemp, 'training.json'));
    // A key picked to sign with is no file to read.
    s.picks.next = join(other, 'picked.json');
    await s.engine.pickPath({ kind: 'file', title: 'Key', use: 'key' });
    await open(s.engine, join(other, 'picked.json'));
    expect(await s.engine.recentFiles()).toEqual([]);
    await s.engine.close();
    expect(await nextStart(store)).toMatchObject({ list: [], roots: [], files: [] });
  });

  it('a file under a root granted at start-up (reprise serve --root) is kept', async () => {
    const s = session(memoryRecentStore(), { roots: [chosen] });
    await open(s.engine, join(chosen, 'a.json'));
    expect((await s.engine.recentFiles()).map((r) => r.path)).toEqual([join(chosen, 'a.json')]);
    await s.engine.close();
  });

  it('an entry without its grant, or with one that is not its own, is listed but grants nothing', async () => {
    const store = memoryRecentStore();
    const at = '2026-01-01T00:00:00Z';
    await store.save([
      { path: `${chosen}/`, name: '', openedAtUtc: at },
      { path: join(chosen, 'a.json'), name: 'a.json', openedAtUtc: at },
      { path: join(chosen, 'a.json'), name: 'a.json', openedAtUtc: at, granted: { files: ['/etc/passwd'] } },
      { path: join(chosen, 'a.json'), name: 'a.json', openedAtUtc: at, granted: { roots: ['relative'] } },
    ]);
    const next = await nextStart(store);
    expect(next.list.map((r) => r.path)).toEqual([
      `${chosen}/`,
      join(chosen, 'a.json'),
      join(chosen, 'a.json'),
      join(chosen, 'a.json'),
    ]);
    expect(next).toMatchObject({ roots: [], files: [] });
    expect(next.roots).not.toContain(dirname(chosen));
  });
});

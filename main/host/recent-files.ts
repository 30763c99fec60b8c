/**
 * The recent-files list, kept by the shell (Electron's userData folder; memory for the web
 * host). Each entry keeps the one grant of the shell that let it be opened: a file picked in
 * a native dialog or named to the shell (Open Recent, the command line), granted as its
 * folder, or a folder the user chose. The next start makes exactly that grant again and no
 * other. The path itself comes from the window, which may be subverted, so no grant is ever
 * derived from it: a folder (whose "folder" is its parent, a level further up at every
 * start), a path no grant of the shell covers (one the engine granted itself: a case sent
 * from the window, the examples) and a path inside an engine's own temporary folder are not
 * kept at all.
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute } from 'node:path';
import type { RecentFile } from '../../shared/api.js';
import { insideEngineTemp } from './engine-temp.js';
import type { Grant } from './granted-gate.js';
import { isWithin } from './path-gate.js';

const MAX_RECENT = 10;

/** A grant the shell made for the user: one folder chosen, or one file picked (its folder). */
export type RecentGrant = { roots: [string] } | { files: [string] };

/** A recent file as the shell keeps it: with the grant it was opened under (an entry without one grants nothing). */
export interface KeptRecent extends RecentFile {
  granted?: RecentGrant;
}

/** Where the shell keeps the recent files (Electron's userData; memory for the web host). */
export interface RecentStore {
  load(): Promise<KeptRecent[]>;
  save(files: KeptRecent[]): Promise<void>;
}

/** Recent files kept in memory only (the web host). */
export function memoryRecentStore(): RecentStore {
  let files: KeptRecent[] = [];
  return { load: async () => files, save: async (f) => void (files = f) };
}

/** Each folder and file of a grant as a grant of its own (keys and adapters are never read, so never recent). */
export function splitGrant(g: Grant): RecentGrant[] {
  return [
    ...(g.roots ?? []).map((r): RecentGrant => ({ roots: [r] })),
    ...(g.files ?? []).map((f): RecentGrant => ({ files: [f] })),
  ];
}

/** The entry's grant as read back from the store, or undefined for anything but one absolute path of the right shape. */
function storedGrant(g: unknown, path: string): RecentGrant | undefined {
  if (typeof g !== 'object' || g === null) return undefined;
  const { roots, files } = g as { roots?: unknown; files?: unknown };
  const one = (v: unknown): v is [string] =>
    Array.isArray(v) && v.length === 1 && typeof v[0] === 'string' && isAbsolute(v[0]);
  if (one(roots) && files === undefined) return { roots };
  if (one(files) && roots === undefined && files[0] === path) return { files };
  return undefined;
}

/** The stored list, each entry checked (the file is the app's own, but a list is never trusted blindly). */
function checkedList(raw: unknown): KeptRecent[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((r: unknown): KeptRecent[] => {
    const e = r as Partial<KeptRecent> | null;
    if (typeof e?.path !== 'string' || typeof e.name !== 'string' || typeof e.openedAtUtc !== 'string') return [];
    const granted = storedGrant(e.granted, e.path);
    return [{ path: e.path, name: e.name, openedAtUtc: e.openedAtUtc, ...(granted ? { granted } : {}) }];
  });
}

/** What the next start grants again for a list: every entry's own grant, folders and files each once. */
export function regrantOf(list: KeptRecent[]): Grant {
  const roots = new Set<string>();
  const files = new Set<string>();
  for (const { granted } of list) {
    if (granted && 'roots' in granted) roots.add(granted.roots[0]);
    if (granted && 'files' in granted) files.add(granted.files[0]);
  }
  return { ...(roots.size ? { roots: [...roots] } : {}), ...(files.size ? { files: [...files] } : {}) };
}

/**
 * The shell's grant under which `path` (just opened by a job) lies, or null when it is to be
 * kept off the list: not a regular file, inside an engine's folder, or under no grant of the
 * shell. A picked file covers only itself; a chosen folder what lies under it, by real path.
 */
async function coveringGrant(path: string, grants: readonly RecentGrant[]): Promise<RecentGrant | null> {
  const real = await realpath(path);
  if (!(await stat(real)).isFile() || (await insideEngineTemp(real))) return null;
  const picked = grants.find((g) => 'files' in g && g.files[0] === path);
  if (picked) return picked;
  for (const g of grants) {
    if (!('roots' in g)) continue;
    const root = await realpath(g.roots[0]).catch(() => null);
    if (root !== null && isWithin(root, real)) return g;
  }
  return null;
}

/**
 * The list and the grants it may name: `granted` is told every grant the shell makes for the
 * user; loading the list (once, before the first job) makes each kept entry's grant again.
 */
export function recentList(store: RecentStore, grant: (g: Grant) => Promise<void>) {
  const grants: RecentGrant[] = [];
  let recent: KeptRecent[] = [];
  let loaded: Promise<void> | null = null;
  let adding: Promise<void> = Promise.resolve();

  const load = (): Promise<void> =>
    (loaded ??= (async () => {
      recent = checkedList(await store.load().catch(() => []));
      for (const r of recent) if (r.granted) grants.push(r.granted);
      const again = regrantOf(recent);
      if (again.roots || again.files) await grant(again).catch(() => undefined);
    })());

  async function add(path: string): Promise<void> {
    await load();
    const granted = await coveringGrant(path, grants).catch(() => null);
    if (!granted) return;
    const openedAtUtc = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    recent = [{ path, name: basename(path), openedAtUtc, granted }, ...recent.filter((r) => r.path !== path)];
    recent = recent.slice(0, MAX_RECENT);
    await store.save(recent).catch(() => undefined);
  }

  return {
    load,
    granted: (g: Grant): void => void grants.push(...splitGrant(g)),
    /** Keeps `path` when a grant of the shell covers it; one at a time, in the order the jobs started. */
    add: (path: string): Promise<void> => (adding = adding.then(() => add(path)).catch(() => undefined)),
    /** The list as the API shows it (without the grants), once every add asked before has settled. */
    async list(): Promise<RecentFile[]> {
      await load();
      await adding;
      return recent.map(({ path, name, openedAtUtc }) => ({ path, name, openedAtUtc }));
    },
  };
}

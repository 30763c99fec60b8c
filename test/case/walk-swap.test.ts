/**
 * A folder of the case swapped for a link outside the granted folders after its parent was
 * listed, while the walk is still in an earlier sibling (docs/case.md, "What is in a case"):
 * the walk judges each folder as what it opens, so the swapped one is one RPR-CASE-002
 * naming its path in the case, and not a name of what lies outside reaches the report.
 * The swap is made inside the gate's own call for the earlier sibling, so it lands between
 * the listing and the read every time.
 */
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { driveCase, inlineExecutor, type CaseFile } from '../../app/engine/case/index.js';
import { walkPaths } from '../../app/engine/paths.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

interface Swap {
  /** The granted folder (real path): it holds the case. */
  root: string;
  dir: string;
  /** Asked with each folder the walk may enter; the first time it is asked of shared/a (or `at`), it swaps. */
  enter: (dir: string) => Promise<boolean>;
  /** The host's gate on each file found: refused, by its path in the case, outside the root. */
  admit: (f: CaseFile) => Promise<CaseFile | string>;
}

/**
 * A granted root holding the case and `shared/a` (one file, reached from the case by a link
 * `link`, whose folder the gate is asked of), and a folder outside holding secrets. `swapped`
 * (a folder of the case) is replaced by a link to the folder outside once the gate has
 * answered for shared/a (or for `at`, under the root).
 */
function swapCase(layout: { link: string; folder: string; swapped: string; outside: string; at?: string }): Swap {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'reprise-walk-swap-')));
  made.push(base);
  const root = join(base, 'root');
  const dir = join(root, 'case');
  const outside = join(base, 'outside', layout.outside);
  mkdirSync(join(root, 'shared', 'a'), { recursive: true });
  writeFileSync(join(root, 'shared', 'a', 'one.json'), '{"one": 1}');
  mkdirSync(join(dir, layout.folder), { recursive: true });
  writeFileSync(join(dir, layout.folder, 'ok.json'), '{"ok": true}');
  symlinkSync(join(root, 'shared', 'a'), join(dir, layout.link));
  mkdirSync(join(outside, 'secret-dir'), { recursive: true });
  writeFileSync(join(outside, 'private-notes.txt'), 'hunter2');
  writeFileSync(join(outside, 'secret-dir', 'id_rsa'), 'PRIVATE KEY');
  const inside = async (p: string) => {
    const real = await realpath(p).catch(() => null);
    return real !== null && (real === root || real.startsWith(root + sep));
  };
  let armed = true;
  // The gate answers, then the swap lands: between its check and the walk's read.
  const enter = async (p: string) => {
    const ok = await inside(p);
    if (armed && (await realpath(p)) === join(root, layout.at ?? join('shared', 'a'))) {
      armed = false;
      renameSync(join(dir, layout.swapped), join(root, 'was-swapped'));
      symlinkSync(join(base, 'outside'), join(dir, layout.swapped));
    }
    return ok;
  };
  const admit = async (f: CaseFile) => {
    const real = await realpath(f.path).catch(() => null);
    if (real === null) return f;
    return (await inside(real))
      ? { ...f, path: real }
      : `refused: ${f.rel} is outside the folders this workbench may read`;
  };
  return { root, dir, enter, admit };
}

const rel = (dir: string, files: string[]) => files.map((f) => f.slice(dir.length + 1));

describe('a folder swapped for a link outside after its parent was listed', () => {
  it('is one entry of the walk, its path in the case, and nothing under it is listed', async () => {
    const s = swapCase({ link: 'a-link', folder: 'b-dir', swapped: 'b-dir', outside: '' });
    const { files } = await walkPaths([s.dir], s.enter);
    expect(rel(s.dir, files)).toEqual(['a-link/one.json', 'b-dir']);
  });

  it('is one RPR-CASE-002 naming it in the case, and no name of what lies outside reaches the report', async () => {
    const s = swapCase({ link: 'a-link', folder: 'b-dir', swapped: 'b-dir', outside: '' });
    const report = await driveCase(s.dir, inlineExecutor, { enter: s.enter, admit: s.admit });
    expect(report.artifacts.map((a) => a.path)).toEqual(['a-link/one.json']);
    const refused = report.findings.filter((f) => f.rule === 'RPR-CASE-002').map((f) => f.message);
    expect(refused).toEqual([
      'b-dir could not be verified: refused: b-dir is outside the folders this workbench may read',
    ]);
    const sent = JSON.stringify(report);
    for (const name of ['secret-dir', 'id_rsa', 'private-notes', 'hunter2', s.root]) expect(sent).not.toContain(name);
  });

  it('a folder on the path of one not yet opened: what opening it reaches is judged, not its name in the listing', async () => {
    // The walk is in b: it listed a-link and c, and b becomes a link to a folder outside that
    // holds a c of its own before the walk opens b/c.
    const layout = { link: join('b', 'a-link'), folder: join('b', 'c'), swapped: 'b', outside: 'c' };
    const s = swapCase(layout);
    const { files } = await walkPaths([s.dir], s.enter);
    expect(rel(s.dir, files)).toEqual(['b/a-link/one.json', 'b/c']);
    const again = swapCase(layout);
    const report = await driveCase(again.dir, inlineExecutor, { enter: again.enter, admit: again.admit });
    const refused = report.findings.filter((f) => f.rule === 'RPR-CASE-002').map((f) => f.message);
    expect(refused).toContain('b/c could not be verified: refused: b/c is outside the folders this workbench may read');
    const sent = JSON.stringify(report);
    for (const name of ['secret-dir', 'id_rsa', 'private-notes', 'hunter2', again.root])
      expect(sent).not.toContain(name);
  });

  it('swapped once the gate allowed it, before it is read: its path no longer leads to the folder opened, so it is refused', async () => {
    const s = swapCase({ link: 'a-link', folder: 'b-dir', swapped: 'b-dir', outside: '', at: join('case', 'b-dir') });
    const { files } = await walkPaths([s.dir], s.enter);
    expect(rel(s.dir, files)).toEqual(['a-link/one.json', 'b-dir']);
  });
});

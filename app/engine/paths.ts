/**
 * Expands command-line paths into the artifacts to check. It imports no artifact kind, so
 * the CLI can walk a batch's directories on its main thread while worker threads load the
 * engine (app/engine/run.ts re-exports it for everyone else).
 */
import { stat } from 'node:fs/promises';
import { normalize, sep } from 'node:path';
import { UsageError } from '../core/errors.js';
import { cannotOpen } from '../core/files.js';
import { isJournalDir, isJournalFile } from '../journal/layout.js';
import { openFolder, type EnterFolder } from './open-folder.js';

export type { EnterFolder } from './open-folder.js';

/**
 * Whether a directory is itself an artifact, listed as one by the walk: the test of the
 * directory kinds (app/kinds/registry.ts DIRECTORY_KINDS) without importing them. Today
 * that is the evidence journal, whose kind uses the same test (app/journal/layout.ts);
 * test/cli/paths.test.ts checks that this agrees with every directory kind's detectDir.
 */
export const isDirectoryArtifact: (dir: string) => Promise<boolean> = isJournalDir;

/**
 * Of an entry in a directory that is itself an artifact, whether that artifact answers for
 * it: a journal's own files (app/journal/layout.ts JOURNAL_FILES), which its verification
 * reads. The walk lists every other entry of such a directory, and walks every folder in it,
 * as it would anywhere else: a directory artifact is one artifact, never a place where other
 * files pass unseen.
 */
export const isDirectoryArtifactFile: (name: string) => boolean = isJournalFile;

async function statOrThrow(path: string) {
  try {
    return await stat(path);
  } catch (e) {
    throw cannotOpen(path, e);
  }
}

/**
 * Expands command-line paths into the artifacts to check, in a deterministic order:
 * each path in the order given; directories walked recursively, entries sorted by name
 * (UTF-16 code units); a directory that a directory kind claims is one artifact, listed
 * before the rest of what it holds (every entry but its own files, isDirectoryArtifactFile);
 * a directory that yields no file at all is a usage error.
 */
export async function expandPaths(paths: readonly string[]): Promise<string[]> {
  return (await walkPaths(paths)).files;
}

/** What a walk found: the artifacts, and every directory it visited (as `device:inode`, links followed). */
export interface Walked {
  files: string[];
  dirs: Set<string>;
}

/** expandPaths, with the directories visited: what a run writes must lie in none of them (a case's output). */
export async function walkPaths(paths: readonly string[], enter?: EnterFolder): Promise<Walked> {
  const walked: Walked = { files: [], dirs: new Set() };
  for (const p of paths) await expandOne(p, walked, enter);
  return walked;
}

async function expandOne(p: string, walked: Walked, enter: EnterFolder | undefined): Promise<void> {
  const { files: out } = walked;
  const st = await statOrThrow(p);
  if (!st.isDirectory()) {
    out.push(p);
    return;
  }
  const before = out.length;
  // Each path named is walked whole, even where an earlier one covered it.
  const seen = new Set<string>();
  await walkDir(p, out, seen, enter);
  for (const d of seen) walked.dirs.add(d);
  // A directory named for checking that yields nothing (an unmounted evidence share, a case
  // folder whose files were never copied) is refused, not passed: exit 0 with nothing checked
  // would read as "every artifact verified" in a pipeline.
  if (out.length === before) throw new UsageError(`${p} holds no file: there is nothing in it to check`, 'path');
}

/**
 * Walks a directory with one open and one readdir per directory (no stat per file but for
 * links); link loops are cut. Each folder is judged when it is opened (open-folder.ts), on
 * what was opened, whatever its parent's listing said. The walk is bounded: a directory is
 * entered once, and a path grows with each level until the system's limit on its length.
 */
async function walkDir(p: string, out: string[], seen: Set<string>, enter: EnterFolder | undefined): Promise<void> {
  const folder = await openFolder(p, seen, enter);
  if (folder === null) return;
  const whole = await isDirectoryArtifact(folder.from);
  const { entries } = folder;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // A directory artifact (a journal) is one artifact, and the rest of what it holds is walked
  // as usual: a file dropped beside a journal's own, or in a folder under it, is checked too.
  if (whole) out.push(p);
  const prefix = childPrefix(p);
  // Anything that is not a directory is listed, a FIFO, a device, a link to one or to
  // nothing, a loop of links too: the run refuses it with a one-line error (core/files.ts),
  // so that a batch never passes in silence over an entry it did not check.
  for (const e of entries) {
    const child = prefix + e.name;
    if (e.isDirectory() || (e.isSymbolicLink() && (await leadsToDirectory(child))))
      await walkSub(child, out, seen, enter);
    else if (!(whole && isDirectoryArtifactFile(e.name))) out.push(child);
  }
}

/**
 * A folder under the one named. One the walk cannot enter (not readable, a path longer
 * than the system allows, refused by the gate as it was opened) is listed as an entry, as a file is: the run then fails it as it
 * fails any path it cannot open, so that one bad folder is one error (in a case, one
 * RPR-CASE-002) and never stops the rest of the walk. The folder named is not: that it
 * cannot be walked at all is the user's to fix.
 */
async function walkSub(child: string, out: string[], seen: Set<string>, enter: EnterFolder | undefined): Promise<void> {
  try {
    await walkDir(child, out, seen, enter);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    out.push(child);
  }
}

/** Whether a link leads to a directory; one to nothing, or a loop, does not: it is listed, and its run says why. */
async function leadsToDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * What `join(dir, name)` puts before an entry name read from `dir` (a name holds no
 * separator and is never "." or ".."): the directory normalized once, instead of
 * normalizing every one of a large directory's paths. test/cli/paths.test.ts compares it
 * with join.
 */
export function childPrefix(dir: string): string {
  let base = normalize(dir);
  if (base.length > 1 && base.endsWith(sep)) base = base.slice(0, -1);
  if (base === '.') return '';
  return base.endsWith(sep) ? base : base + sep;
}

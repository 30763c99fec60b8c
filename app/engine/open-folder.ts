/**
 * One folder of the directory walk (engine/paths.ts), judged as what was really opened. The
 * walk goes down by name, and someone who may write in the folder walked can swap a folder
 * it listed, or one on its path, for a link to anywhere before the walk reads it: a listing
 * saying "directory" proves nothing about what opening that name reaches a moment later.
 */
import { constants, type Dirent, type Stats } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { UsageError } from '../core/errors.js';
import { READ_FLAGS } from '../core/files.js';

/**
 * Which folders the walk may enter, asked with the real path of each folder it opens, the
 * folder named included (the workbench's host: only those under a granted root, since the
 * walk follows links). One it may not is listed as an entry, as a folder it cannot read is,
 * so the run refuses it once and never lists what is in it.
 */
export type EnterFolder = (real: string) => Promise<boolean>;

/** A folder the walk may read: `from`, the path its entries were read by (its real path when gated). */
export interface OpenedFolder {
  from: string;
  entries: Dirent[];
}

// O_DIRECTORY: a FIFO or file swapped in for the folder fails at once, never blocks the walk.
const FOLDER_FLAGS = READ_FLAGS | (constants.O_DIRECTORY ?? 0);

/**
 * The entries of the folder at `p`, or null when `seen` (folders entered, `device:inode`)
 * holds the folder opened there. With a gate, the folder opened must be one it allows by its
 * real path, and that path must still name it once its entries are read: else a UsageError,
 * and the walk lists `p` alone, never a name of what it holds.
 */
export async function openFolder(
  p: string,
  seen: Set<string>,
  enter: EnterFolder | undefined,
): Promise<OpenedFolder | null> {
  const fh = await open(p, FOLDER_FLAGS).catch((e: unknown) => {
    throw unreadable(p, e);
  });
  try {
    const opened = await fh.stat();
    const id = `${opened.dev}:${opened.ino}`;
    if (seen.has(id)) return null;
    const from = enter ? await admitted(p, enter) : p;
    const entries = await readdir(from, { withFileTypes: true }).catch((e: unknown) => {
      throw unreadable(p, e);
    });
    // Node reads a folder by its path, never by the descriptor: the path must still name the
    // folder opened once read, so a swap made after the open shows, unless undone before this.
    if (enter && !(await names(from, opened))) throw refused(p);
    seen.add(id);
    return { from, entries };
  } finally {
    await fh.close();
  }
}

/** The real path of the folder at `p`, when the gate allows it. */
async function admitted(p: string, enter: EnterFolder): Promise<string> {
  const real = await realpath(p).catch((e: unknown) => {
    throw unreadable(p, e);
  });
  if (!(await enter(real))) throw refused(p);
  return real;
}

/** Whether `path` leads to the folder opened: by its identity, not its name, so a swap on the way shows. */
async function names(path: string, opened: Stats): Promise<boolean> {
  const st = await stat(path).catch(() => null);
  return st !== null && st.dev === opened.dev && st.ino === opened.ino;
}

function unreadable(p: string, e: unknown): UsageError {
  return new UsageError(`cannot read directory ${p}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`, 'path');
}

function refused(p: string): UsageError {
  return new UsageError(
    `refused: ${p} is outside the folders this walk may enter, or changed as it was opened; none of its names is listed`,
    'path',
  );
}

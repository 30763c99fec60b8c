/** The artifacts of a case folder: the batch walk's (engine/paths.ts), each with its path in the case. */
import { stat } from 'node:fs/promises';
import { sep } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { cannotOpen } from '../../core/files.js';
import { childPrefix, walkPaths, type EnterFolder } from '../paths.js';

export interface CaseFile {
  /** Where it is (the folder as given, joined with its entries). */
  path: string;
  /** Its path in the case: relative, `/` separators; `.` when the folder is itself an artifact (a journal). */
  rel: string;
}

/**
 * Every artifact of the folder, in the walk's order (names in code-unit order): a journal is
 * one artifact (`.` when the folder is one), and every other file in it and every folder
 * under it are artifacts of the case as anywhere else (engine/paths.ts).
 */
export async function caseFiles(dir: string, enter?: EnterFolder): Promise<CaseFile[]> {
  return (await caseWalk(dir, enter)).files;
}

/** What the walk of a case found. */
export interface CaseWalk {
  files: CaseFile[];
  /** Every folder the walk visited (`device:inode`, links followed): nothing the run writes may lie in one. */
  dirs: ReadonlySet<string>;
}

/** caseFiles, with the folders the walk visited. */
export async function caseWalk(dir: string, enter?: EnterFolder): Promise<CaseWalk> {
  const st = await stat(dir).catch((e: unknown) => {
    throw cannotOpen(dir, e);
  });
  if (!st.isDirectory()) throw new UsageError(`a case is a folder: ${dir} is not a directory`, 'path');
  const prefix = childPrefix(dir);
  const { files, dirs } = await walkPaths([dir], enter);
  return { files: files.map((path) => ({ path, rel: relativeOf(path, prefix) })), dirs };
}

function relativeOf(path: string, prefix: string): string {
  const rel = path.startsWith(prefix) && path.length > prefix.length ? path.slice(prefix.length) : '.';
  return sep === '/' ? rel : rel.split(sep).join('/');
}

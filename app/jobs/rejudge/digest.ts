/**
 * What places an artifact in its shard: the SHA-256 of its content. A file's is that of its
 * bytes (what its report names); a directory artifact's (a journal) is that of its tree.
 * Imports no engine code, so the CLI's main thread can digest options while threads judge.
 */
import { lstat, readdir, stat } from 'node:fs/promises';
import { hashBytes, hashFile, hashValue } from '../../core/hash.js';
import { readRegularFile } from '../../core/files.js';
import { sortNames } from '../../rejudge/index.js';

const SMALL = 1024 * 1024;

/**
 * The SHA-256 of a directory artifact (a journal), which has no bytes of its own: `H` of the
 * canonical JSON of its entries, each [relative name, SHA-256 of a regular file or the type of
 * anything else], in code-unit order of names, directories walked.
 */
export async function treeDigest(dir: string): Promise<string> {
  const entries: [string, string][] = [];
  const walk = async (d: string, prefix: string): Promise<void> => {
    const names = sortNames(await readdir(d));
    for (const n of names) {
      const p = `${d}/${n}`;
      const st = await lstat(p);
      if (st.isDirectory()) await walk(p, `${prefix}${n}/`);
      else
        entries.push([
          `${prefix}${n}`,
          st.isFile() ? await fileDigest(p, st.size) : st.isSymbolicLink() ? 'symlink' : 'special',
        ]);
    }
  };
  await walk(dir, '');
  return hashValue({ type: 'reprise.tree/v1', entries });
}

const fileDigest = async (path: string, size: number): Promise<string> =>
  size <= SMALL ? hashBytes(await readRegularFile(path, SMALL)) : hashFile(path);

/** The content digest of a listed path: a file's bytes, or a directory's tree. */
export async function contentDigest(path: string): Promise<string> {
  const st = await stat(path);
  return st.isDirectory() ? treeDigest(path) : fileDigest(path, st.size);
}

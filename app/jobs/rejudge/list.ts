/**
 * The list a re-judgement covers (docs/rejudge.md): a directory, walked as `verify` walks
 * one (app/engine/paths.ts), or a list file with one artifact per line, either a path or a
 * line of `sha256sum` output (`HASH  PATH`), whose hash then places the artifact in its
 * shard without reading it. An artifact's name is its path relative to the directory, or
 * as the list file wrote it (relative paths are read from the list file's directory), so
 * the same archive mounted elsewhere gives the same names and the same record.
 */
import { stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { formatHash } from '../../core/hash.js';
import { childPrefix, expandPaths } from '../../engine/paths.js';
import { linesOf, listDigest, sortNames, nameSome, type ListSpec } from '../../rejudge/index.js';

export interface ListItem {
  name: string;
  /** Where to read it on this machine. */
  path: string;
  /** The list's `sha256:` for it, when the list file gave one. */
  sha256?: string;
}

export interface ArtifactList {
  /** The directory or list file, absolute. */
  source: string;
  items: ListItem[];
  spec: ListSpec;
}

/** A `sha256sum` line: the hash, a space, a space or `*` (binary mode), the name; a leading `\` escapes the name. */
const SUM_LINE = /^(\\?)([0-9a-f]{64}) [ *](.+)$/;

/** A name the list may not hold: told as it is, not as a list that cannot be read. */
class RefusedName extends UsageError {}

/**
 * A name in the one spelling a directory's walk gives it (`./dumps//a/./b` is `dumps/a/b`):
 * `find . | xargs sha256sum` writes `./` before every name, and the list digest, the records
 * and `rejudge diff` match artifacts by name. A `..` segment is refused: `a/../b` would be a
 * second name of `b`, judged twice under two names; so is a name of no artifact below the
 * list's folder (`.`). `where`: the list and line, for the refusal.
 */
function normalName(name: string, where: string): string {
  const segments = name.split('/').filter((s) => s !== '' && s !== '.');
  const refused = segments.includes('..')
    ? 'has a .. segment'
    : segments.length === 0
      ? 'names no artifact (the folder itself)'
      : null;
  if (refused)
    throw new RefusedName(
      `the list ${where}: ${JSON.stringify(name)} ${refused}; name each artifact from the list's folder down, or by its absolute path`,
      'bad-file',
    );
  return (name.startsWith('/') ? '/' : '') + segments.join('/');
}

function parseListLine(text: string, base: string, where: string): ListItem | null {
  if (text.trim() === '') return null;
  const m = SUM_LINE.exec(text);
  const raw = m ? (m[1] ? m[3]!.replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\')) : m[3]!) : text;
  const name = normalName(raw, where);
  return { name, path: isAbsolute(name) ? name : resolve(base, name), ...(m ? { sha256: formatHash(m[2]!) } : {}) };
}

async function readListFile(file: string): Promise<ListItem[]> {
  const base = dirname(file);
  const items: ListItem[] = [];
  try {
    for await (const { text, line } of linesOf(file)) {
      const item = parseListLine(text, base, `${file} line ${line}`);
      if (item) items.push(item);
    }
  } catch (e) {
    if (e instanceof RefusedName) throw e;
    throw new UsageError(`cannot read the list ${file}: ${e instanceof Error ? e.message : String(e)}`, 'path');
  }
  return items;
}

async function readDirectory(dir: string): Promise<ListItem[]> {
  const prefix = childPrefix(dir);
  const paths = await expandPaths([dir]);
  // Listed first when it is (a journal, with whatever else lies in it): a list names it by its path.
  if (paths[0] === dir)
    throw new UsageError(`${dir} is itself an artifact (a directory kind): name it in a list file`, 'path');
  return paths.map((p) => ({ name: p.slice(prefix.length).split(sep).join('/'), path: p }));
}

/** Reads LIST_OR_DIR; two lines naming one artifact are a usage error that names it. */
export async function readList(arg: string): Promise<ArtifactList> {
  const source = resolve(arg);
  let isDir: boolean;
  try {
    isDir = (await stat(source)).isDirectory();
  } catch (e) {
    throw new UsageError(`cannot read ${arg}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`, 'path');
  }
  const items = isDir ? await readDirectory(source) : await readListFile(source);
  const names = sortNames(items.map((i) => i.name));
  const doubled = [...new Set(names.filter((n, i) => i > 0 && names[i - 1] === n))];
  if (doubled.length > 0)
    throw new UsageError(`the list names an artifact more than once: ${nameSome(doubled)}`, 'bad-file');
  if (items.length === 0) throw new UsageError(`${arg} lists no artifact`, 'bad-file');
  return { source, items, spec: { items: items.length, digest: listDigest(names) } };
}

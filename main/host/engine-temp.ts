/**
 * The engine's process makes every temporary folder of its own in one folder, named with its
 * pid, and names it to the shell first thing (engine-life.ts): `{engineTemp: path}`. The
 * shell recognises such folders by name: to remove the one its child names, and to keep a
 * path inside any of them off the recent-files list (recent-files.ts).
 */
import { realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, relative, sep } from 'node:path';

export const ENGINE_TEMP_PREFIX = 'reprise-engine-';

/** An engine's folder name: the prefix, the pid, and mkdtemp's six characters. */
const ENGINE_TEMP_NAME = new RegExp(`^${ENGINE_TEMP_PREFIX}\\d+-[A-Za-z0-9]{6}$`);

/**
 * Whether a folder a child named is one such folder: directly in the temporary directory,
 * named as engine-life.ts names it. The shell removes what its child names, so a child (an
 * engine an artifact subverted) cannot name any other folder to it.
 */
export function isEngineTemp(path: unknown): path is string {
  return typeof path === 'string' && dirname(path) === tmpdir() && ENGINE_TEMP_NAME.test(basename(path));
}

/**
 * Whether a real path lies inside an engine's folder (this shell's child's or any other's):
 * compared with the temporary directory both as named and as its real path (on macOS the
 * one is a link to the other).
 */
export async function insideEngineTemp(real: string): Promise<boolean> {
  const bases = [tmpdir(), await realpath(tmpdir()).catch(() => tmpdir())];
  return bases.some((base) => {
    const rel = relative(base, real);
    if (rel === '' || rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel)) return false;
    return ENGINE_TEMP_NAME.test(rel.split(sep)[0]!);
  });
}

/**
 * What a command writes never lands on what it reads: `reprise diff`'s `--html` and a
 * manifest's replay's `--out` (docs/compare.md) on an artifact compared, a file inside an
 * artifact that is a folder (a journal's entries), or a file an option names
 * (`--trust-store`, `--providers`, `--journal`…); `rejudge`'s shard file, record and
 * records file on the archive (the folder, an artifact a list file names, a file inside
 * one), a shard merged, the signing key (docs/rejudge.md). Checked by real path before
 * anything is read or run, so a refusal writes nothing; a kind's own check is not enough,
 * as it knows only the artifact it replays.
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { isWithin } from '../../core/files.js';
import { declaredOptions } from '../../kinds/registry.js';

/** A path the command reads, and how the refusal names it. */
export interface Read {
  path: string;
  named: string;
}

/** Where a path is: its real path (through links; a file not there yet, its folder's), its device and inode. */
async function whereIs(p: string): Promise<{ real: string; id: string | null; dir: boolean }> {
  try {
    const s = await stat(p, { bigint: true });
    return { real: await realpath(p), id: `${s.dev}:${s.ino}`, dir: s.isDirectory() };
  } catch {
    const parent = await realpath(dirname(resolve(p))).catch(() => dirname(resolve(p)));
    return { real: join(parent, basename(p)), id: null, dir: false };
  }
}

/** The real path of folder `dir`, kept in `folders`: a list holds many files per folder. */
async function realFolder(dir: string, folders: Map<string, string>): Promise<string> {
  const real = await realpath(dir).catch(() => dir);
  folders.set(dir, real);
  return real;
}

/**
 * Refuses `out` when it is one of the artifacts a list names (`paths`, absolute, as the list
 * resolves them) or lies inside one (a journal's entries: a file written there changes its
 * tree): a list file may name files anywhere. Both are compared as spelled and through the
 * real paths of their folders, so a link to a folder on either path does not hide a match;
 * an artifact is not itself resolved, which would touch every file of a list whose shards
 * read only their own.
 */
export async function refuseWriteOnListed(flag: string, out: string, paths: Iterable<string>): Promise<void> {
  const o = await whereIs(out);
  const outs = [resolve(out), o.real];
  // startsWith first: a cheap filter before isWithin, over lists of millions.
  const holds = (item: string) => outs.some((x) => x.startsWith(item) && isWithin(item, x));
  const folders = new Map<string, string>();
  for (const p of paths) {
    const dir = dirname(p);
    const real = folders.get(dir) ?? (await realFolder(dir, folders));
    const hit = [p, ...(real === dir ? [] : [join(real, basename(p))])].find(holds);
    if (hit === undefined) continue;
    const what = outs.includes(hit) ? 'an artifact the list names' : `inside ${p}, an artifact the list names`;
    throw new UsageError(`${flag} ${out} is ${what}; Reprise never overwrites its input`);
  }
}

/** Whether `out` is `input` (its path, real path, or device and inode: a hard link) or lies inside it. */
async function lands(out: string, input: string): Promise<'is' | 'inside' | null> {
  const [o, i] = [await whereIs(out), await whereIs(input)];
  if (resolve(out) === resolve(input) || o.real === i.real || (o.id !== null && o.id === i.id)) return 'is';
  // As spelled too: a link to a folder elsewhere, inside the input, is still the input's.
  return i.dir && (isWithin(i.real, o.real) || isWithin(resolve(input), resolve(out))) ? 'inside' : null;
}

/**
 * The files and folders the options given name for reading: every declared option taking a
 * path but `--out`, which replay writes. A folder is named a folder (`the --journal folder`).
 */
export function optionReads(values: Record<string, unknown>): Read[] {
  const reads = declaredOptions().filter((o) => o.flag !== 'out' && /FILE|DIR|PATH/.test(o.arg));
  return reads.flatMap((o) => {
    const named = `the --${o.flag} ${o.path === 'directory' ? 'folder' : 'file'}`;
    return [values[o.flag]].flat().flatMap((v) => (typeof v === 'string' ? [{ path: v, named }] : []));
  });
}

/**
 * Refuses each output (`flag`, `path`) that is, or lies inside, one of `reads`: in words,
 * `--out x is the --key file; Reprise never overwrites its input`.
 */
export async function refuseWritesOn(outputs: readonly [string, unknown][], reads: readonly Read[]): Promise<void> {
  for (const [flag, path] of outputs) {
    if (typeof path !== 'string') continue;
    for (const r of reads) {
      const where = await lands(path, r.path);
      if (where === null) continue;
      const what = where === 'is' ? r.named : `inside ${r.path}, ${r.named}`;
      throw new UsageError(`${flag} ${path} is ${what}; Reprise never overwrites its input`);
    }
  }
}

/**
 * Refuses `--out` with two artifacts (it holds one manifest's comparison; the second replay
 * would overwrite the first's), and `--html` or `--out` naming anything the command reads,
 * or the other output.
 */
export async function refuseOutputsOnInputs(values: Record<string, unknown>, positionals: string[]): Promise<void> {
  const out = values['out'];
  if (typeof out === 'string' && positionals.length !== 1)
    throw new UsageError(
      `--out holds one TG replay comparison: give one manifest (${positionals.length} artifacts were given)`,
    );
  const named = (artifact: string): Read[] => [
    ...positionals.map((p) => ({ path: p, named: artifact })),
    ...optionReads(values),
  ];
  const outFile = typeof out === 'string' ? [{ path: out, named: 'the --out file' }] : [];
  await refuseWritesOn([['--html', values['html']]], [...named('one of the artifacts compared'), ...outFile]);
  await refuseWritesOn([['--out', out]], named('the artifact being replayed'));
}

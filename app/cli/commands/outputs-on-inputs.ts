/**
 * What a command writes never lands on what it reads: `reprise diff`'s `--html` and a
 * manifest's replay's `--out` (docs/compare.md) on an artifact compared, a file inside an
 * artifact that is a folder (a journal's entries), or a file an option names
 * (`--trust-store`, `--providers`, `--journal`…); `rejudge`'s shard file, record and
 * records file on the archive, a shard merged, the signing key (docs/rejudge.md). Checked
 * by real path before anything is read or run, so a refusal writes nothing; a kind's own
 * check is not enough, as it knows only the artifact it replays.
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
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

/**
 * Refuses `out` when it is one of the artifacts a list names (`paths`, as the list resolves
 * them): a list file may name files anywhere, and its entries are compared by path, resolved
 * and real, so a rejudge's shard file never replaces an artifact it judges.
 */
export async function refuseWriteOnListed(flag: string, out: string, paths: Iterable<string>): Promise<void> {
  const o = await whereIs(out);
  const spelled = resolve(out);
  for (const p of paths)
    if (resolve(p) === spelled || resolve(p) === o.real)
      throw new UsageError(`${flag} ${out} is an artifact the list names; Reprise never overwrites its input`);
}

/** Whether `out` is `input` (its path, real path, or device and inode: a hard link) or lies inside it. */
async function lands(out: string, input: string): Promise<'is' | 'inside' | null> {
  const [o, i] = [await whereIs(out), await whereIs(input)];
  if (resolve(out) === resolve(input) || o.real === i.real || (o.id !== null && o.id === i.id)) return 'is';
  const rel = relative(i.real, o.real);
  return i.dir && rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? 'inside' : null;
}

/** The files the options given name for reading: every declared option taking a path but `--out`, which replay writes. */
export function optionReads(values: Record<string, unknown>): Read[] {
  const reads = declaredOptions().filter((o) => o.flag !== 'out' && /FILE|DIR|PATH/.test(o.arg));
  return reads.flatMap((o) =>
    [values[o.flag]].flat().flatMap((v) => (typeof v === 'string' ? [{ path: v, named: `the --${o.flag} file` }] : [])),
  );
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

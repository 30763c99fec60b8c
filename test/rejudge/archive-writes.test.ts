/**
 * A rejudge never writes into the archive it judges (found by a red team): a merge's
 * `--records` replaced an artifact a `--list` file names; a merge without `--list` wrote
 * inside the folder its shards' header says was judged; a shard run's `--out` landed inside
 * a journal the list names, changing its tree. Each is refused (exit 3) with nothing
 * written. `reprise` runs in this process, from the sources (cliIn).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliIn, examplesIn } from '../cli/in-process.js';
import { makeKeys, tmp, type Keys } from '../journal/helpers.js';

let work: string;
let ex: string;
let keys: Keys;
/** A list file in the examples naming two files and a journal's folder. */
let list: string;
/** A shard of the list, and one of a folder (`arch`) judged whole. */
let listShard: string;
let arch: string;
let archShard: string;

const reprise = (...args: string[]) => cliIn(work, ...args);
const judge = async (source: string, out: string) => {
  const r = await reprise('rejudge', source, '--out', out, '--trust-store', join(ex, 'dumps', 'trust-store.json'));
  return r;
};
const merge = (shard: string, ...extra: string[]) =>
  reprise('rejudge', 'merge', shard, '--key', keys.reviewerPem, ...extra);
/** The names and bytes of every file under `dir`: what a refusal must leave as it was. */
const tree = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => `${join(e.parentPath, e.name)} ${readFileSync(join(e.parentPath, e.name), 'base64')}`)
    .sort();

beforeAll(async () => {
  work = tmp('reprise-rejudge-writes-');
  ex = await examplesIn('reprise-rejudge-writes-ex-');
  mkdirSync(join(work, 'keys'));
  keys = makeKeys(join(work, 'keys'));
  list = join(ex, 'list.txt');
  writeFileSync(list, 'dumps/intact.dump.json\ndumps/providers.json\njournal/sample\n');
  listShard = join(work, 'list.jsonl');
  expect((await judge(list, listShard)).code).toBe(0);
  arch = join(work, 'arch');
  mkdirSync(join(arch, 'dumps'), { recursive: true });
  writeFileSync(join(arch, 'dumps', 'intact.dump.json'), readFileSync(join(ex, 'dumps', 'intact.dump.json')));
  archShard = join(work, 'arch.jsonl');
  expect((await judge(arch, archShard)).code).toBe(0);
});

describe('rejudge merge: the record and records file never land in the archive', () => {
  it('refuses --records on an artifact the --list file names, and leaves it as it was', async () => {
    const providers = join(ex, 'dumps', 'providers.json');
    const before = readFileSync(providers, 'utf8');
    const r = await merge(listShard, '--out', join(work, 'a.json'), '--records', providers, '--list', list);
    expect(r.code, r.err).toBe(3);
    expect(r.err).toContain(`--records ${providers} is an artifact the list names`);
    expect(readFileSync(providers, 'utf8')).toBe(before);
    expect(existsSync(join(work, 'a.json'))).toBe(false);
  });

  it("refuses --out inside a journal the --list file names, or the shards' header names (no --list)", async () => {
    const journal = join(ex, 'journal', 'sample');
    const before = tree(journal);
    for (const extra of [['--list', list], []]) {
      const r = await merge(listShard, '--out', join(journal, 'rec.json'), ...extra);
      expect(r.code, r.err).toBe(3);
      expect(r.err).toContain(`is inside ${journal}, an artifact the list names`);
    }
    expect(tree(journal)).toEqual(before);
  });

  it("refuses --out and --records inside the folder the shards' header says was judged, without --list", async () => {
    const before = tree(arch);
    for (const flag of ['--out', '--records']) {
      const inside = join(arch, 'dumps', 'rec.json');
      const other = join(work, flag === '--out' ? 'r.jsonl' : 'r.json');
      const args = flag === '--out' ? ['--out', inside, '--records', other] : ['--out', other, '--records', inside];
      const r = await merge(archShard, ...args);
      expect(r.code, r.err).toBe(3);
      expect(r.err).toContain(`${flag} ${inside} is inside ${arch}, the list the shards judged`);
      expect(existsSync(other)).toBe(false);
    }
    expect(tree(arch)).toEqual(before);
  });

  it('refuses --out through a link in the judged folder to a folder elsewhere (the walk follows it)', async () => {
    const elsewhere = join(work, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(arch, 'linked'));
    const out = join(arch, 'linked', 'rec.json');
    const r = await merge(archShard, '--out', out);
    expect(r.code, r.err).toBe(3);
    expect(r.err).toContain(`--out ${out} is inside ${arch}, the list the shards judged`);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('still writes a record and records file outside the archive', async () => {
    const r = await merge(
      listShard,
      '--out',
      join(work, 'ok.json'),
      '--records',
      join(work, 'ok.jsonl'),
      '--list',
      list,
    );
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(work, 'ok.json'))).toBe(true);
  });
});

describe('rejudge (a shard run): --out never lands inside an artifact the list names', () => {
  it('refuses --out inside a listed journal, spelled as it is or through a link to its folder', async () => {
    const journal = join(ex, 'journal', 'sample');
    const before = tree(journal);
    symlinkSync(journal, join(work, 'to-journal'));
    for (const out of [join(journal, 'new.jsonl'), join(work, 'to-journal', 'new.jsonl')]) {
      const r = await judge(list, out);
      expect(r.code, r.err).toBe(3);
      expect(r.err).toContain(`--out ${out} is inside ${journal}, an artifact the list names`);
    }
    expect(tree(journal)).toEqual(before);
  });
});

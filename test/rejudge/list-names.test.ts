/**
 * A list file's names are spelled as a directory's walk spells them (found by a red team):
 * the docs' `find . … | xargs sha256sum` list wrote `./dumps/…`, so its record differed from
 * the directory's and `rejudge diff` of the two saw every artifact only in one of them, none
 * changed. A leading `./`, a repeated `/` and a `./` segment are dropped; `..` is refused.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliIn, examplesIn } from '../cli/in-process.js';
import { makeKeys, tmp, type Keys } from '../journal/helpers.js';
import { readList } from '../../app/jobs/rejudge/list.js';

let work: string;
let ex: string;
let keys: Keys;
/** A folder of three dumps, two of them in a subfolder. */
let arch: string;

beforeAll(async () => {
  work = tmp('reprise-rejudge-names-');
  ex = await examplesIn('reprise-rejudge-names-ex-');
  mkdirSync(join(work, 'keys'));
  keys = makeKeys(join(work, 'keys'));
  arch = join(work, 'arch');
  mkdirSync(join(arch, 'dumps', 'fail'), { recursive: true });
  for (const f of ['intact.dump.json', 'fail/revoked-key.dump.json', 'fail/key-order.dump.json'])
    copyFileSync(join(ex, 'dumps', f), join(arch, 'dumps', f));
});

/** A list file `name` in `dir` holding `lines`. */
const listFile = (dir: string, name: string, lines: string[]): string => {
  const p = join(dir, name);
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
};

describe('list names', () => {
  it("drop a leading ./, a repeated / and a ./ segment: the names and digest are the directory's", async () => {
    const dir = await readList(arch);
    const spelled = listFile(work, 'spelled.txt', [
      './arch/dumps/intact.dump.json',
      'arch//dumps/fail/revoked-key.dump.json',
      'arch/./dumps/./fail/key-order.dump.json',
    ]);
    const l = await readList(spelled);
    expect(l.items.map((i) => i.name).sort()).toEqual(dir.items.map((i) => `arch/${i.name}`).sort());
    expect(l.items.map((i) => i.path).sort()).toEqual(dir.items.map((i) => i.path).sort());
    const own = listFile(arch, 'own.txt', [
      './dumps/intact.dump.json',
      './/dumps/fail/revoked-key.dump.json',
      'dumps/fail/./key-order.dump.json',
    ]);
    expect((await readList(own)).spec).toEqual(dir.spec);
    rmSync(own);
  });

  it('refuse a .. segment and a name of the folder itself, naming the line', async () => {
    for (const [lines, why] of [
      [
        ['dumps/intact.dump.json', 'dumps/fail/../intact.dump.json'],
        /line 2: "dumps\/fail\/\.\.\/intact\.dump\.json" has a \.\. segment/,
      ],
      [['../arch/dumps/intact.dump.json'], /line 1: .* has a \.\. segment/],
      [['./'], /line 1: "\.\/" names no artifact/],
    ] as const) {
      const file = listFile(work, 'bad.txt', [...lines]);
      await expect(readList(file)).rejects.toThrow(why);
    }
  });

  it("the docs' sha256sum recipe makes the record the directory made", async () => {
    const trust = join(ex, 'dumps', 'trust-store.json');
    const record = async (source: string, name: string) => {
      const shard = join(work, `${name}.jsonl`);
      const out = join(work, `${name}.json`);
      const j = await cliIn(work, 'rejudge', source, '--out', shard, '--trust-store', trust);
      expect(j.code, j.err).toBe(0);
      const m = await cliIn(work, 'rejudge', 'merge', shard, '--key', keys.reviewerPem, '--out', out);
      expect(m.code, m.err).toBe(0);
      return readFileSync(out, 'utf8');
    };
    const fromDir = await record(arch, 'dir');
    // As docs/rejudge.md gives it, run in the archive's folder.
    const sums = spawnSync('sh', ['-c', 'find . -type f ! -path ./list.txt -print0 | xargs -0 sha256sum > list.txt'], {
      cwd: arch,
    });
    expect(sums.status).toBe(0);
    expect(readFileSync(join(arch, 'list.txt'), 'utf8')).toContain('  ./dumps/');
    expect(await record(join(arch, 'list.txt'), 'sums')).toBe(fromDir);
  });
});

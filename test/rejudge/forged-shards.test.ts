/**
 * A shard file is not signed, and the merge signs what it holds: a shard edited with its
 * trailer made again must not be signed as the archive's record (found by a red team):
 * a verdict made PASS beside its failing rules is refused, as is a header whose list was
 * made without a failing artifact when `--list` names the archive. And what a run writes
 * never lands on what it reads: the record on its own signing key, a shard merged, the
 * records file, an artifact of the archive judged.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../journal/helpers.js';
import { archive, ok, type Archive } from './helpers.js';

let a: Archive;
let whole = '';
beforeAll(() => {
  a = archive('reprise-rejudge-forged-');
  whole = join(a.dir, 'whole.jsonl');
  ok(['rejudge', a.examples, '--out', whole, '--trust-store', a.trust]);
}, 120_000);

type Rec = { path: string; verdict: string; rules: { rule: string; severity: string }[] };
const sha = (s: string): string => `sha256:${createHash('sha256').update(s).digest('hex')}`;

/** The shard file's lines with `edit` applied to its records and header, its trailer made again (what anyone can do). */
function rewritten(edit: (header: Record<string, unknown>, recs: string[]) => string[]): string {
  const lines = readFileSync(whole, 'utf8').split('\n').slice(0, -1);
  const header = JSON.parse(lines[0]!) as Record<string, unknown>;
  const recs = edit(header, lines.slice(1, -1));
  const trailer = { end: { records: recs.length, digest: sha(recs.map((l) => `${l}\n`).join('')) } };
  const out = join(a.dir, `forged-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(out, [JSON.stringify(header), ...recs, JSON.stringify(trailer)].join('\n') + '\n');
  return out;
}

const merge = (files: string[], extra: string[] = []) =>
  cli(['rejudge', 'merge', ...files, '--key', a.keys.reviewerPem, '--out', join(a.dir, 'rec.json'), ...extra]);

describe('a forged shard file', () => {
  it('a verdict made PASS beside its failing rules is refused, nothing signed', () => {
    let flipped = '';
    const f = rewritten((_h, recs) =>
      recs.map((l) => {
        const r = JSON.parse(l) as Rec;
        if (flipped || r.verdict !== 'fail') return l;
        flipped = r.path;
        return l.replace('"verdict":"fail"', '"verdict":"pass"');
      }),
    );
    const r = merge([f]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('verdict pass is not the one its rules make (fail)');
    expect(cli(['verify', join(a.dir, 'rec.json')]).status).toBe(3);
  });

  it('a header whose list was made without a failing artifact is refused when --list names the archive', () => {
    let dropped = '';
    const f = rewritten((h, recs) => {
      const kept = recs.filter((l) => {
        const r = JSON.parse(l) as Rec;
        if (dropped || r.verdict !== 'fail') return true;
        dropped = r.path;
        return false;
      });
      const names = kept.map((l) => (JSON.parse(l) as Rec).path).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      const list = h['list'] as { items: number; digest: string };
      list.items = names.length;
      list.digest = sha(names.map((n) => `${JSON.stringify(n)}\n`).join(''));
      return kept;
    });
    // Without --list the shards' word is all the merge has (docs/rejudge.md says so).
    expect(merge([f]).status).toBe(0);
    const r = merge([f], ['--list', a.examples]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('is not the one the shards say they judged');
    expect(r.stderr).toContain(JSON.stringify(dropped));
  });
  it('a file that is not UTF-8 is said to be so, not by a decoder error code', () => {
    const bytes = readFileSync(whole);
    const bad = join(a.dir, 'latin1.jsonl');
    writeFileSync(bad, Buffer.concat([bytes.subarray(0, 40), Buffer.from([0xff, 0xfe]), bytes.subarray(40)]));
    const r = merge([bad]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${bad}: line 1 or after it is not UTF-8 text (a shard file is JSON Lines)`);
    expect(r.stderr).not.toContain('ERR_');
  });
});

describe('shards of two runs', () => {
  it('names the odd file out as of another run, whichever order the files are given in', () => {
    const [s0, s1, odd] = ['s0.jsonl', 's1.jsonl', 'odd.jsonl'].map((f) => join(a.dir, f));
    ok(['rejudge', a.examples, '--shard', '0/2', '--out', s0!, '--trust-store', a.trust]);
    ok(['rejudge', a.examples, '--shard', '1/2', '--out', s1!, '--trust-store', a.trust]);
    ok(['rejudge', a.examples, '--shard', '1/2', '--out', odd!]);
    const r = merge([odd!, s0!, s1!]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${odd} is shard 1/2 of another run than ${s0}: their N, list or options differ`);
    expect(r.stderr).not.toMatch(/shard \d\/2 is missing/);
  }, 120_000);
});

describe('what rejudge writes', () => {
  it('never lands on the signing key, a shard merged, the records file or an artifact judged', () => {
    const shard = join(a.dir, 'copy.jsonl');
    copyFileSync(whole, shard);
    const keyBefore = readFileSync(a.keys.reviewerPem);
    const shardBefore = readFileSync(shard);
    const out = join(a.dir, 'r.json');
    const cases: [string[], RegExp][] = [
      [
        ['--out', a.keys.reviewerPem],
        /--out \S+ is the --key file \(the signing key\); Reprise never overwrites its input/,
      ],
      [['--out', shard], /--out \S+ is a shard file being merged;/],
      [['--out', out, '--records', shard], /--records \S+ is a shard file being merged;/],
      [['--out', out, '--records', out], /--out \S+ is the --records file;/],
    ];
    for (const [flags, why] of cases) {
      const r = cli(['rejudge', 'merge', shard, '--key', a.keys.reviewerPem, ...flags]);
      expect(r.status, flags.join(' ')).toBe(3);
      expect(r.stderr).toMatch(why);
    }
    // '-' is no file here: it wrote a file named '-'.
    for (const args of [
      ['rejudge', a.examples, '--out', '-'],
      ['rejudge', 'merge', shard, '--key', a.keys.reviewerPem, '--out', '-'],
      ['rejudge', 'merge', shard, '--key', a.keys.reviewerPem, '--out', out, '--records', '-'],
    ]) {
      const r = cli(args, { cwd: a.dir });
      expect(r.status, args.join(' ')).toBe(3);
      expect(r.stderr).toMatch(/names the file .* is written to; '-' \(standard output\) is not one here/);
    }
    expect(existsSync(join(a.dir, '-'))).toBe(false);
    expect(readFileSync(a.keys.reviewerPem)).toEqual(keyBefore);
    expect(readFileSync(shard)).toEqual(shardBefore);
    const inside = join(a.examples, 'examples.json');
    const before = readFileSync(inside);
    const r = cli(['rejudge', a.examples, '--out', inside]);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/--out \S+ is inside \S+, the list being judged; Reprise never overwrites its input/);
    // A list file naming an artifact anywhere: its shard file never replaces it.
    const listFile = join(a.dir, 'list.txt');
    const dump = join(a.examples, 'dumps', 'intact.dump.json');
    writeFileSync(listFile, `${dump}\n`);
    const named = cli(['rejudge', listFile, '--out', dump]);
    expect(named.status).toBe(3);
    expect(named.stderr).toMatch(/is an artifact the list names; Reprise never overwrites its input/);
    expect(readFileSync(inside)).toEqual(before);
  });
});

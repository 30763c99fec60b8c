/**
 * `reprise rejudge`: one list judged inline, in 4 shards (given in any order), with
 * `--workers 2`, and from a sha256sum list: the same signed record, byte for byte; shards that
 * do not cover the list exactly once name what is missing or doubled; `reprise verify`
 * recognises the record and checks it against its shards.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../journal/helpers.js';
import { archive, ok, type Archive } from './helpers.js';
import { expandPaths } from '../../app/engine/paths.js';
import { sortNames } from '../../app/rejudge/index.js';

let a: Archive;
let shards: string[];
beforeAll(() => {
  a = archive();
  shards = [0, 1, 2, 3].map((i) => join(a.dir, `shard-${i}.jsonl`));
  for (const [i, s] of shards.entries())
    ok(['rejudge', a.examples, '--shard', `${i}/4`, '--out', s, '--trust-store', a.trust]);
});

const merge = (files: string[], out: string, code = 0, extra: string[] = []) => {
  const r = cli(['rejudge', 'merge', ...files, '--key', a.keys.reviewerPem, '--out', out, ...extra]);
  expect(r.status, r.stderr).toBe(code);
  return r;
};

describe('reprise rejudge: deterministic shards', () => {
  it('inline, 4 shards in any order, --workers 2 and a sha256sum list make the same record', async () => {
    const inline = join(a.dir, 'inline.jsonl');
    ok(['rejudge', a.examples, '--out', inline, '--trust-store', a.trust]);
    merge([inline], join(a.dir, 'r-inline.json'));
    merge([shards[2]!, shards[0]!, shards[3]!, shards[1]!], join(a.dir, 'r-4.json'), 0, [
      '--records',
      join(a.dir, 'all.jsonl'),
    ]);
    const threads = join(a.dir, 'threads.jsonl');
    ok(['rejudge', a.examples, '--out', threads, '--workers', '2', '--trust-store', a.trust]);
    merge([threads], join(a.dir, 'r-threads.json'));
    // A list in sha256sum's format, lines in another order, names relative to the list's directory.
    const all = await expandPaths([a.examples]);
    const files = all.filter((p) => statSync(p).isFile());
    const dirs = all.filter((p) => statSync(p).isDirectory());
    const sums = [...files]
      .reverse()
      .map((p) => `${createHash('sha256').update(readFileSync(p)).digest('hex')}  ${p.slice(a.examples.length + 1)}`);
    writeFileSync(
      join(a.examples, 'list.txt'),
      [...sums, ...dirs.map((d) => d.slice(a.examples.length + 1))].join('\n') + '\n',
    );
    // (list.txt is in the examples folder but not in its own list, so the list is the same one.)
    const listed = [0, 1].map((i) => join(a.dir, `listed-${i}.jsonl`));
    for (const [i, s] of listed.entries())
      ok(['rejudge', join(a.examples, 'list.txt'), '--shard', `${i}/2`, '--out', s, '--trust-store', a.trust]);
    rmSync(join(a.examples, 'list.txt'));
    merge(listed, join(a.dir, 'r-listed.json'));
    const bytes = ['r-inline', 'r-4', 'r-threads', 'r-listed'].map((n) =>
      readFileSync(join(a.dir, `${n}.json`), 'utf8'),
    );
    expect(new Set(bytes).size).toBe(1);
    expect(readFileSync(join(a.dir, 'all.jsonl'), 'utf8')).toBe(readFileSync(inline, 'utf8'));
    const record = JSON.parse(bytes[0]!) as { records: { count: number }; verdicts: Record<string, number> };
    expect(record.records.count).toBe(files.length + dirs.length);
    expect(record.verdicts['error']).toBe(0);
  });

  it("names a missing shard's artifacts, a dropped record and a doubled shard; writes nothing then", () => {
    const out = join(a.dir, 'never.json');
    const missing = merge([shards[0]!, shards[1]!, shards[3]!], out, 1);
    expect(missing.stderr).toMatch(/RPR-REJUDGE-012: shard 2\/4 is missing/);
    const inShard2 = readFileSync(shards[2]!, 'utf8')
      .split('\n')
      .slice(1, -2)
      .map((l) => (JSON.parse(l) as { path: string }).path);
    expect(missing.stderr).toContain(`not judged by any shard: ${JSON.stringify(sortNames(inShard2)[0])}`);
    const lines = readFileSync(shards[1]!, 'utf8').split('\n');
    const dropped = (JSON.parse(lines[3]!) as { path: string }).path;
    const cut = join(a.dir, 'cut.jsonl');
    writeFileSync(cut, [...lines.slice(0, 3), ...lines.slice(4)].join('\n'));
    const r = merge([shards[0]!, cut, shards[2]!, shards[3]!], out, 1);
    expect(r.stderr).toMatch(/the trailer counts \d+ records; the file holds/);
    expect(r.stderr).toContain(`not judged by any shard: ${JSON.stringify(dropped)}`);
    const twice = merge([...shards, shards[1]!], out, 1);
    expect(twice.stderr).toMatch(/shard 1\/4 is given 2 times/);
    const inShard1 = lines.slice(1, -2).map((l) => (JSON.parse(l) as { path: string }).path);
    expect(twice.stderr).toContain(`would judge again: ${JSON.stringify(sortNames(inShard1)[0])}`);
    expect(cli(['verify', out]).status).toBe(3);
  });

  it('reprise verify recognises the record and checks it against its shard files', () => {
    const rec = join(a.dir, 'r-verify.json');
    merge(shards, rec);
    const withShards = shards.flatMap((s) => ['--shards', s]);
    const v = JSON.parse(ok(['verify', rec, '--trust-store', a.keys.trustPath, ...withShards, '--json'])) as {
      artifact: { kind: string };
      verdict: string;
      authenticity: { status: string };
    };
    expect([v.artifact.kind, v.verdict, v.authenticity.status]).toEqual(['rejudgement', 'pass', 'trusted-signer']);
    // Three of four shards: the record is not what they make.
    const partial = JSON.parse(
      ok(['verify', rec, '--trust-store', a.keys.trustPath, ...withShards.slice(0, 6), '--json'], 1),
    ) as { findings: { rule: string }[] };
    expect(partial.findings.map((f) => f.rule)).toEqual(expect.arrayContaining(['RPR-REJUDGE-012', 'RPR-REJUDGE-015']));
    // A count changed after signing: the signature no longer verifies.
    const doc = JSON.parse(readFileSync(rec, 'utf8')) as { verdicts: Record<string, number> };
    doc.verdicts['pass']! += 1;
    doc.verdicts['fail']! -= 1;
    writeFileSync(join(a.dir, 'edited.json'), JSON.stringify(doc));
    const e = JSON.parse(
      ok(['verify', join(a.dir, 'edited.json'), '--trust-store', a.keys.trustPath, '--json'], 1),
    ) as { findings: { rule: string }[] };
    expect(e.findings.map((f) => f.rule)).toContain('RPR-REJUDGE-002');
    // No trust store: who signed cannot be decided.
    expect(cli(['verify', rec]).status).toBe(2);
  });

  it('refuses bad usage with one line and exit 3', () => {
    for (const [args, why] of [
      [['rejudge', a.examples, '--out', join(a.dir, 'x.jsonl'), '--shard', '4/4'], /--shard takes I\/N/],
      [['rejudge', a.examples], /--out FILE/],
      [['rejudge', join(a.dir, 'nope')], /cannot read|--out/],
      [['rejudge', 'merge', shards[0]!], /--key FILE/],
      [['rejudge', a.examples, '--queue', 'http://x/y'], /--queue takes redis:/],
      [['rejudge', 'diff', shards[0]!], /diff takes OLD and NEW/],
      // No Redis on port 1: one line at once, never a worker retrying for ever or a stack trace.
      [['worker', '--queue', 'redis://127.0.0.1:1/q'], /cannot reach Redis at 127\.0\.0\.1:1/],
      [['rejudge', a.examples, '--queue', 'redis://127.0.0.1:1/q'], /cannot reach Redis/],
      [
        [
          'rejudge',
          'merge',
          '--queue',
          'redis://127.0.0.1:1/q',
          '--wait',
          '--key',
          a.keys.reviewerPem,
          '--out',
          join(a.dir, 'x.json'),
        ],
        /cannot reach Redis/,
      ],
    ] as const) {
      const r = cli([...args]);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(3);
      expect(r.stderr).not.toMatch(/\n\s+at |Unhandled error|^Error:/m);
      expect(r.stderr.trim().split('\n')[0]).toMatch(why);
    }
  });
});

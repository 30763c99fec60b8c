/**
 * `reprise diff A --replay`: a recorded number the artifact writes beyond double precision is
 * compared by its literal against the replayed value, as two files are (docs/compare.md,
 * Numbers). The engine's report holds its own parse's doubles, so it was compared as the
 * double and called "identical", exit 0 (found by a red team: a dump, a TG manifest and an
 * ACGP EVAL). Where the artifact writes that double in two ways, which one the comparison
 * holds cannot be told: never identical, UNAVAILABLE with why.
 */
import { mkdtempSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessCli } from '../helpers/in-process-cli.js';
import { writeExamples } from '../../app/examples/index.js';
import type { DiffResult } from '../../shared/diff.js';

const tmp = mkdtempSync(join(tmpdir(), 'reprise-diff-replay-literals-'));
const ex = join(tmp, 'ex');
beforeAll(() => writeExamples(ex), 60_000);
afterAll(() => rm(tmp, { recursive: true, force: true }));

const diff = (...args: string[]) => inProcessCli(tmp, ['diff', ...args]);

/** `from` with `was` (which it holds exactly once) written as `now`, saved as `name`. */
async function lossy(from: string, was: string, now: string, name: string): Promise<string> {
  const text = await readFile(join(ex, from), 'utf8');
  expect(text.split(was)).toHaveLength(2);
  const path = join(tmp, name);
  await writeFile(path, text.replace(was, now));
  return path;
}

describe('diff --replay of a recorded number written beyond double precision', () => {
  it('a signed dump: its recorded log-probability by its literal, against the replayed double, exit 1', async () => {
    const dump = await lossy(
      'dumps/intact.dump.json',
      '-1.6931163626091097,',
      '-1.69311636260910970000001,',
      'dump-lossy.json',
    );
    const flags = [
      '--trust-store',
      join(ex, 'dumps/trust-store.json'),
      '--providers',
      join(ex, 'dumps/providers.json'),
    ];
    const text = await diff(dump, '--replay', ...flags);
    expect(text.code, text.out + text.err).toBe(1);
    expect(text.out).not.toContain('identical');
    expect(text.out).toContain(
      '-1.69311636260910970000001 → -1.6931163626091097  (as written: beyond double precision',
    );
    const json = await diff(dump, '--replay', '--json', ...flags);
    expect((JSON.parse(json.out) as DiffResult).identical).toBe(false);
    // Its intact twin still replays identical: nothing else changed.
    const intact = await diff(join(ex, 'dumps/intact.dump.json'), '--replay', ...flags);
    expect(intact.out).toContain('identical: no difference');
    expect(intact.code).toBe(0);
  });

  it('an ACGP EVAL: its recorded ctq_score by its literal, exit 1', async () => {
    const text = await readFile(join(ex, 'acgp/trace-clean.jsonl'), 'utf8');
    const first = text.split('\n')[0]!;
    expect(first).toContain('"ctq_score":0.9495');
    const path = join(tmp, 'eval-lossy.json');
    await writeFile(path, first.replace('"ctq_score":0.9495', '"ctq_score":0.94950000000000000001'));
    const r = await diff(path, '--replay');
    expect(r.code, r.out + r.err).toBe(1);
    expect(r.out).toContain('0.94950000000000000001 → 0.9495  (as written: beyond double precision');
  });

  it('a TG manifest writing the same double a second way elsewhere: not identical, UNAVAILABLE with why', async () => {
    // The manifest holds 0.7269999999999999 as its output's value and again as the claim's trustScore.
    const manifest = await lossy(
      'tg/exact-intact/manifest.json',
      '"value": 0.7269999999999999',
      '"value": 0.72699999999999990000001',
      'tg-lossy.json',
    );
    const r = await diff(manifest, '--replay', '--trust-store', join(ex, 'tg/trust-store.json'));
    expect(r.code, r.out + r.err).toBe(2);
    expect(r.out).not.toContain('identical: no difference');
    expect(r.out).toContain('no difference between their doubles');
    expect(r.out).toContain(
      'recorded number(s) equal a number the artifact writes both beyond double precision and as its double',
    );
    expect(r.out).toContain('the replay is not called identical');
    const json = await diff(manifest, '--replay', '--json', '--trust-store', join(ex, 'tg/trust-store.json'));
    expect(json.code).toBe(2);
    expect((JSON.parse(json.out) as DiffResult).identical).toBe(false);
  });
});

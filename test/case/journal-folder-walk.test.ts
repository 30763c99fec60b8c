/**
 * A folder holding an `entries.jsonl` is a journal, one artifact; the walk still reads the
 * folder (docs/case.md, "What is in a case"): every file in it that is not one of the
 * journal's own (app/journal/layout.ts JOURNAL_FILES) and every folder under it is walked as
 * usual, so a failing dump put beside a journal's files is verified, listed and fails the
 * batch and the case instead of passing unseen.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expandPaths } from '../../app/engine/paths.js';
import { caseFiles } from '../../app/engine/case/walk.js';
import { writeExamples } from '../../app/examples/index.js';
import { openCase } from '../../app/journal/index.js';
import { ENTRIES_FILE, JOURNAL_FILES } from '../../app/journal/layout.js';
import { makeKeys, tmp, type Keys } from '../journal/helpers.js';
import { runCli } from '../helpers/cli.js';

type CaseOut = { verdict: string; artifacts: { path: string; kind: string; verdict: string }[] };
type BatchReport = { artifact: { path: string; kind: string }; verdict: string };

let root = '';
let ex = '';
let keys: Keys;
let trustPath = '';
let seq = 0;
const clock = () => Date.parse('2026-11-03T08:00:00Z');

beforeAll(async () => {
  root = tmp('reprise-journal-walk-');
  ex = join(root, 'examples');
  await writeExamples(ex);
  keys = makeKeys(root);
  // One trust store naming the examples' dump signers and the keys the journals here are signed with.
  type Store = { type: string; keys: unknown[] };
  const read = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Store;
  const dumps = read(join(ex, 'dumps', 'trust-store.json'));
  trustPath = join(root, 'trust-both.json');
  writeFileSync(trustPath, JSON.stringify({ ...dumps, keys: [...dumps.keys, ...read(keys.trustPath).keys] }));
}, 120_000);

const fresh = (): string => {
  const dir = join(root, `case-${seq++}`);
  mkdirSync(dir);
  return dir;
};
const intact = (to: string) => cpSync(join(ex, 'dumps', 'intact.dump.json'), to);
const failing = (to: string) => cpSync(join(ex, 'dumps', 'fail', 'altered-artifact.dump.json'), to);

/** A journal written by Reprise's writer: entries, checkpoints, notes, tree.bin, index.bin, state.json. */
async function realJournal(dir: string): Promise<void> {
  await openCase(dir, { claimRef: 'claim:2026-11-0107', reason: 'held for the reviewer' }, keys.officer, {
    clock,
    fsync: false,
  });
}

const trust = () => ['--trust-store', trustPath];

const batch = async (dir: string) => {
  const r = await runCli(['verify', dir, '--jsonl', ...trust()]);
  const reports = r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as BatchReport);
  return { code: r.code, reports, stderr: r.stderr };
};

const caseRun = async (dir: string) => {
  const r = await runCli(['verify', dir, '--case', '-', ...trust()]);
  return { code: r.code, report: JSON.parse(r.stdout) as CaseOut, stderr: r.stderr };
};

describe('the journal files (app/journal/layout.ts)', () => {
  it('are those docs/journal.md names in its layout', () => {
    expect([...JOURNAL_FILES].sort()).toEqual(
      [
        'checkpoints.jsonl',
        'cosignatures.jsonl',
        'entries.jsonl',
        'index.bin',
        'journal.lock',
        'notes.jsonl',
        'state.json',
        'tree.bin',
      ].sort(),
    );
    expect(JOURNAL_FILES).toContain(ENTRIES_FILE);
  });

  it('are every file name the journal writer and reader use', async () => {
    const format = await import('../../app/journal/format.js');
    const frontier = await import('../../app/journal/frontier.js');
    const names = Object.entries({ ...format, ...frontier })
      .filter(([k, v]) => k.endsWith('_FILE') && typeof v === 'string')
      .map(([, v]) => v as string);
    expect(names.length).toBeGreaterThanOrEqual(8);
    expect([...names].sort()).toEqual([...JOURNAL_FILES].sort());
  });
});

/** A folder made a journal by a stray entries.jsonl, holding an intact dump, a failing one and another in a subfolder. */
function strayFolder(): string {
  const dir = fresh();
  writeFileSync(join(dir, ENTRIES_FILE), '');
  intact(join(dir, 'intact.dump.json'));
  failing(join(dir, 'bad.dump.json'));
  mkdirSync(join(dir, 'more'));
  failing(join(dir, 'more', 'worse.dump.json'));
  return dir;
}

describe('a folder holding entries.jsonl and other files', () => {
  it('is walked past its journal: the journal, then every other file and folder in it (expandPaths, caseFiles)', async () => {
    const dir = strayFolder();
    expect(await expandPaths([dir])).toEqual([
      dir,
      join(dir, 'bad.dump.json'),
      join(dir, 'intact.dump.json'),
      join(dir, 'more', 'worse.dump.json'),
    ]);
    expect((await caseFiles(dir)).map((f) => f.rel)).toEqual([
      '.',
      'bad.dump.json',
      'intact.dump.json',
      'more/worse.dump.json',
    ]);
  });

  it('lists none of the journal files as an artifact of its own, but a folder of that name is walked', async () => {
    const dir = fresh();
    for (const name of JOURNAL_FILES) writeFileSync(join(dir, name), '');
    // A temp file the layout does not name is an artifact like any other file.
    writeFileSync(join(dir, 'state.json.tmp-1-abc'), '{}');
    const sub = fresh();
    writeFileSync(join(sub, ENTRIES_FILE), '');
    mkdirSync(join(sub, 'tree.bin'));
    failing(join(sub, 'tree.bin', 'x.dump.json'));
    expect(await expandPaths([dir])).toEqual([dir, join(dir, 'state.json.tmp-1-abc')]);
    expect(await expandPaths([sub])).toEqual([sub, join(sub, 'tree.bin', 'x.dump.json')]);
  });

  it('fails `reprise verify DIR` on the failing dumps, listing them', async () => {
    const dir = strayFolder();
    const { code, reports } = await batch(dir);
    const byPath = Object.fromEntries(reports.map((r) => [r.artifact.path, r.verdict]));
    expect(byPath[join(dir, 'bad.dump.json')]).toBe('fail');
    expect(byPath[join(dir, 'more', 'worse.dump.json')]).toBe('fail');
    expect(byPath[join(dir, 'intact.dump.json')]).toBe('pass');
    expect(reports.map((r) => r.artifact.path)).toContain(dir);
    expect(code).not.toBe(0);
  }, 60_000);

  it('is a case whose report lists them with their verdicts, and fails', async () => {
    const dir = strayFolder();
    const { code, report } = await caseRun(dir);
    expect(report.artifacts.map((a) => [a.path, a.kind, a.verdict])).toEqual([
      ['.', 'journal', expect.any(String)],
      ['bad.dump.json', 'replay-dump', 'fail'],
      ['intact.dump.json', 'replay-dump', 'pass'],
      ['more/worse.dump.json', 'replay-dump', 'fail'],
    ]);
    expect(report.verdict).toBe('fail');
    expect(code).not.toBe(0);
  }, 60_000);
});

describe('a real journal in a case', () => {
  it('is one artifact that passes, its own files never listed apart', async () => {
    const dir = fresh();
    await realJournal(join(dir, 'journal'));
    intact(join(dir, 'intact.dump.json'));
    const own = readdirSync(join(dir, 'journal')).sort();
    expect(own).toEqual(expect.arrayContaining(['entries.jsonl', 'checkpoints.jsonl', 'state.json', 'tree.bin']));
    const { code, report } = await caseRun(dir);
    expect(report.artifacts.map((a) => [a.path, a.kind, a.verdict])).toEqual([
      ['intact.dump.json', 'replay-dump', 'pass'],
      ['journal', 'journal', 'pass'],
    ]);
    expect(report.verdict).toBe('pass');
    expect(code).toBe(0);
    const { reports } = await batch(dir);
    expect(reports.map((r) => [r.artifact.path, r.verdict])).toEqual([
      [join(dir, 'intact.dump.json'), 'pass'],
      [join(dir, 'journal'), 'pass'],
    ]);
  }, 60_000);

  it('with a failing dump beside its files and in a folder under it: the journal stays one artifact, the dumps fail the case', async () => {
    const dir = fresh();
    const journal = join(dir, 'journal');
    await realJournal(journal);
    failing(join(journal, 'bad.dump.json'));
    mkdirSync(join(journal, 'more'));
    failing(join(journal, 'more', 'worse.dump.json'));
    const { code, report } = await caseRun(dir);
    expect(report.artifacts.map((a) => [a.path, a.kind, a.verdict])).toEqual([
      ['journal', 'journal', 'pass'],
      ['journal/bad.dump.json', 'replay-dump', 'fail'],
      ['journal/more/worse.dump.json', 'replay-dump', 'fail'],
    ]);
    expect(report.verdict).toBe('fail');
    expect(code).not.toBe(0);
    const b = await batch(dir);
    expect(b.reports.map((r) => [r.artifact.path, r.verdict])).toEqual([
      [journal, 'pass'],
      [join(journal, 'bad.dump.json'), 'fail'],
      [join(journal, 'more', 'worse.dump.json'), 'fail'],
    ]);
    expect(b.code).not.toBe(0);
  }, 60_000);

  it('is the case folder itself: the case lists the journal as `.` and the other files', async () => {
    const dir = fresh();
    await realJournal(dir);
    failing(join(dir, 'bad.dump.json'));
    const { report } = await caseRun(dir);
    expect(report.artifacts.map((a) => [a.path, a.kind, a.verdict])).toEqual([
      ['.', 'journal', 'pass'],
      ['bad.dump.json', 'replay-dump', 'fail'],
    ]);
    expect(report.verdict).toBe('fail');
  }, 60_000);

  it('is refused as a re-judgement list (a list file names it), not listed under an empty name', async () => {
    const dir = fresh();
    await realJournal(dir);
    failing(join(dir, 'bad.dump.json'));
    const { readList } = await import('../../app/jobs/rejudge/list.js');
    await expect(readList(dir)).rejects.toThrow(/is itself an artifact \(a directory kind\): name it in a list file/);
  }, 60_000);
});

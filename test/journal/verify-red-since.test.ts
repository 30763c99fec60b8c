/**
 * `journal verify --since HELD` (verifyJournalSince) reads only what came after the held
 * checkpoint, but never takes the derived files' word for what came before it: an entry
 * altered before the held size is not passed (the writer's identity check of the files
 * fails, the lines are hashed again and do not give the held root, and the caller verifies
 * in full), and the report says what vouched for the entries it did not re-read.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendEntry, verifyJournal, type Checkpoint } from '../../app/journal/index.js';
import { leafHash } from '../../app/journal/merkle.js';
import { verifyJournalSince } from '../../app/journal/verify.js';
import { makeKeys, tmp } from './helpers.js';

async function fourEntries() {
  const base = tmp('reprise-verify-since-');
  const keys = makeKeys(base);
  const dir = join(base, 'J');
  for (let i = 0; i < 4; i++)
    await appendEntry(dir, { kind: 'replay-drift', subject: { claimRef: 'claim:X' }, body: { x: 1 } }, keys.reviewer, {
      trustStore: keys.trust,
      fsync: false,
    });
  const held = JSON.parse(readFileSync(join(dir, 'checkpoints.jsonl'), 'utf8').split('\n')[2]!) as Checkpoint;
  expect(held.treeSize).toBe(3);
  return { dir, keys, held };
}

/** Entry line i (0-based) altered in place, outside any writer; the file's lines after it. */
function alter(dir: string, i: number): string[] {
  const path = join(dir, 'entries.jsonl');
  const lines = readFileSync(path, 'utf8').split('\n');
  lines[i] = lines[i]!.replace('"x":1', '"x":9');
  writeFileSync(path, lines.join('\n'));
  return lines;
}

const fails = (v: { findings: { severity: string }[] } | null) => v?.findings.some((f) => f.severity === 'fail');

describe('verify --since: what came before the held checkpoint', () => {
  it('an untouched journal: verified since, saying the files are as the last writer left them', async () => {
    const { dir, keys, held } = await fourEntries();
    const v = await verifyJournalSince(dir, held, keys.trust);
    expect(v).not.toBeNull();
    expect(fails(v)).toBe(false);
    expect(v!.findings.map((f) => f.message).join('\n')).toMatch(
      /Entries 1 to 3 were not parsed or signature-checked again: .*as the last writer left it/,
    );
  });

  it('an entry altered before the held size does not pass', async () => {
    const { dir, keys, held } = await fourEntries();
    alter(dir, 1);
    expect(fails(await verifyJournal(dir, keys.trust))).toBe(true);
    const v = await verifyJournalSince(dir, held, keys.trust);
    // Null: the lines do not give the held root, and the caller (the CLI) verifies in full, which fails.
    expect(v === null || fails(v)).toBe(true);
  });

  it('the same alteration with the tree.bin leaf made to agree is still found: the lines are hashed again', async () => {
    const { dir, keys, held } = await fourEntries();
    const lines = alter(dir, 1);
    // tree.bin's leaf of entry 1 (stored hash 1, tlog order) made the altered line's; its nodes kept.
    const tree = readFileSync(join(dir, 'tree.bin'));
    leafHash(lines[1]!).copy(tree, 32);
    writeFileSync(join(dir, 'tree.bin'), tree);
    const v = await verifyJournalSince(dir, held, keys.trust);
    expect(v === null || fails(v)).toBe(true);
  });

  it('a change after the held size (outside a writer): the lines before it are hashed again, and the change is found', async () => {
    const { dir, keys, held } = await fourEntries();
    alter(dir, 3);
    const v = await verifyJournalSince(dir, held, keys.trust);
    expect(v).not.toBeNull();
    expect(v!.findings.filter((f) => f.severity === 'fail').map((f) => f.pointer)).toContain('line:4');
    expect(v!.findings.map((f) => f.message).join('\n')).toMatch(
      /their lines were hashed again and give the held root/,
    );
  });
});

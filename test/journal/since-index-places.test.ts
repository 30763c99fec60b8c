/**
 * `journal verify --since HELD` when index.bin was edited: an edited index changes its
 * identity, so the state no longer vouches for it and the entries before the held size are
 * hashed again. Where the newer checkpoints and notes begin is then read from those files,
 * never from the index: a signed checkpoint or note forked after the held tree, which an
 * index pointing past it would have skipped, is read and fails.
 */
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkpointBody, signCheckpoint, signNote, type Checkpoint } from '../../app/journal/index.js';
import type { Keys } from './helpers.js';
import {
  holdCheckpoint,
  journalLines,
  journalOrigin,
  journalWithKeys,
  verifyCli,
  verifyJson,
  type Journal,
} from './witness-helpers.js';

/** Six entries; the third checkpoint (tree 3) held elsewhere. */
async function sixEntries(): Promise<Journal & { heldPath: string }> {
  const j = await journalWithKeys('reprise-since-places-', 6);
  return { ...j, heldPath: holdCheckpoint(j, 3) };
}

/** Checkpoint and note of tree 5 replaced by ones signed with the journal's key over another root. */
function forkTree5(dir: string, keys: Keys): void {
  const cps = journalLines(dir, 'checkpoints.jsonl');
  const cp = JSON.parse(cps[4]!) as Checkpoint;
  const forged = signCheckpoint(
    { rootHash: 'sha256:' + 'ab'.repeat(32), signer: cp.signer, timestampUtc: cp.timestampUtc, treeSize: 5 },
    keys.reviewer,
  );
  cps[4] = forged.line;
  writeFileSync(join(dir, 'checkpoints.jsonl'), cps.join('\n'));
  const notes = journalLines(dir, 'notes.jsonl');
  const origin = journalOrigin(dir);
  expect(origin).toMatch(/^reprise\.journal\//);
  notes[4] = JSON.stringify(signNote(checkpointBody(origin, 5, Buffer.alloc(32, 0xab)), origin, keys.reviewer));
  writeFileSync(join(dir, 'notes.jsonl'), notes.join('\n'));
}

/** Where line `k` (0-based) of a file starts. */
function offsetOfLine(dir: string, name: string, k: number): number {
  return journalLines(dir, name)
    .slice(0, k)
    .reduce((n, l) => n + Buffer.byteLength(l, 'utf8') + 1, 0);
}

/** index.bin's record of entry `seq` made to say that the checkpoints and notes covering it begin at line `k`. */
function pointIndexPast(dir: string, seq: number, k: number): void {
  const path = join(dir, 'index.bin');
  const b = readFileSync(path);
  const put = (i: number, v: number) => b.writeBigUInt64BE(BigInt(v), seq * 40 + i * 8);
  put(1, offsetOfLine(dir, 'checkpoints.jsonl', k));
  put(2, k);
  put(3, offsetOfLine(dir, 'notes.jsonl', k));
  put(4, k);
  writeFileSync(path, b);
}

const verifySince = (j: Journal & { heldPath: string }) => verifyJson(j, '--since', j.heldPath);

describe('verify --since with index.bin edited', () => {
  it('a signed checkpoint and note forked after the held tree are read, though the index points past them', async () => {
    const j = await sixEntries();
    forkTree5(j.dir, j.keys);
    // Entry 2 (the held tree's last) indexed as if its covering checkpoints and notes began at line 6.
    pointIndexPast(j.dir, 2, 5);
    const full = await verifyCli(j);
    expect(full.code).toBe(1);
    const v = await verifySince(j);
    expect(v.code, v.err).toBe(1);
    const failed = v.findings.filter((f) => f.severity === 'fail').map((f) => `${f.rule} ${f.pointer}`);
    expect(failed).toContain('RPR-JOURNAL-015 entry:checkpoints.jsonl:line:5');
    expect(failed).toContain('RPR-JOURNAL-041 entry:notes.jsonl:line:5');
  });

  it('an untouched journal whose files changed identity still verifies since the held tree, its lines hashed again', async () => {
    const j = await sixEntries();
    // Same bytes, new times: the state no longer vouches for the files.
    for (const f of ['checkpoints.jsonl', 'notes.jsonl', 'index.bin'])
      utimesSync(join(j.dir, f), new Date(), new Date());
    const v = await verifySince(j);
    expect(v.code, JSON.stringify(v.findings)).toBe(0);
    const said = v.findings.map((f) => f.message).join('\n');
    expect(said).toMatch(/their lines were hashed again and give the held root/);
    expect(said).not.toMatch(/verified in full/);
  });

  it('the index pointing before the held tree changes nothing: the lines for older trees are passed over', async () => {
    const j = await sixEntries();
    pointIndexPast(j.dir, 2, 0);
    const v = await verifySince(j);
    expect(v.code, JSON.stringify(v.findings)).toBe(0);
    expect(v.findings.map((f) => f.message).join('\n')).toMatch(/their lines were hashed again/);
  });
});

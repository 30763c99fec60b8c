/**
 * A witness never signs two roots for one origin and tree size, however many cosigns share
 * its state file at once: `journal cosign` holds the state's lock from reading it to signing,
 * and records the checkpoint in the state (merged with every other origin) before it signs. A
 * state that cannot be written, or whose lock is not Reprise's, is refused in one line
 * (exit 3) and nothing is added to the journal.
 */
import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendEntry } from '../../app/journal/writer.js';
import { cosignJournal } from '../../app/journal/witness.js';
import {
  cosignCli,
  journalOrigin,
  journalWithKeys,
  newWitness,
  type Journal,
  type Witness,
} from './witness-helpers.js';

/** A journal of 3 entries, and `F` beside it: a fork of it (same entry 0, so same origin; other entries 1 and 2). */
async function journalAndFork(prefix: string): Promise<Journal & { fork: string }> {
  const j = await journalWithKeys(prefix, 1);
  const fork = join(j.base, 'F');
  cpSync(j.dir, fork, { recursive: true });
  await j.append(2);
  for (const n of [1, 2])
    await appendEntry(
      fork,
      { kind: 'replay-drift', subject: { claimRef: `fork:${n}` }, body: { fork: n } },
      j.keys.reviewer,
      { trustStore: j.keys.trust, fsync: false },
    );
  return { ...j, fork };
}

/** Puts the fork where the journal was: the journal a witness is shown next has the same origin and size, another root. */
function swapInFork(j: Journal & { fork: string }): void {
  rmSync(j.dir, { recursive: true });
  renameSync(j.fork, j.dir);
}

const cosignatures = (j: Journal) => join(j.dir, 'cosignatures.jsonl');

describe('journal cosign: six journals cosigned at once with one --state', () => {
  it('remembers all six origins, so the witness refuses a fork of each', async () => {
    const journals = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => journalAndFork(`reprise-witness-six-${i}-`)));
    const w: Witness = newWitness(journals[0]!.base);
    const state = join(journals[0]!.base, 'witness-state.json');
    const runs = await Promise.all(journals.map((j) => cosignCli(j, w, '--state', state)));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0, 0, 0]);
    const held = JSON.parse(readFileSync(state, 'utf8')) as Record<string, { treeSize: number }>;
    expect(Object.keys(held).sort()).toEqual(journals.map((j) => journalOrigin(j.dir)).sort());
    expect(Object.values(held).map((c) => c.treeSize)).toEqual([3, 3, 3, 3, 3, 3]);
    expect(existsSync(`${state}.lock`)).toBe(false);
    for (const j of journals) {
      swapInFork(j);
      const r = await cosignCli(j, w, '--state', state);
      expect(r.code, r.err).toBe(1);
      expect(r.err).toMatch(/another root: the journal was rewritten or forked/);
      expect(existsSync(cosignatures(j))).toBe(false);
    }
  });
});

describe('journal cosign: a state that cannot be kept', () => {
  it('a --state in a folder that does not exist: one line, exit 3, nothing added to the journal', async () => {
    const j = await journalWithKeys('reprise-witness-nostate-', 3);
    const w = newWitness(j.base);
    const state = join(j.base, 'missing', 'st.json');
    const r = await cosignCli(j, w, '--state', state);
    expect(r.code).toBe(3);
    expect(r.err).toBe(
      `reprise: not cosigned: the witness state ${state} cannot be written (its folder does not exist (ENOENT)); a witness signs only what it remembers, so nothing was added to the journal\n`,
    );
    expect(existsSync(cosignatures(j))).toBe(false);
  });

  it('a memory that fails to record the checkpoint: the error stands and nothing is signed', async () => {
    const j = await journalWithKeys('reprise-witness-forget-', 3);
    const w = newWitness(j.base);
    const seen: boolean[] = [];
    const memory = {
      recall: () => null,
      remember: async () => {
        seen.push(existsSync(cosignatures(j)));
        throw new Error('the disk is full');
      },
    };
    await expect(cosignJournal(j.dir, w.name, w.signer, j.keys.trust, 1_800_000_000, memory)).rejects.toThrow(
      'the disk is full',
    );
    expect(seen).toEqual([false]);
    expect(existsSync(cosignatures(j))).toBe(false);
  });

  it('a lock on the state whose holder cannot be read: refused at once, exit 3, the lock kept, nothing added', async () => {
    const j = await journalWithKeys('reprise-witness-statelock-', 3);
    const w = newWitness(j.base);
    const state = join(j.base, 'st.json');
    writeFileSync(`${state}.lock`, 'not a lock\n');
    const r = await cosignCli(j, w, '--state', state);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(
      /^reprise: the witness state .*st\.json has a lock whose holder cannot be read \(.*st\.json\.lock: it is not JSON\); nothing was cosigned; check that no 'journal cosign' uses .*st\.json, then delete .*st\.json\.lock\n$/,
    );
    expect(readFileSync(`${state}.lock`, 'utf8')).toBe('not a lock\n');
    expect(existsSync(cosignatures(j))).toBe(false);
    expect(existsSync(state)).toBe(false);
  });
});

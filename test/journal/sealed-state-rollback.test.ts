/**
 * A state.json sealed by a key the trust store trusts says the journal held tree N with root R.
 * A journal cut back below N (its newest entries removed with their checkpoints and notes)
 * fails `journal verify` (RPR-JOURNAL-047), and no writer rebuilds the state over that record.
 * What must keep working: a journal copied without its state.json, a repaired torn tail, and a
 * state the store does not vouch for (stale or foreign).
 */
import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTrustStore } from '../../app/core/keys.js';
import { readState } from '../../app/journal/frontier.js';
import { sealedStateFinding } from '../../app/journal/sealed-state.js';
import { cliIn, examplesIn } from '../cli/in-process.js';

const RELEASE = 'officer reviewed the drift evidence and releases';
const UPHOLD = 'officer reviewed the drift evidence again and upholds';

interface Setup {
  base: string;
  j: string;
  trust: string;
  officer: string;
}

/** A copy of the sample journal in which the officer released case-5 (tree 7, state.json sealed by the officer). */
async function released(): Promise<Setup> {
  const base = await examplesIn('reprise-rollback-');
  const j = join(base, 'j');
  cpSync(join(base, 'journal', 'sample'), j, { recursive: true });
  const s = {
    base,
    j,
    trust: join(base, 'journal', 'trust-store.json'),
    officer: join(base, 'journal', 'keys', 'quarantine-officer.pem'),
  };
  const r = await decide(s, 'release', RELEASE);
  expect(r.code, r.err).toBe(0);
  return s;
}

const decide = (s: Setup, what: string, why: string) =>
  cliIn(s.base, 'quarantine', what, s.j, 'case-5', '--rationale', why, '--key', s.officer, '--trust-store', s.trust);
const verify = (s: Setup) => cliIn(s.base, 'journal', 'verify', s.j, '--trust-store', s.trust);

/** Removes the last line of each file the write appended to. */
function dropNewest(j: string): void {
  for (const f of ['entries.jsonl', 'checkpoints.jsonl', 'notes.jsonl']) {
    const lines = readFileSync(join(j, f), 'utf8').split('\n').slice(0, -2);
    writeFileSync(join(j, f), lines.map((l) => l + '\n').join(''));
  }
}

describe('a sealed state.json records a larger tree than the journal holds', () => {
  it('journal verify fails naming the sealed tree and the journal size; a writer refuses, writing nothing', async () => {
    const s = await released();
    const state = readFileSync(join(s.j, 'state.json'));
    dropNewest(s.j);
    const v = await verify(s);
    expect(v.code).toBe(1);
    expect(v.out).toMatch(/RPR-JOURNAL-047/);
    expect(v.out).toMatch(/records tree 7 with root sha256:[0-9a-f]{64}, but the journal holds 6 entries/);
    const entries = readFileSync(join(s.j, 'entries.jsonl'));
    const u = await decide(s, 'uphold', UPHOLD);
    expect(u.code).not.toBe(0);
    expect(u.err.trim().split('\n')).toHaveLength(1);
    expect(u.err).toMatch(/RPR-JOURNAL-047/);
    expect(u.err).toMatch(/Nothing was written/);
    expect(readFileSync(join(s.j, 'state.json'))).toEqual(state);
    expect(readFileSync(join(s.j, 'entries.jsonl'))).toEqual(entries);
  });

  it('a journal copied without its state.json verifies and takes the next decision', async () => {
    const s = await released();
    dropNewest(s.j);
    rmSync(join(s.j, 'state.json'));
    expect((await verify(s)).code).toBe(0);
    const u = await decide(s, 'uphold', UPHOLD);
    expect(u.code, u.err).toBe(0);
    expect((await verify(s)).code).toBe(0);
  });

  it('a torn tail left by a crash is repaired, and the journal verifies', async () => {
    const s = await released();
    appendFileSync(join(s.j, 'entries.jsonl'), '{"author":"ed25519:');
    const r = await cliIn(s.base, 'journal', 'repair', s.j, '--key', s.officer, '--trust-store', s.trust);
    expect(r.code, r.err).toBe(0);
    const v = await verify(s);
    expect(v.code, v.out).toBe(0);
    expect(v.out).not.toMatch(/RPR-JOURNAL-047/);
  });

  it('another root at the sealed size is named; a seal the store does not vouch for says nothing', async () => {
    const s = await released();
    const rec = await readState(s.j);
    const store = await loadTrustStore(s.trust);
    const keyOf = (id: string) => store.get(id);
    const other = Buffer.alloc(32, 7);
    const journal = { size: 7, firstHash: null, rootAt: () => other };
    expect(sealedStateFinding(rec, journal, keyOf)?.message).toMatch(
      /records tree 7 with root sha256:[0-9a-f]{64}, but the journal's root at tree 7 is sha256:(07){32}/,
    );
    expect(sealedStateFinding(rec, journal, () => undefined)).toBeNull();
    const shorter = { size: 6, firstHash: null, rootAt: () => other };
    expect(sealedStateFinding(rec, shorter, (id) => ({ ...store.get(id)!, status: 'revoked' }))).toBeNull();
  });
});

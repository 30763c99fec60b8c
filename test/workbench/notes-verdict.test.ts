/**
 * The workbench's listing of the journal worked in (main/host/judgement-ops.ts listJudgements)
 * carries the journal's verdict and its failing rules: a journal whose entries file was
 * tampered with (one character of a signature flipped) fails, and every note of it is only as
 * good as it; one whose tree no longer matches its checkpoint still lists its notes, each
 * without a proof, saying why. A folder that is no journal is said to be none, never an empty listing.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordNote } from '../../app/journal/notes.js';
import { listJudgements } from '../../main/host/judgement-ops.js';
import { makeKeys, tmp } from '../journal/helpers.js';

const A = `sha256:${'a'.repeat(64)}`;
const opts = { fsync: false };

async function twoNotes() {
  const base = tmp('reprise-notes-verdict-');
  const keys = makeKeys(base);
  const dir = join(base, 'journal');
  for (const which of ['first', 'second'])
    await recordNote(
      dir,
      { artifact: A, text: `The ${which} note on this artifact, written by the reviewer.` },
      keys.reviewer,
      keys.trust,
      opts,
    );
  return { base, dir, keys };
}

/** One base64 character flipped in the signature of the first line of `file`: the entry's `sig`, or its signed note's last signature line. */
function flipSignature(dir: string, file: 'entries.jsonl' | 'notes.jsonl'): void {
  const path = join(dir, file);
  const lines = readFileSync(path, 'utf8').split('\n');
  const n = 0; // the first entry, or the first checkpoint's signed note (not the latest, which proofs are checked under)
  const sig =
    file === 'entries.jsonl'
      ? (JSON.parse(lines[n]!) as { sig: string }).sig
      : /([A-Za-z0-9+/]{40,}=*)\\n"$/.exec(lines[n]!)![1]!;
  const i = sig.length - 10;
  const flipped = `${sig.slice(0, i)}${sig[i] === 'A' ? 'B' : 'A'}${sig.slice(i + 1)}`;
  lines[n] = lines[n]!.replace(sig, flipped);
  writeFileSync(path, lines.join('\n'));
}

describe("the workbench's listing of the journal worked in", () => {
  it("carries the journal's verdict: pass when it verifies", async () => {
    const { dir, keys } = await twoNotes();
    const l = await listJudgements({ dir, trustStore: keys.trustPath, artifact: A });
    expect(l.judgements).toHaveLength(2);
    expect(l.verdict).toBe('pass');
    expect(l.failures).toEqual([]);
    expect(l.failureCount).toBe(0);
  });

  it('carries FAIL and the failing rule when a signature of its signed notes was tampered with', async () => {
    const { dir, keys } = await twoNotes();
    flipSignature(dir, 'notes.jsonl');
    const l = await listJudgements({ dir, trustStore: keys.trustPath, artifact: A });
    expect(l.judgements).toHaveLength(2); // nothing recorded is hidden
    // Each entry's own proof still checks: only the journal's verdict says it cannot be relied on.
    expect(l.judgements.every((j) => j.proofVerified)).toBe(true);
    expect(l.verdict).toBe('fail');
    expect(l.failureCount).toBeGreaterThan(0);
    expect(l.failures[0]).toMatch(/^RPR-JOURNAL-\d{3}: /);
  });

  it("lists the notes, none proven, with the engine's words when an entry's signature was tampered with (its tree no longer matches)", async () => {
    const { dir, keys } = await twoNotes();
    flipSignature(dir, 'entries.jsonl');
    const l = await listJudgements({ dir, trustStore: keys.trustPath, artifact: A });
    expect(l.judgements).toHaveLength(2); // nothing recorded is hidden
    for (const j of l.judgements) {
      expect(j).toMatchObject({ proofBuilt: false, proofVerified: false });
      expect(j.proofFindings.join('\n')).toMatch(/does not match the journal/);
    }
    expect(l.verdict).toBe('fail');
    expect(l.failureCount).toBeGreaterThan(0);
    expect(l.failures[0]).toMatch(/^RPR-JOURNAL-\d{3}: /);
  });

  it('says a folder that does not exist is no journal, rather than listing nothing', async () => {
    const { base, keys } = await twoNotes();
    const missing = join(base, 'no-such-journal');
    await expect(listJudgements({ dir: missing, trustStore: keys.trustPath, artifact: A })).rejects.toThrow(
      /is not a journal/,
    );
    expect(existsSync(missing)).toBe(false); // listing creates nothing
  });
});

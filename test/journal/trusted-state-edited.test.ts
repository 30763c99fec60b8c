/**
 * An edited state.json is not trusted (docs/journal.md, "The trusted state"), whichever of its
 * fields is edited: the quarantine entries' seqs (the case fold reads only those) as much as the
 * tree size or the frontier. Editing only the derived state must not let a released case be
 * released a second time: the writer verifies in full, folds every case from the journal, and
 * refuses (RPR-QUAR-002). An honest state still gives the O(1) open.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { generateSigner, signBytes } from '../../app/core/keys.js';
import { JournalWriter, openCase, releaseCase, verifyJournal } from '../../app/journal/index.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { makeKeys, tmp, type Keys, releaseArgs } from './helpers.js';

const opts = { fsync: false };
const RAT = 'Model owner confirmed recalibration v2.3 reproduces exactly.';
const FILES = ['entries.jsonl', 'checkpoints.jsonl', 'notes.jsonl'];
const snapshot = (dir: string) => FILES.map((f) => readFileSync(join(dir, f), 'utf8'));

/** Rewrites state.json as a script would (its own JSON spelling): `edit` changes the parsed state. */
function editState(dir: string, edit: (s: Record<string, unknown>) => void): void {
  const p = join(dir, 'state.json');
  const s = JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
  edit(s);
  writeFileSync(p, JSON.stringify(s, null, 1));
}

/** A journal with case-0 opened by the reviewer and released by the officer, under the store. */
async function released(k: Keys): Promise<string> {
  const dir = join(tmp(), 'J');
  await openCase(dir, { claimRef: 'claim:A', reason: 'drift seen on the replayed score' }, k.reviewer, {
    ...opts,
    trustStore: k.trust,
  });
  const r = await releaseCase(dir, 'case-0', RAT, k.officer, k.trust, opts);
  expect(r.case.state).toBe('released');
  return dir;
}

async function fails(dir: string, k: Keys): Promise<string[]> {
  const v = await verifyJournal(dir, k.trust);
  return v.findings.filter((f) => f.severity === 'fail').map((f) => f.rule);
}

describe('editing only state.json', () => {
  it('the quarantine seqs edited to drop the release: a second release is refused (RPR-QUAR-002), nothing written, the journal still verifies', async () => {
    const k = makeKeys(tmp());
    const dir = await released(k);
    await expect(releaseCase(dir, 'case-0', RAT, k.officer, k.trust, opts)).rejects.toThrow(/RPR-QUAR-002/);
    editState(dir, (s) => (s['quarantine'] = [0]));
    const before = snapshot(dir);
    await expect(releaseCase(dir, 'case-0', `${RAT} twice`, k.officer, k.trust, opts)).rejects.toThrow(/RPR-QUAR-002/);
    expect(snapshot(dir)).toEqual(before);
    expect(await fails(dir, k)).toEqual([]);
  });

  it('the edit re-sealed by another key of the store (a trainer that did not sign the newest checkpoint) is not trusted', async () => {
    const trainer = generateSigner();
    const k = makeKeys(tmp(), [{ signer: trainer, role: 'trainer', status: 'active' }]);
    const dir = await released(k);
    const p = join(dir, 'state.json');
    const s = JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
    delete s['seal'];
    s['quarantine'] = [0];
    const sig = signBytes(trainer, Buffer.from(`reprise.journal-state-seal/v1\n${canonicalizeValue(s)}`, 'utf8'));
    writeFileSync(p, canonicalizeValue({ ...s, seal: { signer: trainer.keyId, sig } }) + '\n');
    await expect(releaseCase(dir, 'case-0', `${RAT} twice`, k.officer, k.trust, opts)).rejects.toThrow(/RPR-QUAR-002/);
    expect(await fails(dir, k)).toEqual([]);
  });

  it('the same edit written in canonical form (as the writer spells it) is caught too', async () => {
    const k = makeKeys(tmp());
    const dir = await released(k);
    const p = join(dir, 'state.json');
    const text = readFileSync(p, 'utf8');
    expect(text).toMatch(/"quarantine":\[0,1\]/);
    writeFileSync(p, text.replace('"quarantine":[0,1]', '"quarantine":[0]'));
    await expect(releaseCase(dir, 'case-0', `${RAT} twice`, k.officer, k.trust, opts)).rejects.toThrow(/RPR-QUAR-002/);
    expect(await fails(dir, k)).toEqual([]);
  });

  it('any field the write relies on, edited, sends the writer through a full verification; the honest state gives the O(1) open', async () => {
    const k = makeKeys(tmp());
    const dir = await released(k);
    // Opened by the officer, who signed the newest checkpoint (the release): the only key whose
    // seal the next writer takes, so its rebuild of an edited state is trusted again.
    const open = async () => {
      const w = await JournalWriter.open(dir, { ...opts, trustStore: k.trust, signer: k.officer });
      const by = w.verifiedBy;
      await w.close();
      return by;
    };
    expect(await open()).toBe('trusted-state');
    const edits: [string, (s: Record<string, unknown>) => void][] = [
      ['quarantine emptied', (s) => (s['quarantine'] = [])],
      ['quarantine with a seq added', (s) => (s['quarantine'] = [0, 1, 1])],
      ['origin', (s) => (s['origin'] = 'reprise.journal/' + '0'.repeat(32))],
      ['checkpoints line count', (s) => ((s['checkpointsEnd'] as { line: number }).line += 5)],
      ['notes line count', (s) => ((s['notesEnd'] as { line: number }).line = 0)],
    ];
    for (const [what, edit] of edits) {
      editState(dir, edit);
      expect(await open(), what).toBe('full-verification');
      expect(await open(), `${what}: rebuilt`).toBe('trusted-state');
    }
    expect(await fails(dir, k)).toEqual([]);
  });
});

describe.skipIf(!cliBuilt())('the CLI (the reproduction)', () => {
  it('quarantine release after state.json was edited to forget the release: exit 1, RPR-QUAR-002, the journal verifies', async () => {
    const k = makeKeys(tmp());
    const dir = join(tmp(), 'J');
    const release = (rationale: string) => runCli(releaseArgs(dir, k.officerPem, k.trustPath, rationale));
    const open = await runCli([
      'quarantine',
      'open',
      dir,
      '--claim',
      'claim:A',
      '--reason',
      'drift seen on the replayed score',
      '--key',
      k.reviewerPem,
      '--trust-store',
      k.trustPath,
    ]);
    expect(open.code, open.stderr).toBe(0);
    expect((await release(RAT)).code).toBe(0);
    expect((await release(RAT)).code).toBe(1);
    editState(dir, (s) => (s['quarantine'] = [0]));
    const twice = await release(`${RAT} twice`);
    expect(twice.code, twice.stdout).toBe(1);
    expect(twice.stderr).toMatch(/RPR-QUAR-002/);
    const v = await runCli(['journal', 'verify', dir, '--trust-store', k.trustPath]);
    expect(v.code, v.stdout).toBe(0);
  });
});

/**
 * A journal's origin statement names the key its failing signature check names: an entry by a
 * key the store does not list (RPR-JOURNAL-008), or has revoked (009), under a newest
 * checkpoint signed by a key it trusts, must not read as if that trusted key were unknown.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSigner } from '../../app/core/keys.js';
import { journalAuthenticity, journalResultAuthenticity } from '../../app/journal/authenticity.js';
import { journalKindResult } from '../../app/journal/result.js';
import { SIGNER_KEYS_KEPT, verifyJournalSince } from '../../app/journal/verify.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { appendEntry, verifyJournal } from '../../app/journal/index.js';
import { makeKeys, tmp } from './helpers.js';

const input = { kind: 'replay-drift' as const, subject: { claimRef: 'claim:x' }, body: { x: 1 } };

describe("a journal's origin statement", () => {
  it('names the unknown or revoked key, not the newest checkpoint signer', async () => {
    const revoked = generateSigner();
    const k = makeKeys(tmp(), [{ signer: revoked, role: 'reviewer', status: 'revoked' }]);
    for (const [name, odd, status] of [
      ['unknown', k.outsider, 'unknown-signer'],
      ['revoked', revoked, 'revoked-signer'],
    ] as const) {
      const dir = join(tmp(), name);
      await appendEntry(dir, input, odd, { fsync: false });
      await appendEntry(dir, input, k.reviewer, { fsync: false });
      const v = await verifyJournal(dir, k.trust);
      expect(v.latestCheckpoint?.signer).toBe(k.reviewer.keyId);
      const a = journalAuthenticity(v.findings, v.latestCheckpoint!.signer, true);
      expect(a.status).toBe(status);
      expect(a.statement).toContain(odd.keyId);
      expect(a.statement).not.toContain(k.reviewer.keyId);
    }
  });

  // A reviewer's and an officer's entries share one journal: one key named as the signer of
  // all of it says what was not checked.
  it('names every key that signed an entry or a checkpoint, and the latest checkpoint signer', async () => {
    const k = makeKeys(tmp());
    const dir = join(tmp(), 'two');
    await appendEntry(dir, input, k.officer, { fsync: false });
    await appendEntry(dir, input, k.reviewer, { fsync: false });
    const v = await verifyJournal(dir, k.trust);
    expect(v.signers).toEqual({ keys: [k.officer.keyId, k.reviewer.keyId].sort(), more: false, from: 0 });
    for (const a of [
      journalAuthenticity(v.findings, v.latestCheckpoint!.signer, true, v.signers),
      journalResultAuthenticity(journalKindResult(v)),
    ]) {
      expect(a.status).toBe('trusted-signer');
      expect(a.keyId).toBe(k.reviewer.keyId);
      expect(a.statement).toContain(`2 keys (${v.signers.keys.join(', ')})`);
      expect(a.statement).toContain(`the latest checkpoint is signed by ${k.reviewer.keyId}`);
    }
    const bare = await verifyJournal(dir, null);
    const a = journalResultAuthenticity(journalKindResult(bare));
    expect(a.status).toBe('unknown-signer');
    expect(a.statement).toContain(`is signed by 2 keys (${bare.signers.keys.join(', ')})`);
    expect(a.statement).toContain(`its latest checkpoint by ${k.reviewer.keyId}`);
  });

  it('keeps the one-key wording for a journal of one signer, and bounds the keys it names', async () => {
    const k = makeKeys(tmp());
    const dir = join(tmp(), 'one');
    await appendEntry(dir, input, k.reviewer, { fsync: false });
    const v = await verifyJournal(dir, k.trust);
    const a = journalResultAuthenticity(journalKindResult(v));
    expect(a.statement).toMatch(/^Trusted signer: every entry and checkpoint of the journal verifies under ed25519:/);
    const many = {
      keys: Array.from({ length: SIGNER_KEYS_KEPT }, (_, i) => `ed25519:${String(i).padStart(64, '0')}`),
      more: true,
      from: 0,
    };
    const m = journalAuthenticity(v.findings, v.latestCheckpoint!.signer, true, many);
    expect(m.statement).toContain(`more than ${SIGNER_KEYS_KEPT} keys (`);
    expect(m.statement).toContain(', and more)');
  });

  it("names the key whose signature does not verify, not the latest checkpoint's signer", async () => {
    const k = makeKeys(tmp());
    const dir = join(tmp(), 'bad');
    await appendEntry(dir, input, k.officer, { fsync: false });
    await appendEntry(dir, input, k.reviewer, { fsync: false });
    // The officer's entry carries the reviewer's entry signature: it does not verify under the officer's key.
    const path = join(dir, 'entries.jsonl');
    const lines = readFileSync(path, 'utf8').split('\n');
    const sigOf = (l: string) => (JSON.parse(l) as { sig: string }).sig;
    lines[0] = lines[0]!.replace(sigOf(lines[0]!), sigOf(lines[1]!));
    writeFileSync(path, lines.join('\n'));
    const v = await verifyJournal(dir, k.trust);
    const a = journalResultAuthenticity(journalKindResult(v));
    expect(a.status).toBe('bad-signature');
    expect(a.keyId).toBe(k.officer.keyId);
    expect(a.statement).toContain(`by ${k.officer.keyId} does not verify`);
  });

  it('says a --since verification covers what came after the held checkpoint only', async () => {
    const k = makeKeys(tmp());
    const dir = join(tmp(), 'since');
    await appendEntry(dir, input, k.officer, { fsync: false });
    const held = (await verifyJournal(dir, k.trust)).latestCheckpoint!;
    await appendEntry(dir, input, k.reviewer, { fsync: false });
    const v = (await verifyJournalSince(dir, held, k.trust))!;
    // The reviewer's entry and the checkpoints from the held one on were checked (the held one is
    // the officer's); the officer's entry before it rests on the held checkpoint.
    expect(v.signers).toEqual({ keys: [k.officer.keyId, k.reviewer.keyId].sort(), more: false, from: 1 });
    const a = journalResultAuthenticity(journalKindResult(v));
    expect(a.status).toBe('trusted-signer');
    expect(a.statement).toContain('every entry and checkpoint of the journal after the held checkpoint (tree 1;');
    expect(a.statement).not.toMatch(/every entry and checkpoint of the journal verifies/);
  });

  it(`names the ${SIGNER_KEYS_KEPT} first keys in order, whatever order they signed in`, async () => {
    const signers = Array.from({ length: SIGNER_KEYS_KEPT + 3 }, () => generateSigner());
    const k = makeKeys(
      tmp(),
      signers.map((signer) => ({ signer, role: 'reviewer' as const, status: 'active' as const })),
    );
    const dir = join(tmp(), 'many');
    for (const signer of signers) await appendEntry(dir, input, signer, { fsync: false, trustStore: k.trust });
    const v = await verifyJournal(dir, k.trust);
    const all = signers.map((x) => x.keyId).sort();
    expect(v.signers).toEqual({ keys: all.slice(0, SIGNER_KEYS_KEPT), more: true, from: 0 });
  });
});

/**
 * A journal's origin statement names the key its failing signature check names: an entry by a
 * key the store does not list (RPR-JOURNAL-008), or has revoked (009), under a newest
 * checkpoint signed by a key it trusts, must not read as if that trusted key were unknown.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSigner } from '../../app/core/keys.js';
import { journalAuthenticity } from '../../app/journal/authenticity.js';
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
});

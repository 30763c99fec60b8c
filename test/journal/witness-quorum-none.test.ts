/**
 * `quorum none` needs no cosignature (docs/journal-notes.md): a journal nobody cosigned meets
 * it on its newest checkpoint, and with a `log` line it still needs the log's signature on
 * that checkpoint's note.
 */
import { describe, expect, it } from 'vitest';
import { rawPublicKey } from '../../app/core/keys.js';
import { verifierKey } from '../../app/journal/index.js';
import { journalOrigin, journalWithKeys, verifyQuorum, writePolicy } from './witness-helpers.js';

async function uncosigned() {
  const j = await journalWithKeys('reprise-witness-none-', 2);
  const verify = (policyText: string) => verifyQuorum(j, writePolicy(j.base, policyText));
  return { k: j.keys, origin: journalOrigin(j.dir), verify };
}

describe('quorum none', () => {
  it('is met on the newest checkpoint without any cosignature', async () => {
    const j = await uncosigned();
    const v = await j.verify('quorum none\n');
    expect(v.code, JSON.stringify(v.findings)).toBe(0);
    expect(v.findings).toEqual([
      expect.objectContaining({
        severity: 'info',
        message: 'witness quorum "none" met on the newest checkpoint (tree 2): no cosignature needed',
      }),
    ]);
  });

  it("with a log line naming the journal's key: met; naming another key: not met", async () => {
    const j = await uncosigned();
    const own = await j.verify(`log ${verifierKey(j.origin, rawPublicKey(j.k.reviewer.publicKey))}\nquorum none\n`);
    expect(own.code, JSON.stringify(own.findings)).toBe(0);
    const other = await j.verify(`log ${verifierKey(j.origin, rawPublicKey(j.k.outsider.publicKey))}\nquorum none\n`);
    expect(other.code).toBe(1);
    expect(other.findings[0]!.message).toMatch(
      /the newest checkpoint, tree 2, lacks the signature of a log the policy names/,
    );
  });
});

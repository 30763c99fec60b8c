/**
 * A witness policy with `log` lines: one of those keys must have signed the checkpoint. The
 * quorum is weighed on the journal's own signed note of the tree (notes.jsonl, with the log's
 * signature) plus the cosignatures, so a policy naming the journal's key is met, and one
 * naming another key, or a tree without its note, falls short saying so.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawPublicKey } from '../../app/core/keys.js';
import { verifierKey } from '../../app/journal/index.js';
import {
  cosignCli,
  journalLines,
  journalOrigin,
  journalWithKeys,
  newWitness,
  verifyQuorum,
  writePolicy,
} from './witness-helpers.js';

async function witnessed() {
  const j = await journalWithKeys('reprise-witness-log-', 3);
  const w1 = newWitness(j.base);
  const origin = journalOrigin(j.dir);
  const policy = (logKey: Uint8Array) =>
    writePolicy(j.base, `log ${verifierKey(origin, logKey)}\n${w1.line}\nquorum w1\n`);
  const cosign = () => cosignCli(j, w1);
  const verify = (p: string) => verifyQuorum(j, p);
  return { base: j.base, dir: j.dir, k: j.keys, cosign, verify, policy };
}

describe('a witness policy with a log line', () => {
  it("naming the journal's own key: met, the log signature read from the tree's note", async () => {
    const j = await witnessed();
    expect((await j.cosign()).code).toBe(0);
    const v = await j.verify(j.policy(rawPublicKey(j.k.reviewer.publicKey)));
    expect(v.code, JSON.stringify(v.findings)).toBe(0);
    expect(v.findings).toEqual([
      expect.objectContaining({
        severity: 'info',
        message: expect.stringMatching(/met on the newest checkpoint \(tree 3\): cosigned by w1/),
      }),
    ]);
  });

  it('naming another key: not met, saying the log signature is lacking', async () => {
    const j = await witnessed();
    expect((await j.cosign()).code).toBe(0);
    const v = await j.verify(j.policy(rawPublicKey(j.k.outsider.publicKey)));
    expect(v.code).toBe(1);
    expect(v.findings).toEqual([
      expect.objectContaining({
        severity: 'fail',
        message: expect.stringMatching(/tree 3, lacks the signature of a log the policy names\)$/),
      }),
    ]);
  });

  it('a cosigned tree whose note is gone: not met, naming the missing note', async () => {
    const j = await witnessed();
    expect((await j.cosign()).code).toBe(0);
    const notes = journalLines(j.dir, 'notes.jsonl');
    writeFileSync(join(j.dir, 'notes.jsonl'), notes.slice(0, 2).join('\n') + '\n');
    const v = await j.verify(j.policy(rawPublicKey(j.k.reviewer.publicKey)));
    expect(v.code).toBe(1);
    expect(v.findings.at(-1)!.message).toMatch(
      /tree 3, lacks a log signature: notes\.jsonl holds no signed note of it\)$/,
    );
  });
});

/**
 * `journal verify --since HELD --witness-policy`: the verification since a held checkpoint
 * names the journal's origin (entry 0's hash, from what anchors it), so the cosignatures are
 * weighed. A cosignature on a tree before the held one is weighed when the tree continued from
 * the held checkpoint holds that tree's root, and otherwise said not weighed; never a crash.
 */
import { describe, expect, it } from 'vitest';
import {
  cosignCli,
  holdCheckpoint,
  journalWithKeys,
  newWitness,
  quorumOnly,
  verifyJson,
  writePolicy,
} from './witness-helpers.js';

async function journal() {
  const j = await journalWithKeys('reprise-witness-since-');
  const w1 = newWitness(j.base);
  const policy = writePolicy(j.base, `${w1.line}\nquorum w1\n`);
  const cosign = async () => {
    const r = await cosignCli(j, w1);
    expect(r.code, r.err).toBe(0);
  };
  /** `verify --since` the checkpoint of tree `size`, with the policy: the witness findings. */
  const verifySince = async (size: number) => {
    const v = await verifyJson(j, '--since', holdCheckpoint(j, size), '--witness-policy', policy);
    expect(v.findings.some((f) => /verified since the held checkpoint/.test(f.message))).toBe(true);
    return quorumOnly(v);
  };
  return { append: j.append, cosign, verifySince };
}

describe('verify --since with a witness policy', () => {
  it('a cosignature after the held checkpoint: the quorum is weighed, met on the newest', async () => {
    const j = await journal();
    await j.append(3);
    await j.cosign();
    await j.append(2);
    await j.cosign();
    const v = await j.verifySince(4);
    expect(v.code, JSON.stringify(v.findings)).toBe(0);
    expect(v.findings.at(-1)).toMatchObject({
      severity: 'info',
      message: expect.stringMatching(/met on the newest checkpoint \(tree 5\): cosigned by w1/),
    });
  });

  it('a cosignature only on a tree before the held one, whose root the continued tree lacks: said not weighed, a fail, no crash', async () => {
    const j = await journal();
    await j.append(3);
    await j.cosign();
    await j.append(2);
    const v = await j.verifySince(4);
    expect(v.code, v.err).toBe(1);
    expect(v.findings.map((f) => [f.severity, f.message])).toEqual([
      ['info', expect.stringMatching(/^1 cosignature line\(s\) are for trees before the held checkpoint \(tree 4\)/)],
      ['fail', expect.stringMatching(/no witness has cosigned one after the held checkpoint$/)],
    ]);
  });

  it('a cosignature on a tree before the held one whose root the held frontier gives: weighed', async () => {
    const j = await journal();
    await j.append(4);
    await j.cosign();
    await j.append(3);
    // The frontier of tree 6 is the blocks [0, 4) and [4, 6): tree 4's root is one of them.
    const v = await j.verifySince(6);
    expect(v.code, JSON.stringify(v.findings)).toBe(0);
    expect(v.findings).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: expect.stringMatching(/met on tree 4 \(cosigned by w1\), not on the newest checkpoint \(tree 7\)/),
      }),
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { demoJournal, evidenceDeltas, journalStatus } from '../../main/host/journal-ops.js';

describe("the officer's queue: evidence in exact decimals, the decisions and who may sign them", () => {
  it('a comparison in the evidence gets |replayed − original| exactly, held against the delta written', () => {
    const [d] = evidenceDeltas({
      comparison: {
        output: 'comp.TG.OUTPUT.CONFIDENCE-SCORE.v1_0',
        original: 0.7193599213366195,
        replayed: 0.6193599213366195,
        delta: 0.09999999999999998,
        epsilon: 0.03,
      },
    });
    expect(d).toEqual({
      pointer: '/comparison',
      output: 'comp.TG.OUTPUT.CONFIDENCE-SCORE.v1_0',
      original: '0.7193599213366195',
      replayed: '0.6193599213366195',
      written: '0.09999999999999998',
      exact: '0.1',
      agrees: false,
      epsilon: '0.03',
    });
    expect(evidenceDeltas({ a: [{ original: 0.3, replayed: 0.1, delta: 0.2 }] })[0]).toMatchObject({
      pointer: '/a/0',
      exact: '0.2',
      agrees: true,
    });
    // No comparison, or one nested past the bound: nothing listed, nothing thrown.
    expect(evidenceDeltas(null)).toEqual([]);
    let deep: unknown = { original: 1, replayed: 2 };
    for (let i = 0; i < 50; i++) deep = { x: deep };
    expect(evidenceDeltas(deep)).toEqual([]);
  });

  it("the training journal's case: Δ written as the exact decimal, the decisions open to it and the roles that sign them", async () => {
    const demo = await demoJournal();
    const st = await journalStatus({ dir: demo.dir, trustStore: demo.trustStore });
    const c = st.cases.find((x) => x.claimRef === 'claim:2026-11-0104')!;
    expect(c.deltas).toEqual([expect.objectContaining({ written: '0.1', exact: '0.1', agrees: true })]);
    expect(c.openHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(c.decisions).toEqual([
      { decision: 'release', to: 'released', roles: ['quarantine-officer'] },
      { decision: 'uphold', to: 'upheld', roles: ['quarantine-officer', 'reviewer'] },
      { decision: 'escalate', to: 'escalated', roles: ['quarantine-officer', 'reviewer'] },
    ]);
  });
});

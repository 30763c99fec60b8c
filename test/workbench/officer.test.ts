import { describe, expect, it } from 'vitest';
import { demoJournal, evidenceDeltas, journalStatus } from '../../main/host/journal-ops.js';
import type { CaseView, SigningKey } from '../../shared/api.js';
import { ageWords, keyRefusal, queueOf } from '../../renderer/src/lib/officer.js';

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
      floatRounding: true,
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

  const kase = (caseId: string, state: CaseView['state'], claimRef: string, openedAtUtc: string): CaseView => ({
    caseId,
    state,
    claimRef,
    artifact: null,
    source: 'routing',
    openedAtUtc,
    updatedAtUtc: openedAtUtc,
    evidence: null,
    history: [],
    decisions: [
      { decision: 'release', to: 'released', roles: ['quarantine-officer'] },
      { decision: 'uphold', to: 'upheld', roles: ['quarantine-officer', 'reviewer'] },
    ],
  });
  const cases = [
    kase('case-0', 'released', 'claim:b', '2026-11-01T00:00:00Z'),
    kase('case-3', 'open', 'claim:c', '2026-11-03T00:00:00Z'),
    kase('case-5', 'escalated', 'claim:a', '2026-11-02T00:00:00Z'),
    kase('case-7', 'open', 'claim:a-2', '2026-10-30T00:00:00Z'),
  ];
  const ids = (cs: CaseView[]) => cs.map((c) => c.caseId);

  it('the queue filters by state and claim and sorts by state, claim and age', () => {
    expect(ids(queueOf(cases, '', '', { key: 'state', dir: 'asc' }))).toEqual(['case-3', 'case-7', 'case-5', 'case-0']);
    expect(ids(queueOf(cases, 'open', '', { key: 'age', dir: 'asc' }))).toEqual(['case-7', 'case-3']);
    expect(ids(queueOf(cases, '', 'CLAIM:A', { key: 'claim', dir: 'desc' }))).toEqual(['case-7', 'case-5']);
    expect(ids(queueOf(cases, '', '', { key: 'age', dir: 'desc' }))).toEqual(['case-3', 'case-5', 'case-0', 'case-7']);
    // By instant, not text: "…:00Z" is before "…:00.5Z" of the same second ("." < "Z" as text).
    const second = [
      kase('case-1', 'open', 'x', '2026-11-04T00:00:00.5Z'),
      kase('case-2', 'open', 'y', '2026-11-04T00:00:00Z'),
    ];
    expect(ids(queueOf(second, '', '', { key: 'age', dir: 'asc' }))).toEqual(['case-2', 'case-1']);
    expect(ageWords('2026-11-01T00:00:00Z', Date.parse('2026-11-03T05:00:00Z'))).toBe('2 d');
    expect(ageWords('2026-11-03T04:10:00Z', Date.parse('2026-11-03T05:00:00Z'))).toBe('50 min');
    expect(ageWords('not a time', 0)).toBe('unknown');
    // Opened on a machine whose clock was ahead: said so, never "under a minute".
    expect(ageWords('2999-12-31T23:59:59Z', Date.parse('2026-12-04T10:00:00Z'))).toBe(
      'dated 355408 d after this clock (in the future)',
    );
    expect(ageWords('2026-11-03T05:50:00Z', Date.parse('2026-11-03T05:00:00Z'))).toBe(
      'dated 50 min after this clock (in the future)',
    );
    expect(ageWords('2026-11-03T05:00:30Z', Date.parse('2026-11-03T05:00:00Z'))).toBe('under a minute');
  });

  it('a reviewer key is refused before the click for a release, not for an uphold; a key the store does not name is left to the engine', () => {
    const key = (role: string | null): SigningKey => ({
      path: '/keys/reviewer.key.pem',
      keyId: 'ed25519:x',
      role,
      label: role ? 'Rita' : null,
      status: null,
    });
    const c = cases[1]!;
    expect(keyRefusal(c, 'release', key('reviewer'))).toBe(
      "The chosen key (Rita) is a reviewer key in the journal's trust store; a release is signed only with a quarantine-officer key. Choose one in the journal header (Signing key).",
    );
    expect(keyRefusal(c, 'uphold', key('reviewer'))).toBeNull();
    expect(keyRefusal(c, 'release', key('quarantine-officer'))).toBeNull();
    expect(keyRefusal(c, 'release', key(null))).toBeNull();
    expect(keyRefusal(c, 'release', undefined)).toBeNull();
  });
});

/**
 * RPR-NEM-041: what upstream's replay refuses before its kernel runs (TsatsuAmable/nemosyne
 * src/session/InvestigationReplayRunner.ts replayPayload, read at c95a15d), on a V2 with no
 * investigation digest, where nothing else would catch it (found by a red team: each passed).
 * Its consistent counterparts pass.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { buildPackageParts, packPackage } from '../../app/kinds/nemosyne/package-writer.js';
import { rules, supportDir, verify } from './helpers.js';

const support = supportDir();

type Obj = Record<string, unknown>;
const j = (v: unknown): Buffer => Buffer.from(JSON.stringify(v), 'utf8');

/** A V2 package without a digest, carrying `files`, its commands and manifest as given. */
function pkg(opts: { files?: Record<string, Buffer>; commands?: unknown[]; manifest?: (m: Obj) => void } = {}): Buffer {
  return packPackage(
    buildPackageParts(2, {
      digest: false,
      ...(opts.commands && { commands: opts.commands }),
      extraFiles: Object.entries(opts.files ?? {}).map(([name, data]) => ({ name, data })),
      manifest: (m) => {
        opts.manifest?.(m);
      },
    }),
  );
}

/** The manifest's identity, as a consistent state names it. */
function identity(): { datasetFingerprint: string; kernelVersion: string } {
  const m = buildPackageParts(2, { digest: false }).manifest;
  return { datasetFingerprint: String(m['datasetFingerprint']), kernelVersion: String(m['kernelVersion']) };
}

const refusals = (r: Report) => r.findings.filter((f) => f.rule === 'RPR-NEM-041');
const decision = {
  id: 'dec-1',
  utilityScore: 0.5,
  fitnessModelVersion: 'fm-1',
  provenance: { fitnessModelVersion: 'fm-1', datasetFingerprint: 'x' },
  embodiment: { spatialStrategy: { provenance: { fitnessModelVersion: 'fm-1' } } },
};

/** The package fails, and one of its RPR-NEM-041 findings says `why`. */
async function refused(bytes: Buffer, why: string): Promise<void> {
  const r = await verify(bytes);
  expect(r.verdict, why).toBe('fail');
  expect(
    refusals(r)
      .map((f) => f.message)
      .join('\n'),
  ).toContain(why);
}

const store = { schemaVersion: '1.0.0' };

/** A discovery episode and a NIL outcome upstream's stores restore (DiscoveryEpisode.ts, NoFeasibleRepresentationStore.ts). */
function storeItems(id: { datasetFingerprint: string; kernelVersion: string }) {
  const episode = {
    schemaVersion: '1.0.0',
    discoveryId: 'd1',
    investigationId: 'inv-1',
    notice: 'a cluster',
    validationStatus: 'SUPPORTED',
    hypothesis: 'it is real',
    conclusion: 'it is',
    explorationPath: [],
    analyticalTests: [{ id: 't1', method: 'permutation', evidenceIds: ['e1'], outcome: 'SUPPORTS' }],
    evidenceIds: ['e1'],
    representationContext: {},
    provenance: { ...id, investigationVersion: 'i-1', randomSeeds: {} },
  };
  const outcome = {
    nilId: 'n1',
    recordedAt: 1790000000000,
    traces: [],
    nearMisses: [],
    provenance: { ...id, evidenceIds: [] },
  };
  return { episode, outcome };
}

/** A V2 package with no digest holding a discovery state, a NIL state and the representation decision. */
function withStates(opts: {
  episodes?: unknown[];
  outcomes?: unknown[];
  decision?: unknown;
  manifest?: (m: Obj) => void;
}) {
  const files: Record<string, Buffer> = {};
  if (opts.episodes) files['investigation/discoveries.json'] = j({ ...store, episodes: opts.episodes });
  if (opts.outcomes) files['investigation/nil-outcomes.json'] = j({ ...store, outcomes: opts.outcomes });
  if (opts.decision) files['investigation/representation.json'] = j(opts.decision);
  return pkg({
    files,
    manifest: (m) => {
      if (opts.episodes) m['discoveryCount'] = opts.episodes.length;
      if (opts.outcomes) m['nilOutcomeCount'] = opts.outcomes.length;
      opts.manifest?.(m);
    },
  });
}

describe('RPR-NEM-041: what upstream replay refuses before its kernel runs', () => {
  it('a ledger event of an unknown kind, one without its entity, or one that is no object', async () => {
    const base = [{ seq: 1, type: 'loadDataset', at: 1790000000000 }];
    for (const [event, why, at] of [
      [{ kind: 'bogus', timestamp: 1790000000001 }, 'event #1 is of an unrecognized kind "bogus"', '/1/kind'],
      [{ kind: 'annotation', timestamp: 1790000000001 }, 'the annotation event #1 has no annotationEntity', '/1'],
      [null, 'event #1 is not an object', '/1'],
    ] as const) {
      const r = await verify(pkg({ commands: [...base, event], manifest: (m) => void (m['commandCount'] = 2) }));
      expect(r.verdict, why).toBe('fail');
      expect(refusals(r).map((f) => [f.message, f.pointer])).toEqual([
        [
          `investigation/commands.log: ${why} (upstream's replay refuses the package)`,
          `entry:investigation/commands.log#${at}`,
        ],
      ]);
    }
  });

  it("what the runner's later versions refuse too: a structure, recommendation or embodiment event without its payload, a seek without its index", async () => {
    const base = [{ seq: 1, type: 'loadDataset', at: 1790000000000 }];
    for (const [event, why] of [
      [{ kind: 'structure' }, 'the structure event #1 has no structureSet'],
      [{ kind: 'recommendation' }, 'the recommendation event #1 has no recommendationDecision'],
      [{ kind: 'embodiment' }, 'the embodiment event #1 has no embodimentCommand'],
      [{ kind: 'seek', command: {} }, 'the seek event #1 has no command.index (the history index it seeks)'],
    ] as const) {
      const r = await verify(pkg({ commands: [...base, event], manifest: (m) => void (m['commandCount'] = 2) }));
      expect(r.verdict, why).toBe('fail');
      expect(refusals(r).map((f) => f.message)).toEqual([
        `investigation/commands.log: ${why} (upstream's replay refuses the package)`,
      ]);
    }
    // With their payloads, they replay.
    const whole = [...base, { kind: 'structure', structureSet: { id: 's1' } }, { kind: 'seek', command: { index: 0 } }];
    expect(refusals(await verify(pkg({ commands: whole, manifest: (m) => void (m['commandCount'] = 3) })))).toEqual([]);
  });

  it('remediation and refusal events, which the later runner replays, are no unknown kind', async () => {
    const events = [
      { seq: 1, type: 'loadDataset', at: 1790000000000 },
      { kind: 'remediation', remediationEvent: { remediationId: 'r1' } },
      { kind: 'refusal', refusalEvent: { provenance: { operation: 'x' } } },
    ];
    const r = await verify(pkg({ commands: events, manifest: (m) => void (m['commandCount'] = 3) }));
    expect(refusals(r)).toEqual([]);
    // On the legacy path their payload is not asked for (upstream asks it on the semantic-digest path only).
    const bare = [events[0], { kind: 'remediation' }, { kind: 'refusal' }];
    expect(refusals(await verify(pkg({ commands: bare, manifest: (m) => void (m['commandCount'] = 3) })))).toEqual([]);
    // A V3 package replays on that path: there each needs its payload, and the bare spec its kind.
    const v3 = await verify(packPackage(buildPackageParts(3, { commands: bare })));
    expect(refusals(v3).map((f) => f.message)).toEqual([
      "investigation/commands.log: entry #0 is missing a research-event kind (a semantic-digest ledger holds research events, not bare analysis specs) (upstream's replay refuses the package)",
      "investigation/commands.log: the remediation event #1 has no remediationEvent (upstream's replay refuses the package)",
      "investigation/commands.log: the refusal event #2 has no refusalEvent (upstream's replay refuses the package)",
    ]);
  });

  it('a representation state upstream cannot parse, or whose fitness model copies disagree', async () => {
    const cases: [unknown, string][] = [
      ['not json', 'it is not JSON'],
      [{ ...decision, utilityScore: '0.5' }, 'representation state is missing numeric utilityScore'],
      [{ ...decision, embodiment: {} }, 'representation state is missing embodied spatial strategy'],
      [
        { ...decision, provenance: { fitnessModelVersion: 'fm-2' } },
        'decision provenance fitnessModelVersion expected "fm-1", found "fm-2"',
      ],
    ];
    for (const [state, why] of cases) {
      const bytes = typeof state === 'string' ? Buffer.from(state) : j(state);
      const r = await verify(pkg({ files: { 'investigation/representation.json': bytes } }));
      expect(r.verdict, why).toBe('fail');
      expect(refusals(r)[0]!.message).toContain(why);
    }
    const ok = await verify(pkg({ files: { 'investigation/representation.json': j(decision) } }));
    expect(rules(ok)).not.toContain('RPR-NEM-041');
    expect(ok.verdict).toBe('pass');
  });

  it('a discovery or NIL state of the wrong shape, count or provenance', async () => {
    const id = identity();
    const { episode, outcome } = storeItems(id);
    const cases: [Record<string, Buffer>, ((m: Obj) => void) | undefined, string][] = [
      [{ 'investigation/discoveries.json': j({ ...store, episodes: 5 }) }, undefined, 'its episodes is not iterable'],
      [
        { 'investigation/discoveries.json': j({ ...store, episodes: [episode] }) },
        (m) => void (m['discoveryCount'] = 2),
        'discovery count expected 2',
      ],
      [
        {
          'investigation/discoveries.json': j({
            ...store,
            episodes: [{ ...episode, provenance: { ...episode.provenance, kernelVersion: 'k9' } }],
          }),
        },
        undefined,
        'discovery "d1" names kernel "k9"',
      ],
      [
        {
          'investigation/discoveries.json': j({
            ...store,
            episodes: [{ ...episode, representationContext: { representationDecisionId: 'dec-9' } }],
          }),
        },
        undefined,
        'references representation decision "dec-9" but the package has none',
      ],
      [
        { 'investigation/nil-outcomes.json': j({ ...store, outcomes: [{ nilId: 'n1', recordedAt: 1 }] }) },
        undefined,
        'NIL outcome provenance requires datasetFingerprint',
      ],
    ];
    for (const [files, manifest, why] of cases) await refused(pkg({ files, ...(manifest && { manifest }) }), why);
    const ok = await verify(
      pkg({
        files: {
          'investigation/discoveries.json': j({ ...store, episodes: [episode] }),
          'investigation/nil-outcomes.json': j({ ...store, outcomes: [outcome] }),
        },
        manifest: (m) => void ((m['discoveryCount'] = 1), (m['nilOutcomeCount'] = 1)),
      }),
    );
    expect(rules(ok)).not.toContain('RPR-NEM-041');
    expect(ok.verdict).toBe('pass');
  });
});

describe("RPR-NEM-041: what upstream's stores refuse on restore, and the decision an item names", () => {
  const id = identity();
  const { episode, outcome } = storeItems(id);

  it('a discovery state upstream cannot restore (each passed before: only its shape was read)', async () => {
    await refused(
      pkg({ files: { 'investigation/discoveries.json': j({ episodes: [episode] }) } }),
      'Unsupported DiscoveryEpisodeStore schema version: undefined',
    );
    await refused(
      withStates({ episodes: [{ ...episode, schemaVersion: '2.0.0' }] }),
      'schemaVersion: unsupported schema version: 2.0.0',
    );
    await refused(withStates({ episodes: [{ ...episode, notice: '  ' }] }), 'notice: must be non-empty');
    await refused(
      withStates({ episodes: [{ ...episode, hypothesis: undefined }] }),
      'hypothesis: a hypothesis is required',
    );
    await refused(
      withStates({ episodes: [{ ...episode, analyticalTests: [] }] }),
      'analyticalTests: terminal validation states require',
    );
    await refused(
      withStates({ episodes: [{ ...episode, analyticalTests: [{ id: 't1', method: 'm', evidenceIds: [] }] }] }),
      'analyticalTests[0].evidenceIds: analytical tests must cite evidence',
    );
    await refused(
      withStates({ episodes: [{ ...episode, researcherJudgement: { novelty: 1.5 } }] }),
      'researcherJudgement.novelty: must be between 0 and 1',
    );
    await refused(
      withStates({ episodes: [{ ...episode, representationContext: { decisionEvidenceIds: 'e1' } }] }),
      'representationContext.decisionEvidenceIds is no array',
    );
    await refused(
      withStates({ episodes: [{ ...episode, provenance: { ...episode.provenance, datasetVersion: -1 } }] }),
      'provenance.datasetVersion: must be a non-negative integer when present',
    );
    await refused(withStates({ episodes: [episode, episode] }), 'Duplicate DiscoveryEpisode in snapshot: d1');
  });

  it('a NIL state upstream cannot restore', async () => {
    await refused(
      withStates({ outcomes: [{ ...outcome, recordedAt: -1 }] }),
      'NIL outcome recordedAt must be a non-negative finite number',
    );
    await refused(withStates({ outcomes: [{ ...outcome, nilId: '' }] }), 'NIL outcome id must be non-empty');
    await refused(
      withStates({ outcomes: [{ ...outcome, provenance: { ...outcome.provenance, evidenceIds: ['e1', ' '] } }] }),
      'NIL outcome evidenceIds must contain only non-empty ids',
    );
    await refused(withStates({ outcomes: [outcome, outcome] }), 'Duplicate NIL outcome in snapshot: n1');
  });

  it("a NIL outcome's sourceDecisionEvidenceHash: upstream's SHA-256 of its canonical text as a JSON string", async () => {
    const evidence = { b: 1, a: [{ d: 'x', c: 2 }] };
    // Upstream's canonical text of the evidence, written out here, then hashed as a JSON string.
    const canonical = '{"a":[{"c":2,"d":"x"}],"b":1}';
    const right = createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
    const nil = (hash: string) => ({
      ...outcome,
      provenance: { ...outcome.provenance, sourceDecisionId: 'dec-1', sourceDecisionEvidenceHash: hash },
    });
    const ok = await verify(withStates({ outcomes: [nil(right)], decision: { ...decision, evidence } }));
    expect(rules(ok)).not.toContain('RPR-NEM-041');
    expect(ok.verdict).toBe('pass');
    await refused(
      withStates({ outcomes: [nil(right)], decision: { ...decision, evidence: { ...evidence, b: 2 } } }),
      `NIL outcome "n1" names source decision evidence hash "${right}", not the decision's`,
    );
    // Upstream's 32-bit FNV-1a of the same text, which its fnv1aHex no longer is.
    await refused(
      withStates({ outcomes: [nil('7b0f2c11')], decision: { ...decision, evidence } }),
      'names source decision evidence hash "7b0f2c11"',
    );
  });

  it("a discovery's decisionDatasetFingerprint must be the decision's", async () => {
    const framed = (fp: string) => ({
      ...episode,
      representationContext: { representationDecisionId: 'dec-1', decisionDatasetFingerprint: fp },
    });
    const ok = await verify(withStates({ episodes: [framed('x')], decision }));
    expect(rules(ok)).not.toContain('RPR-NEM-041');
    await refused(
      withStates({ episodes: [framed('y')], decision }),
      'discovery "d1" names decision dataset "y", not the decision\'s "x"',
    );
  });

  it("items name the manifest's analytical identity when it has one (upstream: analytical… ?? …)", async () => {
    const analytical = { datasetFingerprint: 'sha256-analytical', kernelVersion: 'kernel-analytical' };
    const named = storeItems(analytical);
    const manifest = (m: Obj) => {
      m['analyticalDatasetFingerprint'] = analytical.datasetFingerprint;
      m['analyticalKernelVersion'] = analytical.kernelVersion;
    };
    const ok = await verify(withStates({ episodes: [named.episode], outcomes: [named.outcome], manifest }));
    expect(rules(ok)).not.toContain('RPR-NEM-041');
    await refused(
      withStates({ episodes: [episode], manifest }),
      `discovery "d1" names dataset ${JSON.stringify(id.datasetFingerprint)}, not the manifest's "sha256-analytical"`,
    );
  });
});

describe('a V3 carrying what only a V4 commits to', () => {
  it('names forma.json and formaDigest as data only (RPR-NEM-025, 024), with the verdict unchanged', async () => {
    const plain = await verify(packPackage(buildPackageParts(3)), support.flags);
    const parts = buildPackageParts(3, {
      extraFiles: [{ name: 'investigation/forma.json', data: Buffer.from('garbage') }],
      manifest: (m) => void (m['formaDigest'] = 'zz'),
    });
    const r = await verify(packPackage(parts), support.flags);
    expect(r.verdict).toBe(plain.verdict);
    expect(
      r.findings.filter((f) => f.rule === 'RPR-NEM-024' || f.rule === 'RPR-NEM-025').map((f) => f.pointer),
    ).toEqual(['entry:manifest.json#/formaDigest', 'entry:investigation/forma.json']);
  });
});

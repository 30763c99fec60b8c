/**
 * RPR-NEM-041: what upstream's replay refuses before its kernel runs (TsatsuAmable/nemosyne
 * src/session/InvestigationReplayRunner.ts replayPayload, read at c95a15d), on a V2 with no
 * investigation digest, where nothing else would catch it (found by a red team: each passed).
 * Its consistent counterparts pass.
 */
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
    const episode = { discoveryId: 'd1', provenance: id, representationContext: {} };
    const outcome = { nilId: 'n1', provenance: id };
    const cases: [Record<string, Buffer>, ((m: Obj) => void) | undefined, string][] = [
      [{ 'investigation/discoveries.json': j({ episodes: 5 }) }, undefined, 'not an object holding an episodes array'],
      [
        { 'investigation/discoveries.json': j({ episodes: [episode] }) },
        (m) => void (m['discoveryCount'] = 2),
        'discovery count expected 2',
      ],
      [
        {
          'investigation/discoveries.json': j({
            episodes: [{ ...episode, provenance: { ...id, kernelVersion: 'k9' } }],
          }),
        },
        undefined,
        'discovery "d1" names kernel "k9"',
      ],
      [
        {
          'investigation/discoveries.json': j({
            episodes: [{ ...episode, representationContext: { representationDecisionId: 'dec-9' } }],
          }),
        },
        undefined,
        'references representation decision "dec-9" but the package has none',
      ],
      [
        { 'investigation/nil-outcomes.json': j({ outcomes: [{ nilId: 'n1' }] }) },
        undefined,
        'NIL outcome has no provenance',
      ],
    ];
    for (const [files, manifest, why] of cases) {
      const r = await verify(pkg({ files, ...(manifest && { manifest }) }));
      expect(r.verdict, why).toBe('fail');
      expect(
        refusals(r)
          .map((f) => f.message)
          .join('\n'),
      ).toContain(why);
    }
    const ok = await verify(
      pkg({
        files: {
          'investigation/discoveries.json': j({ episodes: [episode] }),
          'investigation/nil-outcomes.json': j({ outcomes: [outcome] }),
        },
        manifest: (m) => void ((m['discoveryCount'] = 1), (m['nilOutcomeCount'] = 1)),
      }),
    );
    expect(rules(ok)).not.toContain('RPR-NEM-041');
    expect(ok.verdict).toBe('pass');
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

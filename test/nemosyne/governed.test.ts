/**
 * Verdicts true to upstream Nemosyne (TsatsuAmable/nemosyne): manifests as its exporter
 * writes them, and the governed-evidence consumers bound and resolved as its replay loader
 * does (ConsumerPolicy.ts bindConsumerUsesV1, EvidenceRequirementProfile.ts
 * evaluateEvidenceReceiptAgainstProfileV1, InvestigationReplayRunner.ts). The fixtures
 * are our own, built with the package writer in upstream's shapes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { UsageError } from '../../app/core/errors.js';
import { datasetIdentityHex } from '../../app/kinds/nemosyne/dataset-identity.js';
import type { ReceiptFacts } from '../../app/kinds/nemosyne/envelope.js';
import {
  buildPackageParts,
  INFERENTIAL_CONSUMER,
  INFERENTIAL_PROFILE,
  packPackage,
  SAMPLE_CONSUMER,
  SAMPLE_DATASET,
  SAMPLE_PROFILE,
  sampleProfiles,
  type PackageOptions,
} from '../../app/kinds/nemosyne/package-writer.js';
import { evaluateReceipt, parseProfiles, type RequirementProfile } from '../../app/kinds/nemosyne/profiles.js';
import { ROOT } from '../helpers/cli.js';
import { rules, supportDir, verify } from './helpers.js';

type Env = Record<string, unknown>;
const support = supportDir();
const receipt0 = (e: Env) => ((e['bundle'] as Env)['receipts'] as Env[])[0]!;
const use = (consumerId: string, requirementProfileId: string, receiptId = 'rcpt-0001') => ({
  consumerId,
  receiptId,
  requirementProfileId,
});
const sampleUse = use(SAMPLE_CONSUMER, SAMPLE_PROFILE);
const inferentialUse = use(INFERENTIAL_CONSUMER, INFERENTIAL_PROFILE);

/** A V3 (or V4) with the given uses and an edited receipt; every digest stays consistent. */
function pkg(uses: Env[], edit?: (r: Env) => void, version: 3 | 4 = 3, opts: PackageOptions = {}): Buffer {
  return packPackage(
    buildPackageParts(version, {
      ...opts,
      envelope: (e) => {
        const c = structuredClone(e);
        edit?.(receipt0(c));
        c['uses'] = uses;
        return c;
      },
    }),
  );
}
const satisfied = (r: Env) =>
  void (r['assumptions'] = [{ assumption: 'independence', status: 'satisfied', detail: 'independent plants' }]);
const established = (admission: Env | null) => (r: Env) =>
  void (r['measurementContext'] = {
    status: 'ESTABLISHED',
    records: [
      {
        model: { column: 'petalLength', scale: 'ratio', observationStructure: 'iid', compositionalGroup: null },
        status: 'declared',
        basis: [{ source: 'codebook', rationale: 'cm' }],
      },
    ],
    semanticAdmissionPolicy: null,
    analyticalAdmission: admission,
  });
const all =
  (...edits: ((r: Env) => void)[]) =>
  (r: Env) =>
    edits.forEach((e) => e(r));

const refusal = (r: Report) => r.details?.['refusal'] as { code: string; status: string } | undefined;
const flagged = (bytes: Buffer, profiles = support.profiles) =>
  verify(bytes, { kernelAdapter: support.adapter, profiles });
function registry(name: string, text: string): string {
  const p = join(support.dir, name);
  writeFileSync(p, text);
  return p;
}

describe('the fail-open case: a governed receipt with a violated assumption', () => {
  it('is refused, never passed (descriptive-summary/v1 has refuseViolated)', async () => {
    const r = await flagged(pkg([sampleUse], (x) => void ((x['assumptions'] as Env[])[0]!['status'] = 'violated')));
    expect(r.verdict).toBe('unavailable');
    expect(refusal(r)).toEqual({ code: 'CONSUMER_POLICY_REFUSED', status: 'VIOLATED_ASSUMPTION' });
    const f = r.findings.find((x) => x.rule === 'CONSUMER_POLICY_REFUSED')!;
    expect(f.severity).toBe('unavailable');
    expect(f.actual).toBe('VIOLATED_ASSUMPTION');
    expect(f.message).toContain('independence');
  });
  it('the same package with the assumption satisfied passes (the check is not a blanket refusal)', async () => {
    expect((await flagged(pkg([sampleUse], satisfied))).verdict).toBe('pass');
  });
});

describe('each resolution outcome under the example registry', () => {
  const cases: [string, Env[], ((r: Env) => void) | undefined, string, string][] = [
    [
      'unknown consumer',
      [sampleUse, use('ungoverned.exporter', SAMPLE_PROFILE)],
      undefined,
      'CONSUMER_NOT_GOVERNED',
      'UNKNOWN_CONSUMER',
    ],
    ['required consumer without a use', [], undefined, 'CONSUMER_NOT_GOVERNED', 'MISSING_USE'],
    [
      'only a non-required consumer used',
      [inferentialUse],
      all(satisfied, established(null)),
      'CONSUMER_NOT_GOVERNED',
      'MISSING_USE',
    ],
    [
      'weaker profile',
      [sampleUse, use(INFERENTIAL_CONSUMER, SAMPLE_PROFILE)],
      undefined,
      'CONSUMER_POLICY_REFUSED',
      'PROFILE_MISMATCH',
    ],
    [
      'receipt not in the bundle',
      [use(SAMPLE_CONSUMER, SAMPLE_PROFILE, 'rcpt-9999')],
      undefined,
      'CONSUMER_POLICY_REFUSED',
      'RECEIPT_NOT_FOUND',
    ],
    [
      'unchecked assumption under refuseUnresolved',
      [sampleUse, inferentialUse],
      undefined,
      'CONSUMER_POLICY_REFUSED',
      'UNRESOLVED_ASSUMPTION',
    ],
    [
      'notTestableFromData under refuseUnresolved',
      [sampleUse, inferentialUse],
      (r) => void ((r['assumptions'] as Env[])[0]!['status'] = 'notTestableFromData'),
      'CONSUMER_POLICY_REFUSED',
      'UNRESOLVED_ASSUMPTION',
    ],
    [
      'measurement context not established',
      [sampleUse, inferentialUse],
      satisfied,
      'CONSUMER_POLICY_REFUSED',
      'MISSING_REQUIRED_AXIS',
    ],
    [
      'analytical admission rejected',
      [sampleUse, inferentialUse],
      all(satisfied, established({ status: 'rejected', issues: [] })),
      'CONSUMER_POLICY_REFUSED',
      'MISSING_REQUIRED_AXIS',
    ],
    [
      'no uncertainty',
      [sampleUse, inferentialUse],
      all(satisfied, established(null), (r) => void (r['uncertainty'] = null)),
      'CONSUMER_POLICY_REFUSED',
      'MISSING_REQUIRED_AXIS',
    ],
  ];
  it.each(cases)('%s: unavailable, %s with %s', async (_n, uses, edit, code, status) => {
    const r = await flagged(pkg(uses, edit));
    expect(r.verdict).toBe('unavailable');
    expect(refusal(r)).toEqual({ code, status });
    const f = r.findings.find((x) => x.rule === code)!;
    expect(f.severity).toBe('unavailable');
    expect(f.message.startsWith(`${status}:`)).toBe(true);
    expect(r.findings.some((x) => x.severity === 'fail')).toBe(false);
  });

  it('a use naming a receipt the bundle lacks is not a malformed package (no fail, integrity consistent)', async () => {
    const r = await flagged(pkg([use(SAMPLE_CONSUMER, SAMPLE_PROFILE, 'rcpt-9999')]));
    expect(r.details?.['integrity']).toBe('consistent');
    expect(r.chain.find((n) => n.id === 'envelope')!.status).toBe('match');
    expect(r.findings.find((x) => x.actual === 'RECEIPT_NOT_FOUND')!.pointer).toBe(
      'entry:investigation/evidence-receipts.json#/uses/0/receiptId',
    );
  });

  it('resolved: established context with no admission result, uncertainty, satisfied assumptions', async () => {
    for (const admission of [null, { status: 'admitted', issues: [] }]) {
      const r = await flagged(pkg([sampleUse, inferentialUse], all(satisfied, established(admission))));
      expect(r.verdict).toBe('pass');
      expect((r.details?.['consumers'] as { status: string }[]).map((b) => b.status)).toEqual(['RESOLVED', 'RESOLVED']);
      expect(refusal(r)).toBeUndefined();
    }
  });

  it('a V4 is resolved the same way', async () => {
    expect((await flagged(pkg([sampleUse], satisfied, 4))).verdict).toBe('pass');
    const r = await flagged(pkg([sampleUse], (x) => void ((x['assumptions'] as Env[])[0]!['status'] = 'violated'), 4));
    expect(refusal(r)).toEqual({ code: 'CONSUMER_POLICY_REFUSED', status: 'VIOLATED_ASSUMPTION' });
  });

  it('upstream order: the first refusing binding is the refusal; uses first, missing uses after', async () => {
    const r = await flagged(pkg([use('ungoverned.exporter', SAMPLE_PROFILE), inferentialUse]));
    expect(refusal(r)).toEqual({ code: 'CONSUMER_NOT_GOVERNED', status: 'UNKNOWN_CONSUMER' });
    expect((r.details?.['consumers'] as { status: string }[]).map((b) => b.status)).toEqual([
      'UNKNOWN_CONSUMER',
      'UNRESOLVED_ASSUMPTION',
      'MISSING_USE',
    ]);
  });
});

describe('a registry profile the package names but the registry does not define', () => {
  it('is UNKNOWN_REQUIREMENT_PROFILE, refused as CONSUMER_POLICY_REFUSED (never a default profile)', async () => {
    const reg = registry(
      'retired.json',
      sampleProfiles({
        consumers: [
          { consumerId: SAMPLE_CONSUMER, requirementProfileId: 'descriptive-summary/v0', receiptDependent: true },
        ],
      }),
    );
    const r = await flagged(pkg([use(SAMPLE_CONSUMER, 'descriptive-summary/v0')], satisfied), reg);
    expect(r.verdict).toBe('unavailable');
    expect(refusal(r)).toEqual({ code: 'CONSUMER_POLICY_REFUSED', status: 'UNKNOWN_REQUIREMENT_PROFILE' });
  });
});

describe('evaluateReceipt: upstream fixed order', () => {
  const facts = (o: Partial<ReceiptFacts> = {}): ReceiptFacts => ({
    assumptions: [],
    measurementEstablished: false,
    admission: null,
    hasGeometry: false,
    hasUncertainty: false,
    hasStability: false,
    sensitivityCount: 0,
    ...o,
  });
  const profile = (o: Partial<RequirementProfile>): RequirementProfile => ({
    profileId: 'p',
    requiredAxes: [],
    refuseViolated: false,
    refuseUnresolved: false,
    ...o,
  });
  it('existence, then violated, then unresolved, then axes in the profile order', () => {
    const strict = profile({ refuseViolated: true, refuseUnresolved: true, requiredAxes: ['uncertainty', 'geometry'] });
    expect(evaluateReceipt(strict, null)).toEqual({ status: 'RECEIPT_NOT_FOUND' });
    const mixed = facts({
      assumptions: [
        { assumption: 'a', status: 'unchecked' },
        { assumption: 'b', status: 'violated' },
      ],
    });
    expect(evaluateReceipt(strict, mixed)).toEqual({ status: 'VIOLATED_ASSUMPTION', assumption: 'b' });
    expect(evaluateReceipt({ ...strict, refuseViolated: false }, mixed)).toEqual({
      status: 'UNRESOLVED_ASSUMPTION',
      assumption: 'a',
    });
    expect(evaluateReceipt(strict, facts())).toEqual({ status: 'MISSING_REQUIRED_AXIS', axis: 'uncertainty' });
    expect(evaluateReceipt({ ...strict, requiredAxes: ['geometry', 'uncertainty'] }, facts())).toEqual({
      status: 'MISSING_REQUIRED_AXIS',
      axis: 'geometry',
    });
  });
  it('a profile that refuses nothing resolves a violated receipt (the profile, not Reprise, decides)', () => {
    expect(evaluateReceipt(profile({}), facts({ assumptions: [{ assumption: 'a', status: 'violated' }] }))).toEqual({
      status: 'RESOLVED',
    });
  });
  it('each axis as upstream axisSatisfied reads it', () => {
    const one = (axis: RequirementProfile['requiredAxes'][number], f: ReceiptFacts) =>
      evaluateReceipt(profile({ requiredAxes: [axis] }), f).status;
    expect(one('measurementContextEstablished', facts({ measurementEstablished: true }))).toBe('RESOLVED');
    expect(one('measurementContextEstablished', facts({ measurementEstablished: true, admission: 'admitted' }))).toBe(
      'RESOLVED',
    );
    expect(one('measurementContextEstablished', facts({ measurementEstablished: true, admission: 'rejected' }))).toBe(
      'MISSING_REQUIRED_AXIS',
    );
    expect(one('measurementContextEstablished', facts())).toBe('MISSING_REQUIRED_AXIS');
    expect(one('sensitivity', facts())).toBe('MISSING_REQUIRED_AXIS');
    expect(one('sensitivity', facts({ sensitivityCount: 1 }))).toBe('RESOLVED');
    expect(one('stability', facts({ hasStability: true }))).toBe('RESOLVED');
    expect(one('geometry', facts({ hasGeometry: true }))).toBe('RESOLVED');
  });
  it('sensitivity and stability through a real receipt', async () => {
    const reg = registry(
      'axes.json',
      sampleProfiles({
        consumers: [{ consumerId: SAMPLE_CONSUMER, requirementProfileId: 'axes/v1', receiptDependent: true }],
        extraProfiles: [
          {
            profileId: 'axes/v1',
            requiredAxes: ['geometry', 'sensitivity', 'stability'],
            assumptionRequirement: { refuseViolated: false, refuseUnresolved: false },
          },
        ],
      }),
    );
    const u = [use(SAMPLE_CONSUMER, 'axes/v1')];
    expect((await flagged(pkg(u), reg)).findings.find((f) => f.actual === 'MISSING_REQUIRED_AXIS')!.message).toContain(
      '"sensitivity"',
    );
    const withSensitivity = (r: Env) =>
      void (r['sensitivity'] = [{ factor: 'seed', testedValues: ['1', '2'], materiallyChanged: false }]);
    expect(
      (await flagged(pkg(u, withSensitivity), reg)).findings.find((f) => f.actual === 'MISSING_REQUIRED_AXIS')!.message,
    ).toContain('"stability"');
    const stable = all(
      withSensitivity,
      (r) => void (r['stability'] = { method: 'bootstrap', score: 0.9, repetitions: 100 }),
    );
    expect((await flagged(pkg(u, stable), reg)).verdict).toBe('pass');
  });
});

describe('the profile registry file', () => {
  const base = JSON.parse(sampleProfiles()) as Env;
  const bad = (edit: (r: Env) => void) => {
    const r = structuredClone(base);
    edit(r);
    return Buffer.from(JSON.stringify(r));
  };
  it('docs/nemosyne-profiles.example.json is the registry the examples ship', () => {
    expect(readFileSync(`${ROOT}docs/nemosyne-profiles.example.json`, 'utf8')).toBe(sampleProfiles());
    const reg = parseProfiles(Buffer.from(sampleProfiles()));
    expect([...reg.profiles.values()]).toEqual([
      { profileId: 'descriptive-summary/v1', requiredAxes: [], refuseViolated: true, refuseUnresolved: false },
      {
        profileId: 'inferential-claim/v1',
        requiredAxes: ['measurementContextEstablished', 'uncertainty'],
        refuseViolated: true,
        refuseUnresolved: true,
      },
    ]);
  });
  const malformed: [string, (r: Env) => void, RegExp][] = [
    ['the v1 type', (r) => void (r['type'] = 'reprise.nemosyne-profiles/v1'), /the retired v1 shape/],
    ['no profiles member (the v1 shape)', (r) => void delete r['profiles'], /the retired v1 shape/],
    ['another type', (r) => void (r['type'] = 'reprise.nemosyne-profiles/v3'), /type must be/],
    ['an extra member', (r) => void (r['comment'] = 'x'), /members must be exactly/],
    [
      'an unknown axis',
      (r) => void (((r['profiles'] as Env[])[1]!['requiredAxes'] as string[])[0] = 'confidence'),
      /not one of/,
    ],
    [
      'a duplicate axis',
      (r) => void ((r['profiles'] as Env[])[1]!['requiredAxes'] = ['uncertainty', 'uncertainty']),
      /appears twice/,
    ],
    [
      'a string boolean',
      (r) => void (((r['profiles'] as Env[])[0]!['assumptionRequirement'] as Env)['refuseViolated'] = 'true'),
      /assumptionRequirement/,
    ],
    ['an extra profile member', (r) => void ((r['profiles'] as Env[])[0]!['minimumRows'] = 3), /profiles\[0\]/],
    ['a duplicate profile', (r) => void (r['profiles'] as Env[]).push((r['profiles'] as Env[])[0]!), /appears twice/],
    [
      'a consumer without receiptDependent',
      (r) => void delete (r['consumers'] as Env[])[0]!['receiptDependent'],
      /consumers\[0\]/,
    ],
  ];
  it.each(malformed)('%s is a one-line usage error', (_n, edit, message) => {
    expect(() => parseProfiles(bad(edit), 'reg.json')).toThrow(UsageError);
    expect(() => parseProfiles(bad(edit), 'reg.json')).toThrow(message);
  });
});

describe('manifests as the exporter writes them', () => {
  it('researchContext {} passes; each member is optional; observerMode must be a boolean', async () => {
    const withContext = (ctx: unknown) =>
      packPackage(buildPackageParts(2, { digest: false, manifest: (m) => (m['researchContext'] = ctx) }));
    expect(buildPackageParts(2).manifest['researchContext']).toEqual({});
    for (const ok of [{}, { studyId: 's' }, { observerMode: true }, { variablesOfInterest: null, hypothesis: null }])
      expect((await verify(withContext(ok))).verdict).toBe('pass');
    for (const ko of [{ observerMode: 'false' }, { variablesOfInterest: 'petalLength' }, { studyId: 7 }]) {
      const r = await verify(withContext(ko));
      expect(r.verdict).toBe('fail');
      expect(rules(r)).toContain('RPR-NEM-004');
    }
    // An array of the wrong items names its first wrong item, not "array".
    const r = await verify(withContext({ variablesOfInterest: ['petalLength', 1] }));
    const f = r.findings.find((x) => x.rule === 'RPR-NEM-004')!;
    expect([f.pointer, f.expected, f.actual]).toEqual([
      'entry:manifest.json#/researchContext/variablesOfInterest/1',
      'a string',
      'number',
    ]);
    expect(f.message).toBe(
      'manifest member /researchContext/variablesOfInterest is not an array of strings (item 1 is a number)',
    );
  });

  it('V1/V2: evidenceReceiptDigest and formaDigest are removed before validation (any value, no authority, an info)', async () => {
    for (const v of [1, 2] as const) {
      for (const value of ['a'.repeat(64), { historicallyUnknown: true }, 42, null]) {
        const bytes = packPackage(
          buildPackageParts(v, {
            digest: false,
            manifest: (m) => {
              m['evidenceReceiptDigest'] = value;
              m['formaDigest'] = value;
            },
          }),
        );
        const r = await verify(bytes);
        expect(r.findings.some((f) => f.severity === 'fail')).toBe(false);
        const f = r.findings.find((x) => x.rule === 'RPR-NEM-024')!;
        expect(f.severity).toBe('info');
        expect(f.message).toContain('no authority');
      }
    }
    // A V3 keeps them: there they are commitments.
    const v3 = await verify(
      packPackage(buildPackageParts(3, { manifest: (m) => (m['formaDigest'] = { historicallyUnknown: true }) })),
    );
    expect(rules(v3)).toContain('RPR-NEM-004');
  });

  it('V1: only investigationDigestAlgorithm is forbidden; a canonical identity is checked like V2', async () => {
    const canonical = datasetIdentityHex(SAMPLE_DATASET);
    const v1 = (edit: (m: Env) => void) => verify(packPackage(buildPackageParts(1, { manifest: edit })));
    const ok = await v1((m) => {
      m['datasetIdentityAlgorithm'] = 'sha256-canonical-dataset-v1';
      m['datasetFingerprint'] = canonical;
    });
    expect(ok.verdict).toBe('pass');
    expect(ok.chain.find((n) => n.id === 'datasetFingerprint')!.status).toBe('match');
    const wrong = await v1((m) => {
      m['datasetIdentityAlgorithm'] = 'sha256-canonical-dataset-v1';
      m['datasetFingerprint'] = 'c'.repeat(64);
    });
    expect(wrong.verdict).toBe('fail');
    expect(rules(wrong)).toContain('RPR-NEM-022');
    const legacy = await v1(() => {});
    expect(legacy.verdict).toBe('unavailable');
    expect(rules(legacy)).toContain('RPR-NEM-012');
    const algo = await v1((m) => (m['investigationDigestAlgorithm'] = 'sha256-canonical-investigation-v2'));
    expect(algo.verdict).toBe('fail');
    expect(rules(algo)).toContain('RPR-NEM-010');
    expect(rules(await v1((m) => (m['investigationDigestAlgorithm'] = '')))).not.toContain('RPR-NEM-010');
  });

  it('a V4 labelled sha256-canonical-investigation-v4 is refused; the -v3 label V4 carries passes', async () => {
    const bad = await flagged(
      packPackage(
        buildPackageParts(4, {
          manifest: (m) => (m['investigationDigestAlgorithm'] = 'sha256-canonical-investigation-v4'),
        }),
      ),
    );
    expect(bad.verdict).toBe('fail');
    expect(bad.findings.find((f) => f.rule === 'RPR-NEM-015')!.expected).toBe('sha256-canonical-investigation-v3');
    expect((await flagged(packPackage(buildPackageParts(4)))).verdict).toBe('pass');
  });

  it('commandCount against the ledger: fail on the semantic digest path (V2 -v2, V3, V4), a warning on the legacy path', async () => {
    const count = (v: 2 | 3 | 4, opts: PackageOptions = {}) =>
      packPackage(
        buildPackageParts(v, {
          ...opts,
          manifest: (m) => {
            opts.manifest?.(m);
            m['commandCount'] = 2;
          },
        }),
      );
    for (const v of [2, 3, 4] as const) {
      const r = await flagged(count(v));
      expect(r.verdict).toBe('fail');
      const f = r.findings.find((x) => x.rule === 'RPR-NEM-019')!;
      expect(f.severity).toBe('fail');
      expect(f.message).toContain('command count mismatch');
      expect([f.expected, f.actual]).toEqual([3, 2]);
    }
    const legacy = await verify(count(2, { digest: false }));
    expect(legacy.verdict).toBe('pass');
    expect(legacy.findings.find((x) => x.rule === 'RPR-NEM-019')!.severity).toBe('warning');
  });
});

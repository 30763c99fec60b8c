/**
 * `manifest.json`: dispatch on the exact `formatVersion`, then the member types all
 * versions share, then each version's own rules. A malformed V3/V4 manifest stays a
 * failed V3/V4 manifest: nothing here ever retries it under an older version's rules.
 */
import type { Finding } from '../../../shared/report.js';
import { fail, info, warning, type RuleId } from './findings.js';
import { escapePointerToken as esc, isPlainObject, jsonType } from '../../core/closed.js';
import { DATASET_IDENTITY_ALGORITHM } from './dataset-identity.js';

export type FormatVersion = 1 | 2 | 3 | 4;
export const DIGEST_V2 = 'sha256-canonical-investigation-v2';
/** V3 and V4 alike: upstream labels V4's digest `…-v3`, and no upstream reader accepts `…-v4`. */
export const DIGEST_V3 = 'sha256-canonical-investigation-v3';
/** Manifest members a V1/V2 reader removes before validating (upstream's `manifestInput`). */
const GOVERNED_ONLY = ['evidenceReceiptDigest', 'formaDigest'] as const;

export interface Manifest {
  formatVersion: FormatVersion;
  raw: Record<string, unknown>;
  datasetFingerprint: string | null;
  kernelVersion: string | null;
  analyticalDatasetFingerprint: string | null;
  analyticalKernelVersion: string | null;
  investigationDigest: string | null;
  investigationDigestAlgorithm: string | null;
  evidenceReceiptDigest: string | null;
  formaDigest: string | null;
  commandCount: number | null;
  discoveryCount: number | null;
  nilOutcomeCount: number | null;
  hasRepresentationModel: boolean;
}

const HEX64 = /^[0-9a-f]{64}$/;
/** Pointers into the manifest entry: `entry:manifest.json#/member`. */
const M = 'entry:manifest.json#';
const MAX_UNKNOWN = 32;
type Kind = 'string' | 'number' | 'count' | 'boolean' | 'object' | 'stringArray';

const KNOWN: Record<string, { kind: Kind; required: boolean }> = {
  formatVersion: { kind: 'number', required: true },
  sessionId: { kind: 'string', required: true },
  datasetFingerprint: { kind: 'string', required: true },
  datasetIdentityAlgorithm: { kind: 'string', required: false },
  analyticalDatasetFingerprint: { kind: 'string', required: false },
  datasetName: { kind: 'string', required: true },
  kernelVersion: { kind: 'string', required: true },
  analyticalKernelVersion: { kind: 'string', required: false },
  createdAt: { kind: 'number', required: true },
  commandCount: { kind: 'count', required: true },
  discoveryCount: { kind: 'count', required: false },
  nilOutcomeCount: { kind: 'count', required: false },
  investigationDigest: { kind: 'string', required: false },
  evidenceReceiptDigest: { kind: 'string', required: false },
  formaDigest: { kind: 'string', required: false },
  investigationDigestAlgorithm: { kind: 'string', required: false },
  researchContext: { kind: 'object', required: false },
  representationModel: { kind: 'object', required: false },
  evidenceSummary: { kind: 'object', required: false },
  environment: { kind: 'object', required: true },
};

const NESTED: Record<string, Record<string, { kind: Kind; required: boolean }>> = {
  // Every member optional (upstream v.nullish): the exporter writes `{}` by default.
  researchContext: {
    studyId: { kind: 'string', required: false },
    researchQuestion: { kind: 'string', required: false },
    hypothesis: { kind: 'string', required: false },
    variablesOfInterest: { kind: 'stringArray', required: false },
    currentTask: { kind: 'string', required: false },
    observerMode: { kind: 'boolean', required: false },
  },
  representationModel: {
    fitnessModelVersion: { kind: 'string', required: true },
    fitnessModelArtifactHash: { kind: 'string', required: false },
  },
  evidenceSummary: {
    observationsCount: { kind: 'number', required: true },
    findingsCount: { kind: 'number', required: true },
    annotationsCount: { kind: 'number', required: true },
  },
  environment: {
    userAgent: { kind: 'string', required: false },
    platform: { kind: 'string', required: false },
    webxrSupported: { kind: 'boolean', required: false },
  },
};

function typeOk(v: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'count':
      return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
    case 'boolean':
      return typeof v === 'boolean';
    case 'object':
      return isPlainObject(v);
    case 'stringArray':
      return Array.isArray(v) && v.every((x) => typeof x === 'string');
  }
}

const KIND_TEXT: Record<Kind, string> = {
  string: 'a string',
  number: 'a finite number',
  count: 'a non-negative integer',
  boolean: 'a boolean',
  object: 'an object',
  stringArray: 'an array of strings',
};

/** Upstream treats `null` like absent for optional members (valibot nullish). */
const present = (v: unknown) => v !== undefined && v !== null;

function checkMembers(
  obj: Record<string, unknown>,
  spec: Record<string, { kind: Kind; required: boolean }>,
  base: string,
  findings: Finding[],
): void {
  for (const [k, s] of Object.entries(spec)) {
    const v = obj[k];
    if (!present(v)) {
      if (s.required)
        findings.push(
          fail('RPR-NEM-004', `manifest member ${base}/${k} is missing`, {
            pointer: `${M}${base}/${k}`,
            expected: KIND_TEXT[s.kind],
            actual: v === null ? null : 'absent',
          }),
        );
      continue;
    }
    if (!typeOk(v, s.kind)) {
      // An array of the wrong items is named by its first wrong item, not called "array".
      const items: unknown[] = Array.isArray(v) && s.kind === 'stringArray' ? v : [];
      const at = items.findIndex((x) => typeof x !== 'string');
      const word = jsonType(items[at]);
      const item =
        at >= 0 ? ` (item ${at} is ${word === 'null' ? word : `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`})` : '';
      findings.push(
        fail('RPR-NEM-004', `manifest member ${base}/${k} is not ${KIND_TEXT[s.kind]}${item}`, {
          pointer: `${M}${base}/${k}${at >= 0 ? `/${at}` : ''}`,
          expected: at >= 0 ? 'a string' : KIND_TEXT[s.kind],
          actual: at >= 0 ? jsonType(items[at]) : jsonType(v),
        }),
      );
      continue;
    }
    const nested = NESTED[k];
    if (nested && base === '') checkMembers(v as Record<string, unknown>, nested, `/${k}`, findings);
  }
  const unknown = Object.keys(obj).filter((k) => !Object.hasOwn(spec, k));
  for (const k of unknown.slice(0, MAX_UNKNOWN)) {
    findings.push(
      warning(
        'RPR-NEM-005',
        `manifest member ${base}/${k} is not part of the format (upstream ignores it; nothing commits to it)`,
        { pointer: `${M}${base}/${esc(k)}` },
      ),
    );
  }
  if (unknown.length > MAX_UNKNOWN)
    findings.push(
      warning(
        'RPR-NEM-005',
        `${unknown.length - MAX_UNKNOWN} more manifest members under ${base || '(root)'} are not part of the format`,
        { pointer: `${M}${base}` },
      ),
    );
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null);

/**
 * Checks a parsed manifest. Returns null (with findings) when the version cannot be
 * dispatched at all; otherwise the manifest, whose findings may still hold failures.
 */
export function checkManifest(value: unknown, findings: Finding[]): Manifest | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    findings.push(fail('RPR-NEM-002', 'manifest.json is not a JSON object', { pointer: 'entry:manifest.json' }));
    return null;
  }
  const m = value as Record<string, unknown>;
  const fv = m['formatVersion'];
  if (fv !== 1 && fv !== 2 && fv !== 3 && fv !== 4) {
    findings.push(
      fail('RPR-NEM-003', 'formatVersion is not exactly 1, 2, 3 or 4: Reprise does not guess a version', {
        pointer: M + '/formatVersion',
        expected: [1, 2, 3, 4],
        actual: (fv as never) ?? null,
      }),
    );
    return null;
  }
  // V1/V2: the governed-only digests are dropped before validation, whatever they hold.
  const carried = fv <= 2 ? GOVERNED_ONLY.filter((k) => Object.hasOwn(m, k)) : [];
  const validated = carried.length
    ? Object.fromEntries(Object.entries(m).filter(([k]) => !carried.includes(k as never)))
    : m;
  checkMembers(validated, KNOWN, '', findings);
  const man: Manifest = {
    formatVersion: fv,
    raw: m,
    datasetFingerprint: str(m['datasetFingerprint']),
    kernelVersion: str(m['kernelVersion']),
    analyticalDatasetFingerprint: str(m['analyticalDatasetFingerprint']),
    analyticalKernelVersion: str(m['analyticalKernelVersion']),
    investigationDigest: str(m['investigationDigest']),
    investigationDigestAlgorithm: str(m['investigationDigestAlgorithm']),
    evidenceReceiptDigest: fv >= 3 ? str(m['evidenceReceiptDigest']) : null,
    formaDigest: fv >= 3 ? str(m['formaDigest']) : null,
    commandCount: num(m['commandCount']),
    discoveryCount: num(m['discoveryCount']),
    nilOutcomeCount: num(m['nilOutcomeCount']),
    hasRepresentationModel: present(m['representationModel']),
  };
  checkVersionRules(man, findings);
  if (carried.length) {
    findings.push(
      info(
        'RPR-NEM-024',
        `a V${fv} manifest carries ${carried.join(' and ')}: V1/V2 readers remove ${carried.length > 1 ? 'them' : 'it'} before validation, so any value is accepted and carries no authority; a V${fv} package never carries governed-receipt capability`,
        { pointer: `${M}/${carried[0]}` },
      ),
    );
  }
  // A V3 reader keeps formaDigest and never compares it: only a V4 commits to forma.json.
  if (fv === 3 && Object.hasOwn(m, 'formaDigest'))
    findings.push(
      info(
        'RPR-NEM-024',
        'a V3 manifest carries formaDigest: only a V4 commits to investigation/forma.json (upstream reads it for a V4 alone), so its value is compared with nothing and carries no authority',
        { pointer: `${M}/formaDigest` },
      ),
    );
  return man;
}

/**
 * Each version's own rules, after upstream's assertSupportedManifestIdentityContract
 * (TsatsuAmable/nemosyne src/session/NemosynePackage.ts). A V1's dataset identity is
 * checked later (verify.ts), as upstream's replay runner branches on it.
 */
function checkVersionRules(man: Manifest, findings: Finding[]): void {
  const m = man.raw;
  const fv = man.formatVersion;
  const algo = man.investigationDigestAlgorithm;
  const hex = (field: keyof Manifest & string, rule: RuleId) => {
    const v = man[field];
    if (typeof v === 'string' && !HEX64.test(v))
      findings.push(
        fail(rule, `${field} is not 64 lowercase hex digits`, {
          pointer: `${M}/${field}`,
          expected: '64 lowercase hex digits',
          actual: v,
        }),
      );
  };
  if (fv === 1) {
    // Upstream's only V1 rule; an empty string is no declaration there either.
    if (typeof m['investigationDigestAlgorithm'] === 'string' && m['investigationDigestAlgorithm'] !== '') {
      findings.push(
        fail('RPR-NEM-010', 'a V1 manifest declares investigationDigestAlgorithm (a format-v1 package cannot)', {
          pointer: M + '/investigationDigestAlgorithm',
          expected: 'absent',
          actual: algo,
        }),
      );
    }
    return;
  }
  if (m['datasetIdentityAlgorithm'] !== DATASET_IDENTITY_ALGORITHM) {
    findings.push(
      fail('RPR-NEM-013', `a V${fv} manifest declares datasetIdentityAlgorithm ${DATASET_IDENTITY_ALGORITHM}`, {
        pointer: M + '/datasetIdentityAlgorithm',
        expected: DATASET_IDENTITY_ALGORITHM,
        actual: str(m['datasetIdentityAlgorithm']),
      }),
    );
  }
  hex('datasetFingerprint', 'RPR-NEM-014');
  hex('investigationDigest', 'RPR-NEM-017');
  if (fv === 2) {
    if (algo !== null && algo !== DIGEST_V2)
      findings.push(
        fail(
          'RPR-NEM-015',
          "a V2 manifest's digest algorithm is absent (legacy) or sha256-canonical-investigation-v2",
          { pointer: M + '/investigationDigestAlgorithm', expected: DIGEST_V2, actual: algo },
        ),
      );
    return;
  }
  const required: (keyof Manifest & string)[] = [
    'analyticalDatasetFingerprint',
    'analyticalKernelVersion',
    'investigationDigest',
    'evidenceReceiptDigest',
    'investigationDigestAlgorithm',
  ];
  if (fv === 4) required.push('formaDigest');
  for (const f of required)
    if (man[f] === null || man[f] === '')
      findings.push(
        fail('RPR-NEM-016', `a V${fv} manifest must declare ${f}`, {
          pointer: `${M}/${f}`,
          expected: 'present',
          actual: man[f] === '' ? '' : 'absent',
        }),
      );
  if (man.kernelVersion === '')
    findings.push(
      fail('RPR-NEM-016', `a V${fv} manifest must declare an explicit kernelVersion`, {
        pointer: `${M}/kernelVersion`,
        expected: 'present',
        actual: '',
      }),
    );
  if (algo !== null && algo !== '' && algo !== DIGEST_V3) {
    findings.push(
      fail(
        'RPR-NEM-015',
        `a V${fv} manifest's digest algorithm must be ${DIGEST_V3}${fv === 4 ? ' (upstream labels V4 so; no reader accepts a -v4 label)' : ''}`,
        { pointer: M + '/investigationDigestAlgorithm', expected: DIGEST_V3, actual: algo },
      ),
    );
  }
  hex('analyticalDatasetFingerprint', 'RPR-NEM-017');
  hex('evidenceReceiptDigest', 'RPR-NEM-017');
  if (fv === 4) hex('formaDigest', 'RPR-NEM-017');
}

/**
 * Writes Nemosyne investigation packages V1-V4 with deterministic bytes: the intact
 * samples of `reprise examples`, the corrupted variants, the test fixtures and the
 * benchmark package. Layout and manifest serialization follow upstream's writer
 * (`JSON.stringify(manifest, null, 2)`, fflate raw deflate level 6, fixed timestamps).
 *
 * The investigation digest of these packages is computed over the semantic state that
 * the *example kernel* restores: a small, documented stand-in (EXAMPLE_ADAPTER_SOURCE,
 * written next to the examples as packages/kernel-adapter.mjs) that derives the state
 * from the package itself. It is not Nemosyne's analytical kernel, and it says so in its
 * version string.
 */
import { sha256Hex } from '../../core/hash.js';
import { buildZip, type RawArchive, type RawEntry } from '../../zip/writer.js';
import { DATASET_IDENTITY_ALGORITHM, datasetIdentityHex } from './dataset-identity.js';
import { investigationDigest, investigationRoot } from './digest.js';
import { DIGEST_V2, DIGEST_V3, type FormatVersion } from './manifest.js';
import { ENTRY } from './verify.js';

export const EXAMPLE_KERNEL = 'reprise-example-kernel/1';

/** The example kernel adapter, as a standalone ES module (no Reprise imports). */
export const EXAMPLE_ADAPTER_SOURCE = `// Reprise example kernel adapter (reprise-example-kernel/1).
// NOT Nemosyne's analytical kernel: a stand-in that restores a toy semantic state from the
// package itself, so that the example packages' investigation digests can be recomputed.
// Interface: export restore(input) -> {kernelVersion, analyticalDatasetFingerprint, state}.
import { createHash } from 'node:crypto';
const h = (b) => createHash('sha256').update(b).digest('hex');
export function restore(input) {
  const e = input.entries;
  const dataset = e['data/dataset.raw'];
  const commands = JSON.parse(Buffer.from(e['investigation/commands.log']).toString('utf8'));
  const analytical = h(dataset);
  return {
    kernelVersion: '${EXAMPLE_KERNEL}',
    analyticalDatasetFingerprint: analytical,
    state: {
      datasetFingerprint: analytical,
      immutableDatasetFingerprint: String(input.manifest.datasetFingerprint),
      kernelVersion: '${EXAMPLE_KERNEL}',
      analyticalState: { commands: commands.length, rowsSeen: JSON.parse(Buffer.from(dataset).toString('utf8')).rows.length },
      eventHashes: commands.map((c) => h(JSON.stringify(c))),
      resultHashes: [], structureHashes: [], observationHashes: [], findingHashes: [], annotationHashes: [],
      discoveryEpisodeHashes: [], nilOutcomeHashes: [],
    },
  };
}
`;

const h = sha256Hex;

/** The TypeScript twin of EXAMPLE_ADAPTER_SOURCE (the tests prove they agree). */
export function exampleRestoredState(
  datasetBytes: Uint8Array,
  commandsBytes: Uint8Array,
  datasetFingerprint: string,
): Record<string, unknown> {
  const commands = JSON.parse(Buffer.from(commandsBytes).toString('utf8')) as unknown[];
  const analytical = h(datasetBytes);
  return {
    datasetFingerprint: analytical,
    immutableDatasetFingerprint: datasetFingerprint,
    kernelVersion: EXAMPLE_KERNEL,
    analyticalState: {
      commands: commands.length,
      rowsSeen: (JSON.parse(Buffer.from(datasetBytes).toString('utf8')) as { rows: unknown[] }).rows.length,
    },
    eventHashes: commands.map((c) => h(JSON.stringify(c))),
    resultHashes: [],
    structureHashes: [],
    observationHashes: [],
    findingHashes: [],
    annotationHashes: [],
    discoveryEpisodeHashes: [],
    nilOutcomeHashes: [],
  };
}

export const SAMPLE_DATASET = {
  name: 'reprise-example-petals',
  columns: [
    { name: 'species', type: 'CATEGORICAL' },
    { name: 'petalLength', type: 'NUMERIC' },
  ],
  rows: [
    { rowId: 'r1', species: 'setosa', petalLength: 1.4 },
    { rowId: 'r2', species: 'setosa', petalLength: 1.3 },
    { rowId: 'r3', species: 'versicolor', petalLength: 4.7 },
    { rowId: 'r4', species: 'versicolor', petalLength: 4.5 },
    { rowId: 'r5', species: 'virginica', petalLength: 6 },
    { rowId: 'r6', species: 'virginica' },
  ],
  edges: [{ source: 'r1', target: 'r2', kind: 'similar' }],
};

/** The sample dataset's identity, which the sample ledger's events name. */
const SAMPLE_IDENTITY = datasetIdentityHex(SAMPLE_DATASET);

/** One analysis of the sample ledger, as upstream's AnalysisSpec records it. */
const analysis = (n: number, operation: Record<string, string>, intervention: string) => ({
  eventId: `example:${n}`,
  actor: 'reprise-example-analyst',
  timestamp: 1790000000000 + (n - 1) * 1000,
  kind: 'analysis',
  command: {
    datasetFingerprint: SAMPLE_IDENTITY,
    datasetVersion: 0,
    operation,
    algorithmVersion: EXAMPLE_KERNEL,
    label: operation['op'],
  },
  intervention,
  datasetVersion: 0,
  datasetFingerprint: SAMPLE_IDENTITY,
});

/**
 * The sample ledger, shaped as upstream's exporter writes `core.eventLedger` (ResearchEvent,
 * src/atlas/types.ts): every item a research event with its kind and epoch-ms timestamp, as
 * upstream's replay requires on the semantic-digest path. Each analysis records its
 * intervention and no result, which that replay matches without re-running it.
 */
export const SAMPLE_COMMANDS = [
  {
    eventId: 'example:1',
    actor: 'reprise-example-analyst',
    timestamp: 1790000000000,
    kind: 'load',
    command: { op: 'load' },
    datasetVersion: 0,
    datasetFingerprint: SAMPLE_IDENTITY,
  },
  analysis(2, { op: 'groupBy', column: 'species' }, 'group the petals by species, to compare the three species'),
  analysis(
    3,
    { op: 'summarize', column: 'petalLength' },
    'summarize petal length in each group: mean, spread and count',
  ),
];

/** Upstream's one governed consumer (GovernedConsumerAttestation.ts) and the profile it is held to. */
export const SAMPLE_CONSUMER = 'nemosyne:consumer/descriptive-statistics/v1';
export const SAMPLE_PROFILE = 'descriptive-summary/v1';
/** The example authority's second consumer, held to upstream's stricter profile and not required. */
export const INFERENTIAL_CONSUMER = 'reprise-example:consumer/inferential-claim';
export const INFERENTIAL_PROFILE = 'inferential-claim/v1';

export function sampleReceipt(
  analyticalFingerprint: string,
  id = 'rcpt-0001',
  kernel = EXAMPLE_KERNEL,
): Record<string, unknown> {
  return {
    receiptId: id,
    claimId: 'claim-0001',
    estimand: 'mean petal length by species',
    measurementContext: { status: 'NOT_ESTABLISHED' },
    geometry: {
      columns: ['petalLength'],
      metric: 'euclidean',
      transformations: ['standardize'],
      missingnessPolicy: 'completeCase',
    },
    assumptions: [{ assumption: 'independence', status: 'unchecked', detail: 'rows are assumed independent' }],
    sampleSupport: {
      totalRows: 6,
      rowsUsed: 5,
      rowsExcluded: 1,
      columns: ['petalLength'],
      policy: 'completeCase',
      exclusionReasons: [{ reason: 'missing petalLength', rowCount: 1 }],
    },
    uncertainty: { method: 'bootstrap', lower: 1.2, upper: 4.9, standardError: 0.4 },
    stability: null,
    sensitivity: [],
    limitations: ['a toy example'],
    methodProvenance: {
      method: 'groupMean',
      methodVersion: '1',
      kernelVersion: kernel,
      datasetFingerprint: analyticalFingerprint,
      parameters: [['groupBy', 'species']],
    },
  };
}

export interface PackageParts {
  version: FormatVersion;
  manifest: Record<string, unknown>;
  /** Entries other than manifest.json, in archive order. */
  files: { name: string; data: Buffer }[];
}

export interface PackageOptions {
  dataset?: unknown;
  commands?: unknown[];
  /** Envelope transform before it is serialized (V3/V4). */
  envelope?: (env: Record<string, unknown>) => Record<string, unknown>;
  /** Whether the manifest records an investigation digest (default true; V1: false). */
  digest?: boolean;
  extraFiles?: { name: string; data: Buffer }[];
  /** Kernel version the package declares (default EXAMPLE_KERNEL). */
  kernel?: string;
  /** Manifest edits applied last (after the digests: the investigation digest covers no manifest member). */
  manifest?: (m: Record<string, unknown>) => void;
}

const json = (v: unknown) => Buffer.from(JSON.stringify(v, null, 2), 'utf8');

/** Builds a consistent package of the given version. */
export function buildPackageParts(version: FormatVersion, opts: PackageOptions = {}): PackageParts {
  const datasetBytes = json(opts.dataset ?? SAMPLE_DATASET);
  const commandsBytes = json(opts.commands ?? SAMPLE_COMMANDS);
  const files: { name: string; data: Buffer }[] = [
    { name: ENTRY.dataset, data: datasetBytes },
    { name: ENTRY.commands, data: commandsBytes },
  ];
  const commandCount = (JSON.parse(commandsBytes.toString('utf8')) as unknown[]).length;
  const identity = version === 1 ? '4066128917' : datasetIdentityHex(JSON.parse(datasetBytes.toString('utf8')));
  const m: Record<string, unknown> = {
    formatVersion: version,
    sessionId: `session-example-v${version}`,
    datasetFingerprint: identity,
  };
  if (version >= 2) m['datasetIdentityAlgorithm'] = DATASET_IDENTITY_ALGORITHM;
  const analytical = h(datasetBytes);
  const kernel = opts.kernel ?? EXAMPLE_KERNEL;
  let envelopeValue: Record<string, unknown> | null = null;
  if (version >= 3) {
    m['analyticalDatasetFingerprint'] = analytical;
    let env: Record<string, unknown> = {
      schemaVersion: '1',
      bundle: {
        schemaVersion: '1',
        datasetFingerprint: analytical,
        kernelVersion: kernel,
        receipts: [sampleReceipt(analytical, 'rcpt-0001', kernel)],
      },
      uses: [{ consumerId: SAMPLE_CONSUMER, receiptId: 'rcpt-0001', requirementProfileId: SAMPLE_PROFILE }],
    };
    if (opts.envelope) env = opts.envelope(env);
    envelopeValue = env;
    files.push({ name: ENTRY.receipts, data: json(env) });
  }
  if (version === 4)
    files.push({
      name: ENTRY.forma,
      data: json({ schemaVersion: '1', forms: [{ id: 'form-1', title: 'Example form' }] }),
    });
  m['datasetName'] = 'reprise-example-petals';
  m['kernelVersion'] = kernel;
  if (version >= 3) m['analyticalKernelVersion'] = kernel;
  m['createdAt'] = 1790000000000;
  m['commandCount'] = commandCount;
  if (version >= 2) {
    // What upstream's exporter writes beside the identities (NemosyneSession.exportPortablePackage).
    m['discoveryCount'] = 0;
    m['nilOutcomeCount'] = 0;
    m['researchContext'] = {};
    m['evidenceSummary'] = { observationsCount: 0, findingsCount: 0, annotationsCount: 0 };
  }
  const withDigest = opts.digest ?? version >= 2;
  if (version >= 3) {
    const receipts = files.find((f) => f.name === ENTRY.receipts)!.data;
    m['evidenceReceiptDigest'] = sha256Hex(receipts);
    if (version === 4) m['formaDigest'] = sha256Hex(files.find((f) => f.name === ENTRY.forma)!.data);
  }
  if (withDigest && version >= 2) {
    const algorithm = version === 2 ? DIGEST_V2 : DIGEST_V3;
    m['investigationDigestAlgorithm'] = algorithm;
    const state = exampleRestoredState(datasetBytes, commandsBytes, identity);
    const root = investigationRoot(
      version as 2 | 3 | 4,
      algorithm,
      state,
      envelopeValue ? { envelope: envelopeValue, memberDigest: m['evidenceReceiptDigest'] as string } : undefined,
    );
    m['investigationDigest'] = investigationDigest(root);
  }
  m['environment'] = { platform: 'reprise-examples', webxrSupported: false };
  opts.manifest?.(m);
  if (opts.extraFiles) files.push(...opts.extraFiles);
  return { version, manifest: m, files };
}

/** The archive's entries: manifest.json first, as upstream writes it. */
export function packageEntries(p: PackageParts): RawEntry[] {
  return [{ name: ENTRY.manifest, data: json(p.manifest) }, ...p.files.map((f) => ({ name: f.name, data: f.data }))];
}

export function packPackage(p: PackageParts, tweak?: (a: RawArchive) => RawArchive): Buffer {
  const a: RawArchive = { entries: packageEntries(p) };
  return buildZip(tweak ? tweak(a) : a);
}

type RegistryConsumer = { consumerId: string; requirementProfileId: string; receiptDependent: boolean };

/**
 * The example authority's profile registry: upstream's two minted profiles
 * (EvidenceRequirementProfile.ts), upstream's governed consumer under
 * `descriptive-summary/v1` (ConsumerPolicyRegistry.ts), and one example consumer under
 * `inferential-claim/v1` that packages may omit. docs/nemosyne-profiles.example.json is
 * this file; a test keeps them equal.
 */
export function sampleProfiles(opts: { consumers?: RegistryConsumer[]; extraProfiles?: unknown[] } = {}): string {
  const consumers = opts.consumers ?? [
    { consumerId: SAMPLE_CONSUMER, requirementProfileId: SAMPLE_PROFILE, receiptDependent: true },
    { consumerId: INFERENTIAL_CONSUMER, requirementProfileId: INFERENTIAL_PROFILE, receiptDependent: false },
  ];
  const registry = {
    type: 'reprise.nemosyne-profiles/v2',
    authority: 'Reprise example authority',
    profiles: [
      {
        profileId: SAMPLE_PROFILE,
        requiredAxes: [],
        assumptionRequirement: { refuseViolated: true, refuseUnresolved: false },
      },
      {
        profileId: INFERENTIAL_PROFILE,
        requiredAxes: ['measurementContextEstablished', 'uncertainty'],
        assumptionRequirement: { refuseViolated: true, refuseUnresolved: true },
      },
      ...(opts.extraProfiles ?? []),
    ],
    consumers,
  };
  return JSON.stringify(registry, null, 2) + '\n';
}

/**
 * The sample packages: intact packages of each version and one corrupted variant per
 * refusal code and per manifest rule, with the verdict and rule each is made for, both
 * for a plain `reprise verify` and for `reprise verify --kernel-adapter
 * packages/kernel-adapter.mjs --profiles packages/profiles.json` (when that differs).
 * Deterministic bytes; used by `reprise examples` and by the tests.
 */
import { sha256Hex } from '../../core/hash.js';
import { buildZip, deflateRaw as deflate, type RawArchive, type RawEntry } from '../../zip/writer.js';
import {
  buildPackageParts,
  EXAMPLE_ADAPTER_SOURCE,
  INFERENTIAL_CONSUMER,
  INFERENTIAL_PROFILE,
  packageEntries,
  packPackage,
  sampleProfiles,
  SAMPLE_COMMANDS,
  SAMPLE_CONSUMER,
  SAMPLE_DATASET,
  SAMPLE_PROFILE,
  type PackageParts,
} from './package-writer.js';
import { DATASET_IDENTITY_ALGORITHM, datasetIdentityHex } from './dataset-identity.js';
import { DIGEST_V2, DIGEST_V3 } from './manifest.js';
import { ENTRY } from './verify.js';

type Verdict = 'pass' | 'fail' | 'unavailable';
export interface Expectation {
  verdict: Verdict;
  rule?: string;
}
export interface SamplePackage {
  /** File name under packages/. */
  name: string;
  bytes: Buffer;
  note: string;
  expect: Expectation;
  /** With the example kernel adapter and profile registry, when different. */
  withFlags?: Expectation;
}

export const ADAPTER_FILE = 'kernel-adapter.mjs';
export const PROFILES_FILE = 'profiles.json';

type Env = Record<string, unknown>;
const bundle = (e: Env) => e['bundle'] as Env;
const receipt0 = (e: Env) => (bundle(e)['receipts'] as Env[])[0]!;
const uses = (e: Env) => e['uses'] as Env[];
const json = (v: unknown) => Buffer.from(JSON.stringify(v, null, 2), 'utf8');

function v3(opts: Parameters<typeof buildPackageParts>[1] = {}): PackageParts {
  return buildPackageParts(3, opts);
}
function setFile(p: PackageParts, name: string, data: Buffer | null): PackageParts {
  const files = p.files.filter((f) => f.name !== name);
  if (data) {
    const i = p.files.findIndex((f) => f.name === name);
    files.splice(i < 0 ? files.length : i, 0, { name, data });
  }
  return { ...p, files };
}
function withManifest(p: PackageParts, edit: (m: Env) => void): PackageParts {
  const m = structuredClone(p.manifest);
  edit(m);
  return { ...p, manifest: m };
}
/** A package whose entry `index` (0 = manifest.json) gets header overrides. */
function zipTweak(p: PackageParts, edit: (entries: RawEntry[], a: RawArchive) => void): Buffer {
  return packPackage(p, (a) => {
    edit(a.entries, a);
    return a;
  });
}
const extra = (name: string | Buffer, data: string | Buffer = 'extra'): RawEntry => ({ name, data });

function zipSamples(): SamplePackage[] {
  const base = v3();
  const z = (name: string, rule: string, note: string, bytes: Buffer): SamplePackage => ({
    name: `zip/${name}.nemosyne`,
    bytes,
    note,
    expect: { verdict: 'fail', rule },
  });
  /** A warning on the intact V3: unavailable without the adapter and registry, a pass with them. */
  const zw = (name: string, rule: string, note: string, bytes: Buffer): SamplePackage => ({
    ...z(name, rule, note, bytes),
    expect: { verdict: 'unavailable', rule },
    withFlags: { verdict: 'pass', rule },
  });
  const n = packageEntries(base).length;
  return [
    z(
      '001-not-a-zip',
      'RPR-ZIP-001',
      'a local-header signature followed by garbage: no end record',
      Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(40, 0x41)]),
    ),
    z(
      '002-comment',
      'RPR-ZIP-002',
      'an archive comment: the end record is not the last 22 bytes',
      zipTweak(base, (_e, a) => (a.trailer = Buffer.from('comment'))),
    ),
    z(
      '003-second-eocd',
      'RPR-ZIP-003',
      'a second end record hidden in a central-directory comment',
      zipTweak(
        base,
        (e) => (e[1]!.central = { comment: Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]) }),
      ),
    ),
    z(
      '004-disk',
      'RPR-ZIP-004',
      'the end record names disk 1',
      zipTweak(base, (_e, a) => (a.eocd = { diskNumber: 1 })),
    ),
    z(
      '005-counts',
      'RPR-ZIP-005',
      'entries-on-disk and total entries disagree',
      zipTweak(base, (_e, a) => (a.eocd = { entriesOnDisk: n - 1 })),
    ),
    z(
      '006-zip64-extra',
      'RPR-ZIP-006',
      'a ZIP64 extra field the archive does not need',
      zipTweak(base, (e) => {
        const x = Buffer.concat([Buffer.from([1, 0, 16, 0]), Buffer.alloc(16)]);
        e[1]!.local = { extra: x };
        e[1]!.central = { extra: x };
      }),
    ),
    z(
      '007-cd-offset',
      'RPR-ZIP-007',
      'the end record points one byte past the central directory',
      zipTweak(base, (_e, a) => (a.beforeEocd = Buffer.from([0]))),
    ),
    z(
      '008-prepended',
      'RPR-ZIP-008',
      'data prepended before the first entry (a polyglot)',
      zipTweak(base, (_e, a) => (a.prefix = Buffer.from('#!/bin/sh\necho polyglot\nexit 0\n'))),
    ),
    z(
      '008-between',
      'RPR-ZIP-008',
      'unaccounted bytes between two entries',
      zipTweak(base, (e) => (e[1]!.after = Buffer.from('hidden'))),
    ),
    z(
      '009-overlap',
      'RPR-ZIP-009',
      'two central records point at the same local header (full-overlap bomb)',
      zipTweak(base, (e) => {
        e.push(extra('extras/copy.raw'));
        e[e.length - 1]!.central = { localOffset: 0, nameBytes: Buffer.from('extras/copy.raw') };
      }),
    ),
    z(
      '010-local-signature',
      'RPR-ZIP-010',
      'no local header where the central directory points',
      zipTweak(base, (e) => (e[1]!.local = { signature: 0x12345678 })),
    ),
    z(
      '011-local-name',
      'RPR-ZIP-011',
      'the local header names another file than the central directory',
      zipTweak(base, (e) => (e[0]!.local = { nameBytes: Buffer.from('manifest.jsoN') })),
    ),
    z(
      '012-local-method',
      'RPR-ZIP-012',
      'the local header says stored, the central directory deflate',
      zipTweak(base, (e) => (e[1]!.local = { method: 0 })),
    ),
    z(
      '013-local-crc',
      'RPR-ZIP-013',
      'the local header CRC-32 disagrees with the central directory',
      zipTweak(base, (e) => (e[1]!.local = { crc32: 0xdeadbeef })),
    ),
    z(
      '014-descriptor',
      'RPR-ZIP-014',
      'a data descriptor that disagrees with the central directory',
      zipTweak(base, (e) => (e[1]!.descriptor = { crc32: 0xdeadbeef })),
    ),
    z(
      '015-crc',
      'RPR-ZIP-015',
      'both headers agree on a CRC-32 the data does not have',
      zipTweak(base, (e) => {
        e[1]!.local = { crc32: 0x01020304 };
        e[1]!.central = { crc32: 0x01020304 };
      }),
    ),
    z(
      '016-longer',
      'RPR-ZIP-016',
      'the data inflates past the declared size',
      zipTweak(base, (e) => {
        const s = Buffer.from(e[1]!.data as Buffer).length - 10;
        e[1]!.local = { uncompressedSize: s };
        e[1]!.central = { uncompressedSize: s };
      }),
    ),
    z(
      '017-shorter',
      'RPR-ZIP-017',
      'the data inflates to fewer bytes than declared',
      zipTweak(base, (e) => {
        const s = Buffer.from(e[1]!.data as Buffer).length + 10;
        e[1]!.local = { uncompressedSize: s };
        e[1]!.central = { uncompressedSize: s };
      }),
    ),
    z(
      '018-leftover',
      'RPR-ZIP-018',
      'compressed bytes left over after the deflate stream ends',
      zipTweak(base, (e) => {
        const d = Buffer.from(e[1]!.data as Buffer);
        e[1]!.compressed = Buffer.concat([deflate(d), Buffer.from('JUNK')]);
      }),
    ),
    z(
      '019-ratio',
      'RPR-ZIP-019',
      'an entry declaring 4 MiB from the few bytes that deflate 1 KiB of zeros: a ratio no deflate stream reaches',
      zipTweak(base, (e) =>
        e.push({
          ...extra('extras/zeros.bin', Buffer.alloc(4 * 1024 * 1024)),
          compressed: deflate(Buffer.alloc(1024)),
        }),
      ),
    ),
    z(
      '020-method',
      'RPR-ZIP-020',
      'compression method 12 (bzip2)',
      zipTweak(base, (e) => {
        e[1]!.local = { method: 12 };
        e[1]!.central = { method: 12 };
      }),
    ),
    z(
      '021-encrypted',
      'RPR-ZIP-021',
      'the encryption flag is set',
      zipTweak(base, (e) => {
        e[1]!.local = { flags: 1 };
        e[1]!.central = { flags: 1 };
      }),
    ),
    z(
      '022-symlink',
      'RPR-ZIP-022',
      'a Unix symbolic link entry',
      zipTweak(base, (e) => {
        e.push(extra('extras/link', '/etc/passwd'));
        e[e.length - 1]!.central = { versionMadeBy: 0x0314, externalAttrs: (0o120777 << 16) >>> 0 };
      }),
    ),
    z(
      '023-unicode-path',
      'RPR-ZIP-023',
      'an Info-ZIP unicode-path extra field carrying a second name',
      zipTweak(base, (e) => {
        const x = Buffer.concat([Buffer.from([0x75, 0x70, 9, 0, 1, 0, 0, 0, 0]), Buffer.from('evil')]);
        e[1]!.local = { extra: x };
        e[1]!.central = { extra: x };
      }),
    ),
    z(
      '024-bad-extra',
      'RPR-ZIP-024',
      'an extra field whose length runs past the extra area',
      zipTweak(base, (e) => (e[1]!.central = { extra: Buffer.from([0x99, 0x99, 0xff, 0x00]) })),
    ),
    z('025-empty', 'RPR-ZIP-025', 'an archive with no entries', buildZip({ entries: [] })),
    z(
      '026-stored-sizes',
      'RPR-ZIP-026',
      'a stored entry whose compressed and uncompressed sizes differ',
      zipTweak(base, (e) => {
        e[1]!.method = 0;
        const s = Buffer.from(e[1]!.data as Buffer).length + 1;
        e[1]!.local = { uncompressedSize: s };
        e[1]!.central = { uncompressedSize: s };
      }),
    ),
    z(
      '031-too-many-entries',
      'RPR-ZIP-031',
      '1,001 entries: over the default maxEntries of 1,000',
      zipTweak(base, (e) => {
        for (let i = 0; e.length < 1001; i++) e.push(extra(`extras/f${i}.txt`, ''));
      }),
    ),
    z(
      '032-entry-size',
      'RPR-ZIP-032',
      'an entry declaring 200 MiB: over the default maxEntryBytes',
      zipTweak(base, (e) => {
        e.push(extra('extras/big.bin', 'x'));
        const s = 200 * 1024 * 1024;
        e[e.length - 1]!.local = { uncompressedSize: s };
        e[e.length - 1]!.central = { uncompressedSize: s };
      }),
    ),
    z(
      '033-total-size',
      'RPR-ZIP-033',
      'three entries declaring 90 MiB each: over the default maxTotalBytes',
      zipTweak(base, (e) => {
        for (let i = 0; i < 3; i++) {
          e.push(extra(`extras/big${i}.bin`, 'x'));
          const s = 90 * 1024 * 1024;
          e[e.length - 1]!.local = { uncompressedSize: s };
          e[e.length - 1]!.central = { uncompressedSize: s };
        }
      }),
    ),
    z(
      '040-empty-name',
      'RPR-ZIP-040',
      'an entry with an empty name',
      zipTweak(base, (e) => e.push(extra(''))),
    ),
    z(
      '041-absolute',
      'RPR-ZIP-041',
      'an absolute path',
      zipTweak(base, (e) => e.push(extra('/etc/cron.d/evil'))),
    ),
    z(
      '041-drive',
      'RPR-ZIP-041',
      'a drive-letter path',
      zipTweak(base, (e) => e.push(extra('C:/Windows/evil.dll'))),
    ),
    z(
      '042-backslash',
      'RPR-ZIP-042',
      'a backslash in a name',
      zipTweak(base, (e) => e.push(extra('extras\\..\\evil.txt'))),
    ),
    z(
      '043-dotdot',
      'RPR-ZIP-043',
      'a ".." segment (zip-slip)',
      zipTweak(base, (e) => e.push(extra('extras/../../evil.txt'))),
    ),
    z(
      '044-control',
      'RPR-ZIP-044',
      'a control character in a name',
      zipTweak(base, (e) => e.push(extra('extras/a\u0001b.txt'))),
    ),
    z(
      '045-bidi',
      'RPR-ZIP-045',
      'a right-to-left override disguising an extension',
      zipTweak(base, (e) => e.push(extra('extras/report\u202Efdp.exe'))),
    ),
    zw(
      '046-case-collision',
      'RPR-ZIP-046',
      'two names that collide after case folding (a warning: upstream writes and reads both; one file only where extracted)',
      zipTweak(base, (e) => e.push(extra('extras/Readme.txt'), extra('extras/README.txt'))),
    ),
    zw(
      '046-nfc-collision',
      'RPR-ZIP-046',
      'two names that collide after NFC normalization (a warning: upstream writes and reads both; one file only where extracted)',
      zipTweak(base, (e) => e.push(extra('extras/caf\u00e9.txt'), extra('extras/cafe\u0301.txt'))),
    ),
    z(
      '047-file-and-directory',
      'RPR-ZIP-047',
      'a file and a directory of the same name',
      zipTweak(base, (e) => e.push(extra('extras/a'), extra('extras/a/b'))),
    ),
    z(
      '048-duplicate',
      'RPR-ZIP-048',
      'data/dataset.raw twice (last-wins readers see the second)',
      zipTweak(base, (e) => e.push(extra(ENTRY.dataset, '{"name":"other"}'))),
    ),
    z(
      '049-percent-encoded',
      'RPR-ZIP-049',
      'a percent-encoded slash that upstream decodes into a different path',
      zipTweak(base, (e) => e.push(extra('extras/a%2Fb.txt'))),
    ),
    z(
      '050-cp437-name',
      'RPR-ZIP-050',
      'a non-ASCII name without the UTF-8 flag',
      zipTweak(base, (e) => e.push(extra(Buffer.from([0x65, 0x78, 0x74, 0x72, 0x61, 0x73, 0x2f, 0x81])))),
    ),
    z(
      '051-long-name',
      'RPR-ZIP-051',
      'a 600-byte name segment',
      zipTweak(base, (e) => e.push(extra('extras/' + 'a'.repeat(600)))),
    ),
  ];
}

function packageSamples(): SamplePackage[] {
  const out: SamplePackage[] = [];
  const add: Add = (name, note, parts, expect, withFlags) => {
    const s: SamplePackage = {
      name: `${name}.nemosyne`,
      bytes: Buffer.isBuffer(parts) ? parts : packPackage(parts),
      note,
      expect,
    };
    if (withFlags) s.withFlags = withFlags;
    out.push(s);
  };
  intactSamples(add);
  manifestSamples(add);
  versionSamples(add);
  envelopeSamples(add);
  consumerSamples(add);
  return out;
}

const failWith = (rule: string): Expectation => ({ verdict: 'fail', rule });
const noFlagsV3: Expectation = { verdict: 'unavailable', rule: 'KERNEL_MISMATCH' };
/** The bytes of a package's receipt entry. */
const receiptBytes = (p: PackageParts): Buffer => p.files.find((f) => f.name === ENTRY.receipts)!.data;

/** Intact packages of each version. */
function intactSamples(add: Add): void {
  add('intact/v1', 'intact V1 (legacy): its decimal fingerprint cannot be recomputed', buildPackageParts(1), {
    verdict: 'unavailable',
    rule: 'RPR-NEM-012',
  });
  add('intact/v2', 'intact V2 with a v2 investigation digest', buildPackageParts(2), noFlagsV3, { verdict: 'pass' });
  add('intact/v2-no-digest', 'intact V2 recording no investigation digest', buildPackageParts(2, { digest: false }), {
    verdict: 'pass',
    rule: 'RPR-NEM-027',
  });
  add(
    'intact/v3',
    'intact V3: receipts, uses, v3 digest',
    buildPackageParts(3),
    { verdict: 'unavailable', rule: 'RPR-NEM-040' },
    { verdict: 'pass' },
  );
  add(
    'intact/v4',
    'intact V4: V3 plus forma.json',
    buildPackageParts(4),
    { verdict: 'unavailable', rule: 'KERNEL_MISMATCH' },
    { verdict: 'pass' },
  );
  // Python's zipfile writes permissions 0o600 and no file type; upstream never reads the attributes.
  const permissionsOnly = packPackage(buildPackageParts(3), (a) => ({
    ...a,
    entries: a.entries.map((e) => ({ ...e, central: { versionMadeBy: 0x0314, externalAttrs: (0o600 << 16) >>> 0 } })),
  }));
  add(
    'intact/v3-permissions-only',
    "intact V3 whose entries carry Unix permissions 0600 and no file type, as Python's zipfile writes them",
    permissionsOnly,
    { verdict: 'unavailable', rule: 'RPR-NEM-040' },
    { verdict: 'pass' },
  );
  const lowerCaseTypes = {
    ...SAMPLE_DATASET,
    columns: SAMPLE_DATASET.columns.map((c) => ({ ...c, type: c.type.toLowerCase() })),
  };
  add(
    'intact/v3-lower-case-types',
    'intact V3 whose dataset stores lower-case column types: upstream upper-cases them before the identity is computed',
    buildPackageParts(3, { dataset: lowerCaseTypes }),
    { verdict: 'unavailable', rule: 'RPR-NEM-040' },
    { verdict: 'pass' },
  );
}

/** Manifest and entry-set rules. */
function manifestSamples(add: Add): void {
  const base = v3();
  add(
    'manifest/001-no-manifest',
    'no manifest.json',
    buildZip({ entries: packageEntries(base).slice(1) }),
    failWith('RPR-NEM-001'),
  );
  add(
    'manifest/002-not-json',
    'manifest.json is not JSON',
    zipTweak(base, (e) => (e[0]!.data = '{"formatVersion": 3,')),
    failWith('RPR-NEM-002'),
  );
  add(
    'manifest/002-duplicate-member',
    'manifest.json repeats a member (refused, never last-wins)',
    zipTweak(
      base,
      (e) =>
        (e[0]!.data = Buffer.from(
          String(e[0]!.data).replace('"formatVersion": 3,', '"formatVersion": 3,\n  "formatVersion": 2,'),
        )),
    ),
    failWith('RPR-NEM-002'),
  );
  add(
    'manifest/003-version-5',
    'formatVersion 5',
    withManifest(base, (m) => (m['formatVersion'] = 5)),
    failWith('RPR-NEM-003'),
  );
  add(
    'manifest/003-version-string',
    'formatVersion "3" (a string)',
    withManifest(base, (m) => (m['formatVersion'] = '3')),
    failWith('RPR-NEM-003'),
  );
  add(
    'manifest/004-type',
    'createdAt is a date string, not epoch milliseconds',
    withManifest(base, (m) => (m['createdAt'] = '2026-09-28T00:00:00Z')),
    failWith('RPR-NEM-004'),
  );
  add(
    'manifest/005-unknown-member',
    'an unknown manifest member (a warning; nothing commits to it)',
    withManifest(base, (m) => (m['trusted'] = true)),
    { verdict: 'unavailable', rule: 'RPR-NEM-005' },
    { verdict: 'pass', rule: 'RPR-NEM-005' },
  );
  add('manifest/006-no-dataset', 'no data/dataset.raw', setFile(base, ENTRY.dataset, null), failWith('RPR-NEM-006'));
  add(
    'manifest/006-empty-dataset',
    'an empty data/dataset.raw',
    setFile(base, ENTRY.dataset, Buffer.alloc(0)),
    failWith('RPR-NEM-006'),
  );
  add(
    'manifest/007-empty-ledger',
    'commandCount 3 with an empty commands.log',
    setFile(base, ENTRY.commands, Buffer.from('[]')),
    failWith('RPR-NEM-007'),
  );
  add(
    'manifest/007-ledger-not-array',
    'commands.log is a JSON object, not the event array',
    setFile(base, ENTRY.commands, Buffer.from('{"events":[]}')),
    failWith('RPR-NEM-007'),
  );
  const finding = {
    kind: 'finding',
    findingEntity: { title: 'setosa petals are shortest', observationIds: [] },
    timestamp: 1790000003000,
  };
  add(
    'manifest/028-evidence-summary',
    "evidenceSummary declares no findings, the ledger records one: upstream's replay refuses the findings count mismatch",
    v3({ commands: [...SAMPLE_COMMANDS, finding] }),
    failWith('RPR-NEM-028'),
  );
  add(
    'manifest/019-command-count',
    "commandCount 4 with 3 events in the ledger: upstream's replay refuses the mismatch",
    withManifest(base, (m) => (m['commandCount'] = 4)),
    failWith('RPR-NEM-019'),
  );
  add(
    'manifest/019-command-count-legacy',
    "a legacy V2 (no digest algorithm, no digest) whose commandCount differs: a warning, as upstream's legacy replay never compares them",
    buildPackageParts(2, { digest: false, manifest: (m) => (m['commandCount'] = 7) }),
    { verdict: 'pass', rule: 'RPR-NEM-019' },
  );
  add(
    'manifest/004-research-context-empty',
    'researchContext {} as the exporter writes it, on a V2',
    buildPackageParts(2, { digest: false }),
    { verdict: 'pass' },
  );
  add(
    'manifest/004-observer-mode-string',
    'researchContext.observerMode "false" (a string, not a boolean)',
    withManifest(base, (m) => (m['researchContext'] = { studyId: 'study-1', observerMode: 'false' })),
    failWith('RPR-NEM-004'),
  );
  add(
    'manifest/004-research-context-full',
    'every researchContext member, observerMode a boolean',
    withManifest(
      base,
      (m) =>
        (m['researchContext'] = {
          studyId: 'study-1',
          researchQuestion: 'q',
          hypothesis: 'h',
          variablesOfInterest: ['petalLength'],
          currentTask: 't',
          observerMode: false,
        }),
    ),
    noFlagsV3,
    { verdict: 'pass' },
  );
  add(
    'manifest/008-representation-missing',
    'a representation model without investigation/representation.json',
    withManifest(base, (m) => (m['representationModel'] = { fitnessModelVersion: '1' })),
    failWith('RPR-NEM-008'),
  );
  add(
    'manifest/009-unknown-entry',
    'an entry outside the format (a warning)',
    v3({ extraFiles: [{ name: 'notes.txt', data: Buffer.from('hi') }] }),
    { verdict: 'unavailable', rule: 'RPR-NEM-009' },
    { verdict: 'pass', rule: 'RPR-NEM-009' },
  );
}

/** Rules of one format version, and the member digests. */
function versionSamples(add: Add): void {
  const base = v3();
  const envBytes = receiptBytes(base);
  const v1 = buildPackageParts(1);
  add(
    'manifest/010-v1-digest-algorithm',
    "a V1 manifest declaring a digest algorithm (upstream's one V1 rule)",
    withManifest(v1, (m) => (m['investigationDigestAlgorithm'] = DIGEST_V2)),
    failWith('RPR-NEM-010'),
  );
  const canonical = datasetIdentityHex(SAMPLE_DATASET);
  const v1Canonical = (algorithm: string | null, fingerprint: string) =>
    buildPackageParts(1, {
      manifest: (m) => {
        m['datasetFingerprint'] = fingerprint;
        if (algorithm !== null) m['datasetIdentityAlgorithm'] = algorithm;
      },
    });
  add(
    'intact/v1-canonical-identity',
    'a V1 declaring sha256-canonical-dataset-v1 with its 64-hex fingerprint: checked like a V2',
    v1Canonical(DATASET_IDENTITY_ALGORITHM, canonical),
    { verdict: 'pass' },
  );
  add(
    'digest/022-v1-canonical-identity',
    'a V1 declaring sha256-canonical-dataset-v1 with a fingerprint of other data',
    v1Canonical(DATASET_IDENTITY_ALGORITHM, 'b'.repeat(64)),
    failWith('RPR-NEM-022'),
  );
  add(
    'manifest/011-v1-other-identity-name',
    'a V1 naming another identity algorithm: upstream ignores the name and checks the canonical identity (a warning)',
    v1Canonical('sha1-dataset', canonical),
    { verdict: 'pass', rule: 'RPR-NEM-011' },
  );
  add(
    'manifest/024-v1-legacy-metadata',
    'a V1 carrying formaDigest {historicallyUnknown: true} and an evidenceReceiptDigest: removed before validation, no authority',
    withManifest(v1, (m) => {
      m['evidenceReceiptDigest'] = 'not a digest';
      m['formaDigest'] = { historicallyUnknown: true };
    }),
    { verdict: 'unavailable', rule: 'RPR-NEM-024' },
  );
  const v2 = buildPackageParts(2);
  add(
    'manifest/013-v2-identity-algorithm',
    'a V2 manifest naming another dataset identity algorithm',
    withManifest(v2, (m) => (m['datasetIdentityAlgorithm'] = 'sha1-dataset')),
    failWith('RPR-NEM-013'),
  );
  add(
    'manifest/014-v2-fingerprint-format',
    'a V2 fingerprint in upper-case hex',
    withManifest(v2, (m) => (m['datasetFingerprint'] = String(m['datasetFingerprint']).toUpperCase())),
    failWith('RPR-NEM-014'),
  );
  add(
    'manifest/015-v3-algorithm',
    'a V3 manifest declaring the v2 digest algorithm',
    withManifest(base, (m) => (m['investigationDigestAlgorithm'] = DIGEST_V2)),
    failWith('RPR-NEM-015'),
  );
  add(
    'manifest/015-v4-label',
    'a V4 labelled sha256-canonical-investigation-v4, which no upstream reader accepts',
    withManifest(buildPackageParts(4), (m) => (m['investigationDigestAlgorithm'] = DIGEST_V3.replace(/v3$/, 'v4'))),
    failWith('RPR-NEM-015'),
  );
  add(
    'manifest/016-v3-missing-declaration',
    'a V3 manifest without analyticalKernelVersion (never retried as V2)',
    withManifest(base, (m) => delete m['analyticalKernelVersion']),
    failWith('RPR-NEM-016'),
  );
  add(
    'manifest/017-v3-digest-format',
    'a V3 evidenceReceiptDigest that is not 64 hex digits',
    withManifest(base, (m) => (m['evidenceReceiptDigest'] = 'abc')),
    failWith('RPR-NEM-017'),
  );
  add(
    'manifest/018-v3-no-receipts',
    'a V3 package without its reserved receipt entry',
    setFile(base, ENTRY.receipts, null),
    failWith('RPR-NEM-018'),
  );
  add(
    'manifest/018-v4-no-forma',
    'a V4 package without investigation/forma.json',
    setFile(buildPackageParts(4), ENTRY.forma, null),
    failWith('RPR-NEM-018'),
  );
  add(
    'digest/020-receipt-bytes',
    'the receipt entry re-serialized (same JSON, other bytes) without updating evidenceReceiptDigest',
    setFile(base, ENTRY.receipts, Buffer.from(JSON.stringify(JSON.parse(envBytes.toString('utf8'))))),
    failWith('RPR-NEM-020'),
  );
  const v4 = buildPackageParts(4);
  const notJson = Buffer.from('{"schemaVersion": 1, "staticCapture":');
  add(
    'digest/029-forma-not-json',
    "forma.json is not JSON, its formaDigest updated to match: upstream's replay refuses it (governed forma integrity failure)",
    withManifest(setFile(v4, ENTRY.forma, notJson), (m) => (m['formaDigest'] = sha256Hex(notJson))),
    failWith('RPR-NEM-029'),
  );
  add(
    'digest/021-forma-bytes',
    'forma.json changed without updating formaDigest',
    setFile(v4, ENTRY.forma, Buffer.from('{"schemaVersion":"1","forms":[]}')),
    failWith('RPR-NEM-021'),
  );
  const ds = JSON.parse(base.files[0]!.data.toString('utf8')) as Env;
  (ds['rows'] as Env[])[0]!['petalLength'] = 9.9;
  add(
    'digest/022-dataset-identity',
    'a dataset value changed without updating datasetFingerprint',
    setFile(base, ENTRY.dataset, json(ds)),
    failWith('RPR-NEM-022'),
  );
  add(
    'digest/023-dataset-shape',
    'data/dataset.raw has no columns',
    setFile(base, ENTRY.dataset, Buffer.from('{"name":"x","rows":[]}')),
    failWith('RPR-NEM-023'),
  );
  add(
    'manifest/024-v2-with-receipt-digest',
    'a V2 manifest carrying evidenceReceiptDigest (ignored: V2 never carries governed capability)',
    withManifest(buildPackageParts(2, { digest: false }), (m) => (m['evidenceReceiptDigest'] = 'a'.repeat(64))),
    { verdict: 'pass', rule: 'RPR-NEM-024' },
  );
  const downgraded = withManifest(base, (m) => {
    m['formatVersion'] = 2;
    m['investigationDigestAlgorithm'] = DIGEST_V2;
  });
  add(
    'manifest/025-v3-rewritten-as-v2',
    'a V3 package relabelled V2: its receipts are data only and its digest no longer matches',
    downgraded,
    { verdict: 'unavailable', rule: 'RPR-NEM-025' },
    failWith('INVESTIGATION_DIGEST_MISMATCH'),
  );
  add(
    'manifest/026-v2-legacy-digest',
    'a V2 digest with no algorithm: the legacy schema-v1 root',
    withManifest(v2, (m) => delete m['investigationDigestAlgorithm']),
    { verdict: 'unavailable', rule: 'RPR-NEM-026' },
  );
}

/** Envelope (closed parsing): the digest is kept consistent so only the closed rule fires. */
function envelopeSamples(add: Add): void {
  const base = v3();
  const env = (name: string, note: string, rule: string, edit: (e: Env) => Env | void) =>
    add(
      `envelope/${name}`,
      note,
      v3({
        envelope: (e) => {
          const c = structuredClone(e);
          return edit(c) ?? c;
        },
      }),
      failWith(rule),
    );
  add(
    'envelope/030-not-json',
    'the receipt entry is not JSON (its digest updated to match)',
    (() => {
      const bad = Buffer.from('{"schemaVersion":"1",');
      return withManifest(setFile(base, ENTRY.receipts, bad), (m) => (m['evidenceReceiptDigest'] = sha256Hex(bad)));
    })(),
    failWith('RPR-NEM-030'),
  );
  env('031-unknown-member', 'an unknown envelope member', 'RPR-NEM-031', (e) => void (e['capability'] = 'granted'));
  env(
    '031-missing-member',
    'a receipt without limitations',
    'RPR-NEM-031',
    (e) => void delete receipt0(e)['limitations'],
  );
  env(
    '032-empty-consumer',
    'a use whose consumerId is empty',
    'RPR-NEM-032',
    (e) => void (uses(e)[0]!['consumerId'] = ''),
  );
  env('032-schema-version', 'schemaVersion 1 as a number', 'RPR-NEM-032', (e) => void (e['schemaVersion'] = 1));
  env('033-duplicate-use', 'the same use twice', 'RPR-NEM-033', (e) => void uses(e).push(structuredClone(uses(e)[0]!)));
  env(
    '034-duplicate-receipt',
    'two receipts with one id',
    'RPR-NEM-034',
    (e) => void (bundle(e)['receipts'] as Env[]).push(structuredClone(receipt0(e))),
  );
  env(
    '035-assumption-status',
    'an assumption status outside the enumeration',
    'RPR-NEM-035',
    (e) => void ((receipt0(e)['assumptions'] as Env[])[0]!['status'] = 'assumed'),
  );
  env(
    '036-sample-support',
    'rowsExcluded is not totalRows - rowsUsed',
    'RPR-NEM-036',
    (e) => void ((receipt0(e)['sampleSupport'] as Env)['rowsExcluded'] = 2),
  );
  env(
    '037-receipt-provenance',
    "a receipt's provenance names another kernel than its bundle",
    'RPR-NEM-037',
    (e) => void ((receipt0(e)['methodProvenance'] as Env)['kernelVersion'] = 'nemosyne-kernel/0.1.0'),
  );
  env('DATASET_MISMATCH', "the bundle's dataset is not the manifest's analytical dataset", 'DATASET_MISMATCH', (e) => {
    const other = 'f'.repeat(64);
    bundle(e)['datasetFingerprint'] = other;
    (receipt0(e)['methodProvenance'] as Env)['datasetFingerprint'] = other;
  });
  env('KERNEL_MISMATCH', "the bundle's kernel is not the manifest's analytical kernel", 'KERNEL_MISMATCH', (e) => {
    bundle(e)['kernelVersion'] = 'nemosyne-kernel/0.1.0';
    (receipt0(e)['methodProvenance'] as Env)['kernelVersion'] = 'nemosyne-kernel/0.1.0';
  });
}

/** Steps 5-6: consumers and the investigation digest (need the flags to be decided). */
function consumerSamples(add: Add): void {
  const base = v3();
  const envBytes = receiptBytes(base);
  const memberOnly = (() => {
    const e = JSON.parse(envBytes.toString('utf8')) as Env;
    receipt0(e)['limitations'] = ['a toy example', 'edited after export'];
    const b = json(e);
    return withManifest(setFile(base, ENTRY.receipts, b), (m) => (m['evidenceReceiptDigest'] = sha256Hex(b)));
  })();
  add(
    'governed/INVESTIGATION_DIGEST_MISMATCH',
    'a receipt edited and only its member hash updated: the investigation digest still refuses it',
    memberOnly,
    noFlagsV3,
    failWith('INVESTIGATION_DIGEST_MISMATCH'),
  );
  governedSamples(add, noFlagsV3);
  add(
    'governed/KERNEL_MISMATCH-adapter',
    'a package replayed by kernel nemosyne-kernel/2.4.0, which the example adapter is not',
    v3({ kernel: 'nemosyne-kernel/2.4.0' }),
    noFlagsV3,
    { verdict: 'unavailable', rule: 'KERNEL_MISMATCH' },
  );
}

type Add = (
  name: string,
  note: string,
  parts: PackageParts | Buffer,
  expect: Expectation,
  withFlags?: Expectation,
) => void;

/** A V3 whose envelope gets extra uses and whose first receipt is edited (digests kept consistent). */
function governed(extraUses: Env[], editReceipt?: (r: Env) => void, keepSampleUse = true): PackageParts {
  return v3({
    envelope: (e) => {
      const c = structuredClone(e);
      if (editReceipt) editReceipt(receipt0(c));
      c['uses'] = [...(keepSampleUse ? uses(c) : []), ...extraUses];
      return c;
    },
  });
}

const ESTABLISHED = (admission: Env | null): Env => ({
  status: 'ESTABLISHED',
  records: [
    {
      model: { column: 'petalLength', scale: 'ratio', observationStructure: 'iid', compositionalGroup: null },
      status: 'declared',
      basis: [{ source: 'codebook', rationale: 'length in cm' }],
    },
  ],
  semanticAdmissionPolicy: 'requireDeclared',
  analyticalAdmission: admission,
});
const satisfied = (r: Env) =>
  void (r['assumptions'] = [
    { assumption: 'independence', status: 'satisfied', detail: 'rows are independent plants' },
  ]);

/**
 * Step 5, one sample per binding refusal and resolution outcome of upstream's
 * bindConsumerUsesV1 / evaluateEvidenceReceiptAgainstProfileV1, under packages/profiles.json.
 */
function governedSamples(add: Add, noFlags: Expectation): void {
  const refused = (rule: string): Expectation => ({ verdict: 'unavailable', rule });
  const use = (consumerId: string, requirementProfileId: string, receiptId = 'rcpt-0001'): Env => ({
    consumerId,
    receiptId,
    requirementProfileId,
  });
  const inferential = use(INFERENTIAL_CONSUMER, INFERENTIAL_PROFILE);
  add(
    'governed/CONSUMER_NOT_GOVERNED',
    'UNKNOWN_CONSUMER: a use by a consumer the registry does not govern',
    governed([use('ungoverned.exporter', 'profile.any')]),
    noFlags,
    refused('CONSUMER_NOT_GOVERNED'),
  );
  add(
    'governed/CONSUMER_NOT_GOVERNED-no-use',
    'MISSING_USE: the required consumer has no use (an empty uses list cannot bypass policy)',
    governed([], undefined, false),
    noFlags,
    refused('CONSUMER_NOT_GOVERNED'),
  );
  add(
    'governed/CONSUMER_POLICY_REFUSED-weaker-profile',
    'PROFILE_MISMATCH: the inferential consumer recorded under the weaker descriptive-summary/v1',
    governed([use(INFERENTIAL_CONSUMER, SAMPLE_PROFILE)]),
    noFlags,
    refused('CONSUMER_POLICY_REFUSED'),
  );
  add(
    'governed/RECEIPT_NOT_FOUND',
    'a use naming a receipt the bundle lacks: a typed refusal, not a malformed package',
    governed([use(SAMPLE_CONSUMER, SAMPLE_PROFILE, 'rcpt-9999')], undefined, false),
    noFlags,
    refused('CONSUMER_POLICY_REFUSED'),
  );
  add(
    'governed/VIOLATED_ASSUMPTION',
    'the governed receipt carries a violated assumption: descriptive-summary/v1 refuses it',
    governed([], (r) => void ((r['assumptions'] as Env[])[0]!['status'] = 'violated')),
    noFlags,
    refused('CONSUMER_POLICY_REFUSED'),
  );
  add(
    'governed/UNRESOLVED_ASSUMPTION',
    'inferential-claim/v1 refuses the unchecked assumption that descriptive-summary/v1 tolerates',
    governed([inferential]),
    noFlags,
    refused('CONSUMER_POLICY_REFUSED'),
  );
  add(
    'governed/MISSING_REQUIRED_AXIS',
    'inferential-claim/v1 on a receipt whose measurement context is not established',
    governed([inferential], satisfied),
    noFlags,
    refused('CONSUMER_POLICY_REFUSED'),
  );
  add(
    'governed/MISSING_REQUIRED_AXIS-rejected-admission',
    'measurement context established, but its analytical admission rejected: the axis is not satisfied',
    governed([inferential], (r) => {
      satisfied(r);
      r['measurementContext'] = ESTABLISHED({
        status: 'rejected',
        issues: [{ column: 'petalLength', reason: 'scale mismatch' }],
      });
    }),
    noFlags,
    refused('CONSUMER_POLICY_REFUSED'),
  );
  add(
    'governed/RESOLVED-inferential',
    'inferential-claim/v1 resolved: satisfied assumptions, established measurement context, uncertainty',
    governed([inferential], (r) => {
      satisfied(r);
      r['measurementContext'] = ESTABLISHED({ status: 'admitted', issues: [] });
    }),
    noFlags,
    { verdict: 'pass' },
  );
}

let cached: SamplePackage[] | null = null;

export function samplePackages(): SamplePackage[] {
  cached ??= [...packageSamples(), ...zipSamples()];
  return cached;
}

export function sampleSupportFiles(): { name: string; bytes: string; note: string }[] {
  return [
    {
      name: ADAPTER_FILE,
      bytes: EXAMPLE_ADAPTER_SOURCE,
      note: "the example kernel adapter (--kernel-adapter packages/kernel-adapter.mjs): a stand-in, not Nemosyne's kernel",
    },
    {
      name: PROFILES_FILE,
      bytes: sampleProfiles(),
      note: "the example authority's profile registry (--profiles packages/profiles.json): upstream's two requirement profiles descriptive-summary/v1 and inferential-claim/v1, upstream's governed consumer and one optional example consumer (docs/nemosyne-profiles.example.json)",
    },
  ];
}

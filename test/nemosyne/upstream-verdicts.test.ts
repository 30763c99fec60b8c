/**
 * Verdicts true to upstream Nemosyne's replay runner (TsatsuAmable/nemosyne
 * src/session/InvestigationReplayRunner.ts), one class each, on packages in the shapes
 * upstream writes: built with the project's package writer, or rewritten by Python's
 * zipfile (which leaves the file-type bits of the external attributes at 0).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { UsageError } from '../../app/core/errors.js';
import { sha256Hex } from '../../app/core/hash.js';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { datasetIdentityHex } from '../../app/kinds/nemosyne/dataset-identity.js';
import {
  buildPackageParts,
  packageEntries,
  packPackage,
  SAMPLE_DATASET,
  type PackageParts,
} from '../../app/kinds/nemosyne/package-writer.js';
import { parseProfiles } from '../../app/kinds/nemosyne/profiles.js';
import { ENTRY } from '../../app/kinds/nemosyne/verify.js';
import { buildZip, type RawEntry } from '../../app/zip/writer.js';
import { rules, supportDir, verify } from './helpers.js';

type Env = Record<string, unknown>;
const support = supportDir();
const flagged = (bytes: Buffer): Promise<Report> => verify(bytes, support.flags);
const finding = (r: Report, rule: string) => r.findings.find((f) => f.rule === rule);

/** Replaces an entry's bytes and, for the receipt and forma entries, keeps their member digest matching. */
function withEntry(p: PackageParts, name: string, data: Buffer): PackageParts {
  const files = p.files.map((f) => (f.name === name ? { name, data } : f));
  const manifest = structuredClone(p.manifest);
  if (name === ENTRY.forma) manifest['formaDigest'] = sha256Hex(data);
  if (name === ENTRY.receipts) manifest['evidenceReceiptDigest'] = sha256Hex(data);
  return { ...p, files, manifest };
}
/** The package with manifest.json replaced by these exact bytes. */
function withManifestBytes(p: PackageParts, bytes: Buffer): Buffer {
  const entries = packageEntries(p);
  entries[0] = { name: ENTRY.manifest, data: bytes };
  return buildZip({ entries });
}
const manifestText = (p: PackageParts) => JSON.stringify(p.manifest, null, 2);
/** The bytes with a 0xFF byte (never valid UTF-8) inserted before the first `marker`. */
function badUtf8(bytes: Buffer, marker: string): Buffer {
  const i = bytes.indexOf(marker);
  return Buffer.concat([bytes.subarray(0, i), Buffer.from([0xff]), bytes.subarray(i)]);
}

describe('evidenceSummary: counts that disagree with the replayed ledger fail (upstream: "Findings count mismatch")', () => {
  const finding0 = {
    kind: 'finding',
    findingEntity: { title: 'setosa petals are short', observationIds: [] },
    timestamp: 1790000003000,
  };
  const observation0 = { kind: 'observation', observationEntity: { notes: 'short petals' }, timestamp: 1790000002500 };
  const load = { kind: 'load', command: { op: 'load' }, timestamp: 1790000000000 };
  const ledger = [load, observation0, finding0, { kind: 'finding' }];
  const summary = (m: Env, s: Env) => void (m['evidenceSummary'] = s);

  it.each([2, 3, 4] as const)(
    'V%i: a finding the summary does not count is refused, with the count upstream reports',
    async (v) => {
      const r = await flagged(
        packPackage(
          buildPackageParts(v, {
            commands: ledger,
            manifest: (m) => summary(m, { observationsCount: 1, findingsCount: 0, annotationsCount: 0 }),
          }),
        ),
      );
      expect(r.verdict).toBe('fail');
      const f = finding(r, 'RPR-NEM-028')!;
      expect(f.pointer).toBe('entry:manifest.json#/evidenceSummary/findingsCount');
      expect([f.expected, f.actual]).toEqual([1, 0]);
      expect(f.message).toContain('Findings count mismatch');
      expect(rules(r).filter((x) => x === 'RPR-NEM-028')).toHaveLength(1);
    },
  );
  it('counts only events that carry their entity; a bare {kind: "finding"} is itself refused (RPR-NEM-041), and a true summary passes', async () => {
    const pack = (commands: unknown[]) =>
      flagged(
        packPackage(
          buildPackageParts(3, {
            commands,
            manifest: (m) => summary(m, { observationsCount: 1, findingsCount: 1, annotationsCount: 0 }),
          }),
        ),
      );
    // Upstream's replay counts it nowhere, and refuses it: "Malformed finding event at #3: missing findingEntity".
    const bare = await pack(ledger);
    expect(rules(bare)).not.toContain('RPR-NEM-028');
    const f = finding(bare, 'RPR-NEM-041')!;
    expect([f.severity, f.pointer]).toEqual(['fail', 'entry:investigation/commands.log#/3']);
    expect(f.message).toContain('the finding event #3 has no findingEntity');
    expect((await pack(ledger.slice(0, 3))).verdict).toBe('pass');
  });
  it('each count is compared: annotations and observations too', async () => {
    const r = await flagged(
      packPackage(
        buildPackageParts(3, {
          commands: ledger,
          manifest: (m) => summary(m, { observationsCount: 0, findingsCount: 1, annotationsCount: 2 }),
        }),
      ),
    );
    expect(r.findings.filter((f) => f.rule === 'RPR-NEM-028').map((f) => f.pointer)).toEqual([
      'entry:manifest.json#/evidenceSummary/observationsCount',
      'entry:manifest.json#/evidenceSummary/annotationsCount',
    ]);
  });
  it('a legacy V2 (no digest) is compared too: upstream checks the summary on every path', async () => {
    const r = await verify(
      packPackage(
        buildPackageParts(2, {
          digest: false,
          commands: ledger,
          manifest: (m) => summary(m, { observationsCount: 1, findingsCount: 5, annotationsCount: 0 }),
        }),
      ),
    );
    expect(r.verdict).toBe('fail');
    expect(rules(r)).toContain('RPR-NEM-028');
  });
});

describe('V4 forma.json that is not JSON fails even when its digest matches (upstream: "Governed forma integrity failure")', () => {
  const v4 = buildPackageParts(4);
  it('the intact V4 passes', async () => expect((await flagged(packPackage(v4))).verdict).toBe('pass'));
  it.each([
    ['not JSON', '{"schemaVersion": 1,'],
    ['a JSON null (upstream reads staticCapture from it and throws)', 'null'],
    ['empty', ''],
  ])('%s: fail RPR-NEM-029, integrity inconsistent', async (_label, text) => {
    const r = await flagged(packPackage(withEntry(v4, ENTRY.forma, Buffer.from(text))));
    expect(r.verdict).toBe('fail');
    expect(finding(r, 'RPR-NEM-029')?.message).toContain('governed forma integrity failure');
    expect(rules(r)).not.toContain('RPR-NEM-021');
    expect(r.details?.['integrity']).toBe('inconsistent');
    expect(r.chain.find((n) => n.id === 'formaDigest')?.status).toBe('match');
  });
  it('any other JSON value is read, as upstream reads it', async () => {
    const other = Buffer.from('{"schemaVersion":1,"staticCapture":{"status":"NONE","reason":"none"}}');
    expect((await flagged(packPackage(withEntry(v4, ENTRY.forma, other)))).verdict).toBe('pass');
  });
});

describe('archives whose writer leaves the file-type bits at 0 are read (upstream never reads external attributes)', () => {
  const v3 = buildPackageParts(3);
  /** The package's entries with these Unix attributes in every central record. */
  const withAttrs = (mode: number, madeBy = 0x0314) =>
    buildZip({
      entries: packageEntries(v3).map((e): RawEntry => ({
        ...e,
        central: { versionMadeBy: madeBy, externalAttrs: (mode << 16) >>> 0 },
      })),
    });

  it.each([
    ['permissions only, as Python zipfile writes them (0600)', 0o600],
    ['permissions only (0644)', 0o644],
    ['no attributes at all', 0],
    ['a type POSIX does not define', 0o030644],
  ])('%s: the package passes', async (_label, mode) => {
    const r = await flagged(withAttrs(mode));
    expect(rules(r).filter((x) => x.startsWith('RPR-ZIP'))).toEqual([]);
    expect(r.verdict).toBe('pass');
  });
  it.each([
    ['a symbolic link', 0o120777],
    ['a character device', 0o020644],
    ['a block device', 0o060644],
    ['a FIFO', 0o010644],
    ['a socket', 0o140644],
    ['a directory type on a file name', 0o040755],
  ])('%s is still refused (RPR-ZIP-022)', async (_label, mode) => {
    const r = await verify(withAttrs(mode));
    expect(r.verdict).toBe('fail');
    expect(rules(r)).toContain('RPR-ZIP-022');
  });

  const python = spawnSync('python3', ['--version']).status === 0;
  it.skipIf(!python)(
    'a package rewritten by Python zipfile (external attributes 0600 << 16, no type) passes',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'reprise-pyzip-'));
      const src = join(dir, 'writer.nemosyne');
      const out = join(dir, 'python.nemosyne');
      writeFileSync(src, packPackage(v3));
      const script = [
        'import sys, zipfile',
        'src = zipfile.ZipFile(sys.argv[1])',
        'with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:',
        '    for i in src.infolist(): z.writestr(i.filename, src.read(i.filename))',
        'print(",".join(sorted({"%d:%o" % (i.create_system, i.external_attr >> 16) for i in zipfile.ZipFile(sys.argv[2]).infolist()})))',
      ].join('\n');
      const py = spawnSync('python3', ['-c', script, src, out], { encoding: 'utf8' });
      expect(py.status, py.stderr).toBe(0);
      // Host 3 (Unix), mode 600: the type bits are 0, the case this class is about.
      expect(py.stdout.trim()).toBe('3:600');
      const r = await flagged(readFileSync(out));
      expect(r.findings.filter((f) => f.severity === 'fail')).toEqual([]);
      expect(r.verdict).toBe('pass');
    },
  );
});

describe('dataset identity: column types are upper-cased as upstream Dataset.fromJSON does before hashing', () => {
  const lower = {
    ...SAMPLE_DATASET,
    columns: SAMPLE_DATASET.columns.map((c) => ({ ...c, type: c.type.toLowerCase() })),
  };
  /** The identity computed by hand over upstream's projection, with these column types and name. */
  const byHand = (types: (t: string) => string, name: string) =>
    sha256Hex(
      canonicalizeValue({
        columns: lower.columns.map((c) => ({ name: c.name, type: types(c.type) })),
        edges: lower.edges,
        name,
        rows: lower.rows.map((r) => Object.fromEntries(lower.columns.map((c) => [c.name, (r as Env)[c.name] ?? null]))),
      }),
    );
  const upstream = byHand((t) => t.toUpperCase(), lower.name);
  const raw = byHand((t) => t, lower.name);

  it('a lower-case type is hashed upper-cased', () => {
    expect(upstream).not.toBe(raw);
    expect(datasetIdentityHex(lower)).toBe(upstream);
    expect(datasetIdentityHex(SAMPLE_DATASET)).toBe(upstream);
  });
  it('an empty name is hashed as "dataset" (upstream: name || "dataset")', () => {
    expect(datasetIdentityHex({ ...lower, name: '' })).toBe(byHand((t) => t.toUpperCase(), 'dataset'));
  });
  const pkg = (fingerprint: string) =>
    packPackage(
      buildPackageParts(3, { dataset: lower, manifest: (m) => void (m['datasetFingerprint'] = fingerprint) }),
    );
  it("a package stored with lower-case types and upstream's fingerprint passes", async () =>
    expect((await flagged(pkg(upstream))).verdict).toBe('pass'));
  it('the same package committing to the raw-type hash fails RPR-NEM-022', async () => {
    const r = await flagged(pkg(raw));
    expect(r.verdict).toBe('fail');
    expect(finding(r, 'RPR-NEM-022')?.expected).toBe(upstream);
  });
});

describe('where Reprise is stricter than upstream, the finding says upstream would read the file, and why Reprise refuses', () => {
  const v3 = buildPackageParts(3);
  const READS = 'upstream Nemosyne would read this file';
  const NOT_ALTERED = 'not evidence that the package was altered';
  const refusal = async (bytes: Buffer, rule: string) => {
    const r = await verify(bytes);
    expect(r.verdict).toBe('fail');
    return finding(r, rule)!.message;
  };
  it.each([
    [
      'a byte-order mark',
      () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(manifestText(v3))]),
      'byte-order mark',
    ],
    [
      'a duplicate member',
      () => Buffer.from(manifestText(v3).replace('"formatVersion": 3,', '"formatVersion": 3,\n  "formatVersion": 3,')),
      'keeps the last',
    ],
    ['invalid UTF-8', () => badUtf8(Buffer.from(manifestText(v3)), 'reprise-example-petals'), 'U+FFFD'],
  ])('manifest.json with %s', async (_label, bytes, how) => {
    const m = await refusal(withManifestBytes(v3, bytes()), 'RPR-NEM-002');
    expect(m).toContain(READS);
    expect(m).toContain(how);
    expect(m).toContain(NOT_ALTERED);
  });
  it('an integer beyond 2^53 in the manifest', async () => {
    const bytes = Buffer.from(manifestText(v3).replace('"createdAt": 1790000000000', '"createdAt": 9007199254740993'));
    const m = await refusal(withManifestBytes(v3, bytes), 'RPR-NEM-002');
    expect(m).toContain('nearest double');
    expect(m).toContain(NOT_ALTERED);
  });
  it('the same strictness in a receipt entry; invalid UTF-8 there is refused by upstream too, and says so', async () => {
    const text = readEntry(v3, ENTRY.receipts);
    const bom = await refusal(
      packPackage(withEntry(v3, ENTRY.receipts, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text]))),
      'RPR-NEM-030',
    );
    expect(bom).toContain(READS);
    const utf8 = await refusal(
      packPackage(withEntry(v3, ENTRY.receipts, badUtf8(text, 'a toy example'))),
      'RPR-NEM-030',
    );
    expect(utf8).toContain('refuses it too');
    expect(utf8).not.toContain(READS);
  });
  it('a syntax error, which upstream refuses too, carries no such note', async () => {
    const m = await refusal(withManifestBytes(v3, Buffer.from('{"formatVersion": 3,')), 'RPR-NEM-002');
    expect(m).not.toContain(READS);
  });
});

function readEntry(p: PackageParts, name: string): Buffer {
  return p.files.find((f) => f.name === name)!.data;
}

describe('a profile registry in the retired v1 shape', () => {
  const v1 = JSON.stringify({
    type: 'reprise.nemosyne-profiles/v1',
    authority: 'Example authority',
    consumers: [
      {
        consumerId: 'atlas.cluster-summary',
        requirementProfileId: 'profile.cluster-summary.v2',
        receiptDependent: true,
      },
    ],
  });
  const message = (text: string) => {
    try {
      parseProfiles(Buffer.from(text), 'old.json');
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      return (e as Error).message;
    }
    throw new Error('the registry was accepted');
  };
  it('is refused saying v1 is retired, what v2 adds and where the example is', () => {
    for (const text of [v1, v1.replace('/v1', '/v2')]) {
      const m = message(text);
      expect(m).toContain('retired v1');
      expect(m).toContain('"profiles"');
      expect(m).toContain('requiredAxes');
      expect(m).toContain('docs/nemosyne-profiles.example.json');
      expect(m).not.toContain('members must be exactly');
    }
  });
  it('a v2 registry missing another member keeps the plain message', () => {
    expect(message(JSON.stringify({ type: 'reprise.nemosyne-profiles/v2', authority: 'a', profiles: [] }))).toContain(
      'members must be exactly type, authority, profiles, consumers',
    );
  });
});

/** Investigation packages V1-V4: samples, identity, digests, governed verification. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deterministicPart } from '../../app/core/report.js';
import { UsageError } from '../../app/engine/run.js';
import { packagesWriter } from '../../app/kinds/nemosyne/examples.js';
import { datasetIdentityHex } from '../../app/kinds/nemosyne/dataset-identity.js';
import { buildPackageParts, exampleRestoredState, packPackage } from '../../app/kinds/nemosyne/package-writer.js';
import { samplePackages } from '../../app/kinds/nemosyne/samples.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ROOT, SHARED } from '../helpers/cli.js';
import { rules, supportDir, verify } from './helpers.js';

const support = supportDir();
const validateReport = new Ajv2020({ allErrors: true, strict: true }).compile(
  JSON.parse(readFileSync(`${ROOT}docs/report.schema.json`, 'utf8')) as object,
);

describe('dataset identity sha256-canonical-dataset-v1', () => {
  it('reproduces the upstream golden vector', () => {
    const v = JSON.parse(readFileSync(join(SHARED, 'vectors/nemosyne/dataset-identity-golden.json'), 'utf8')) as {
      dataset: unknown;
      expectedFingerprint: string;
    };
    expect(datasetIdentityHex(v.dataset)).toBe(v.expectedFingerprint);
  });
  it('projects rows onto the declared columns and drops everything else', () => {
    const a = {
      name: 'd',
      columns: [{ name: 'x', type: 'NUMERIC', label: 'shown' }],
      rows: [{ x: 1, rowId: 'r1' }, {}],
    };
    const b = {
      name: 'd',
      columns: [{ name: 'x', type: 'NUMERIC' }],
      rows: [{ x: 1 }, { x: null }],
      presentation: { color: 'red' },
    };
    expect(datasetIdentityHex(a)).toBe(datasetIdentityHex(b));
    expect(datasetIdentityHex({ ...b, name: 'e' })).not.toBe(datasetIdentityHex(b));
  });
});

describe('the sample packages', () => {
  it('are deterministic', () => {
    const a = packagesWriter.build() as { path: string; bytes: Uint8Array | string }[];
    const b = packagesWriter.build() as { path: string; bytes: Uint8Array | string }[];
    expect(a.map((f) => [f.path, Buffer.from(f.bytes).toString('base64')])).toEqual(
      b.map((f) => [f.path, Buffer.from(f.bytes).toString('base64')]),
    );
    expect(a.length).toBeGreaterThan(90);
  });

  const samples = samplePackages();
  it.each(samples.map((s) => [s.name, s] as const))(
    '%s gives the verdict it was made for, with and without flags',
    async (_n, s) => {
      const plain = await verify(s.bytes);
      expect(plain.verdict).toBe(s.expect.verdict);
      if (s.expect.rule) expect(rules(plain)).toContain(s.expect.rule);
      const flagged = await verify(s.bytes, support.flags);
      const want = s.withFlags ?? s.expect;
      expect(flagged.verdict).toBe(want.verdict);
      if (want.rule) expect(rules(flagged)).toContain(want.rule);
      expect(plain.artifact.kind).toBe('nemosyne-package');
      for (const r of [plain, flagged]) expect(validateReport(r), JSON.stringify(validateReport.errors)).toBe(true);
    },
  );
});

describe('governed verification', () => {
  it('an intact V3 package: every chain node matches, and the report states consistency, not origin', async () => {
    const r = await verify(packPackage(buildPackageParts(3)), support.flags);
    expect(r.verdict).toBe('pass');
    const ids = r.chain.map((n) => n.id);
    for (const id of [
      'archive',
      'entry:manifest.json',
      'entry:investigation/evidence-receipts.json',
      'manifest',
      'datasetFingerprint',
      'evidenceReceiptDigest',
      'envelope',
      'investigationDigest',
    ])
      expect(ids).toContain(id);
    for (const n of r.chain) expect(n.status).toBe('match');
    const root = r.chain.find((n) => n.id === 'investigationDigest')!;
    expect(root.recorded).toBe(root.recomputed);
    expect(root.recorded).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r.details?.['integrity']).toBe('consistent');
    expect(r.details?.['authenticity']).toBe('not established');
    expect(String(r.details?.['statement'])).toContain('consistency, not origin');
  });

  it('an intact V3 package without adapter or registry is unavailable, never pass and never fail', async () => {
    const r = await verify(packPackage(buildPackageParts(3)));
    expect(r.verdict).toBe('unavailable');
    const k = r.findings.find((f) => f.rule === 'KERNEL_MISMATCH')!;
    expect(k.severity).toBe('unavailable');
    expect(k.expected).toBe('reprise-example-kernel/1');
    expect(r.chain.find((n) => n.id === 'investigationDigest')!.status).toBe('unresolved');
  });

  it('reports the same bytes whatever the run (everything but run is deterministic)', async () => {
    const bytes = packPackage(buildPackageParts(4));
    const a = await verify(bytes, support.flags);
    const b = await verify(bytes, support.flags);
    expect(JSON.stringify(deterministicPart(a))).toBe(JSON.stringify(deterministicPart(b)));
  });

  it('the example adapter module and its TypeScript twin restore the same state', async () => {
    const p = buildPackageParts(2);
    const mod = (await import(support.adapter)) as { restore: (i: unknown) => { state: unknown } };
    const entries = Object.fromEntries(p.files.map((f) => [f.name, f.data]));
    const viaModule = mod.restore({ manifest: p.manifest, entries });
    expect(viaModule.state).toEqual(
      exampleRestoredState(p.files[0]!.data, p.files[1]!.data, String(p.manifest['datasetFingerprint'])),
    );
  });

  it('an adapter that throws, or returns the wrong shape, leaves the digest unavailable', async () => {
    const bytes = packPackage(buildPackageParts(2));
    const throws = join(support.dir, 'throws.mjs');
    writeFileSync(throws, 'export function restore() { throw new Error("kernel exploded"); }\n');
    const wrong = join(support.dir, 'wrong.mjs');
    writeFileSync(
      wrong,
      'export default { restore: () => ({ kernelVersion: "reprise-example-kernel/1", state: { extra: 1 } }) };\n',
    );
    for (const a of [throws, wrong, join(support.dir, 'missing.mjs')]) {
      const r = await verify(bytes, { kernelAdapter: a });
      expect(r.verdict).toBe('unavailable');
      expect(rules(r)).toContain('RPR-NEM-050');
    }
  });

  it('a command adapter (PATH PACKAGE, JSON on stdout) is a port too', async () => {
    const p = buildPackageParts(2);
    const state = exampleRestoredState(p.files[0]!.data, p.files[1]!.data, String(p.manifest['datasetFingerprint']));
    const out = join(support.dir, 'restored.json');
    writeFileSync(out, JSON.stringify({ kernelVersion: 'reprise-example-kernel/1', state }));
    const cmd = join(support.dir, 'adapter.sh');
    writeFileSync(cmd, `#!/bin/sh\ncat > /dev/null\ncat '${out}'\n`, { mode: 0o755 });
    expect((await verify(packPackage(p), { kernelAdapter: cmd })).verdict).toBe('pass');
    writeFileSync(
      out,
      JSON.stringify({ kernelVersion: 'reprise-example-kernel/1', state: { ...state, eventHashes: [] } }),
    );
    const r = await verify(packPackage(p), { kernelAdapter: cmd });
    expect(r.verdict).toBe('fail');
    const f = r.findings.find((x) => x.rule === 'INVESTIGATION_DIGEST_MISMATCH')!;
    expect(f.actual).toBe(p.manifest['investigationDigest']);
    expect(f.expected).not.toBe(f.actual);
  });

  it('an adapter that reconstructs another analytical dataset than the bundle is DATASET_MISMATCH', async () => {
    const other = join(support.dir, 'other-dataset.mjs');
    writeFileSync(
      other,
      `import * as base from '${support.adapter}';\nexport function restore(i) { const r = base.restore(i); return { ...r, analyticalDatasetFingerprint: '0'.repeat(64) }; }\n`,
    );
    const r = await verify(packPackage(buildPackageParts(3)), { ...support.flags, kernelAdapter: other });
    expect(r.verdict).toBe('fail');
    expect(rules(r)).toContain('DATASET_MISMATCH');
  });

  it('a malformed profile registry is a usage error (exit 3), not a verdict', async () => {
    const bad = join(support.dir, 'bad-profiles.json');
    writeFileSync(bad, '{"type":"reprise.nemosyne-profiles/v1","consumers":[]}');
    await expect(verify(packPackage(buildPackageParts(3)), { ...support.flags, profiles: bad })).rejects.toBeInstanceOf(
      UsageError,
    );
  });
});

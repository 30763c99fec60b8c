/**
 * The dataset identity as upstream computes it over the dataset `Dataset.fromJSON` rebuilds
 * (TsatsuAmable/nemosyne at 16f14f2: src/data/Dataset.ts, src/data/DatasetIdentity.ts,
 * src/security/CryptoHash.ts), on datasets where that differs from the dataset as stored:
 * names upstream drops from rows and from the values inside rows and edges, columns read
 * through a plain object, and what its fromJSON throws on. Found by a red team: such
 * packages passed with the identity of the stored dataset, which upstream's replay reports
 * as a fingerprint mismatch or a parse failure; and a package upstream writes with a
 * `toString` column one row lacks failed. The pinned fingerprints are upstream's, from a
 * transcription of those files run on these datasets.
 */
import { describe, expect, it } from 'vitest';
import { runBytes } from '../../app/engine/run.js';
import { DatasetShapeError, datasetIdentityHex } from '../../app/kinds/nemosyne/dataset-identity.js';
import { buildPackageParts, packPackage } from '../../app/kinds/nemosyne/package-writer.js';
import { ENTRY } from '../../app/kinds/nemosyne/verify.js';
import { rules } from './helpers.js';

type Ds = { columns: { name: string; type: string }[]; rows: Record<string, unknown>[]; [k: string]: unknown };
/** Shaped like upstream's Dataset.toJSON: upper-case column types, rows of own members, edges. */
const BASE = {
  name: 'field-survey',
  columns: [
    { name: 'site', type: 'CATEGORICAL' },
    { name: 'depth', type: 'NUMERIC' },
  ],
  rows: [
    { site: 'north', depth: 2.5 },
    { site: 'south', depth: 4 },
  ],
  edges: [{ source: 0, target: 1, weight: 0.5 }],
};
/** An own member, `__proto__` included (as JSON.parse makes it), so that JSON.stringify writes it. */
const own = (o: object, k: string, v: unknown) =>
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
/** The dataset's bytes, as upstream's exporter writes them, after an edit of BASE. */
const text = (edit: (d: Ds) => void): string => {
  const d = structuredClone(BASE) as Ds;
  edit(d);
  return JSON.stringify(d, null, 2);
};
const column = (d: Ds, name: string) => d.columns.push({ name, type: 'TEXT' });
const edge0 = (d: Ds) => (d['edges'] as Record<string, unknown>[])[0]!;

/** `upstream`: upstream's fingerprint; `stored`: the identity of the dataset as stored, which used to pass. */
const HASHED: { what: string; dataset: string; upstream: string; stored: string }[] = [
  {
    what: 'a row value holding "constructor"',
    dataset: text((d) => (d.rows[0]!['site'] = { v: 'north', constructor: 'evil' })),
    upstream: '7656c975bd471b6e2f7c4df27139f2d3cb54e0bc80b4026bce72a55ba724de54',
    stored: '9802f2aa08d22560d5c39629c4f4f5a2a9d5e4de1b3d627d3944db623a89daf5',
  },
  {
    what: 'a list in a row value holding "prototype"',
    dataset: text((d) => (d.rows[0]!['site'] = [{ prototype: 1, v: 2 }])),
    upstream: '41c3b4090643bedf4f7b865def255ae641ce434330cc4a99329b092ea55c56bd',
    stored: '46a10521484cdc824e54bf8541f7ab754605ded61b0bdc13af4784d0637c9999',
  },
  {
    what: 'a row value holding "__proto__" deep down',
    dataset: text((d) => (d.rows[1]!['depth'] = { a: [own({ b: 2 }, '__proto__', { x: 1 })] })),
    upstream: '766cd0c1c777dee61a63f35dcce3c5a19fdaa586ac0db5d9972baa5d52b44bb0',
    stored: '198d79282b3f1a5e2be0ec533f674cb73162fa96b845126616471c35d58490f7',
  },
  {
    what: 'an edge value holding "constructor" (the edge\'s own "constructor" is kept)',
    dataset: text((d) => Object.assign(edge0(d), { attrs: { constructor: 'x', k: 1 }, constructor: 'kept' })),
    upstream: '4ccd698d7a5c43ed3c26432740193bdcd086443e1cb4a37c77cf241e31434a57',
    stored: '3c3781f01decb3cc5f368dd69498c3fda0cf78e4f291caaca467d874bacc2176',
  },
  {
    what: 'a "constructor" column a row holds',
    dataset: text((d) => (column(d, 'constructor'), (d.rows[0]!['constructor'] = 'evil'))),
    upstream: '55a3fa149014f8c9574c18cc3fe007502eb4660501bec42fa186dce8ea402c92',
    stored: 'd3841d5dc3c00b5020f1f55cb675a12517cd9ce98de73e25b9865bba440d7b43',
  },
  {
    what: 'a "__proto__" column a row holds',
    dataset: text((d) => (column(d, '__proto__'), own(d.rows[0]!, '__proto__', 'evil'))),
    upstream: '783f4decfafdf7d61220198ba52a24794c891308fb48f1ca755c1615a160949b',
    stored: 'e4b83a0bcf388d2c640401f08363203b094492f4a428da99a71693757296b990',
  },
  {
    what: 'a "prototype" column a row holds',
    dataset: text((d) => (column(d, 'prototype'), (d.rows[0]!['prototype'] = 'evil'))),
    upstream: 'e9399af02e90a05690e7896638ff91a149551a9dae929d7a41dc23f1fc2c4fe9',
    stored: '28d451b5fe1e439f090b4728e9efec185ed2237e637ceb18dc3c06427f646c9f',
  },
  {
    what: 'a "toString" column one row lacks',
    dataset: text((d) => (column(d, 'toString'), (d.rows[1]!['toString'] = 'kept'))),
    upstream: 'd2a662e0a58d26f92ba45ca899fdd5a2a94ff3cf367c754eeb8e8f41392946cd',
    stored: 'd3e8dceb9415c6f82b2ffc80e0eb5cfdbc2e5aec4fd757fc43984f598d2d48c8',
  },
  {
    what: 'a "hasOwnProperty" column no row holds',
    dataset: text((d) => column(d, 'hasOwnProperty')),
    upstream: '75b7418168ddf6cdc0da096379c197c733b09e364e2d3d61ae06e3efd8b2fa33',
    stored: '3b209d829b9b16b43e72974d17a5032fdf1b5d8b844161e3f40c271c7694ec6d',
  },
];

/** A V2 package committing to no digest, whose ledger the kernel need not re-run: verify and replay both decide it. */
function pkg(dataset: string, fingerprint: string): Buffer {
  const p = buildPackageParts(2, { digest: false, commands: [{ kind: 'load' }] });
  const files = p.files.map((f) => (f.name === ENTRY.dataset ? { name: f.name, data: Buffer.from(dataset) } : f));
  return packPackage({ ...p, files, manifest: { ...p.manifest, datasetFingerprint: fingerprint } });
}
const run = (bytes: Buffer, mode: 'verify' | 'replay') => runBytes('p.nemosyne', bytes, mode, {});

describe.each(HASHED)('$what', ({ dataset, upstream, stored }) => {
  it('is hashed as upstream hashes it, not as stored', () => {
    expect(datasetIdentityHex(JSON.parse(dataset))).toBe(upstream);
  });
  it("a package with upstream's fingerprint verifies and replays; one with the stored dataset's fails RPR-NEM-022", async () => {
    for (const mode of ['verify', 'replay'] as const)
      expect((await run(pkg(dataset, upstream), mode)).verdict).toBe('pass');
    const forged = await run(pkg(dataset, stored), 'verify');
    expect(forged.verdict).toBe('fail');
    expect(rules(forged)).toContain('RPR-NEM-022');
  });
});

/** The DatasetShapeError datasetIdentityInput throws, or null. */
function refusal(dataset: unknown): DatasetShapeError | null {
  try {
    datasetIdentityHex(dataset);
    return null;
  } catch (e) {
    if (e instanceof DatasetShapeError) return e;
    throw e;
  }
}

describe('what upstream\'s Dataset.fromJSON throws on is RPR-NEM-023 (its replay: "Failed to parse dataset from package")', () => {
  it('"edges" present but not an array, a falsy one included; null is no edges', () => {
    for (const edges of [false, 0, '', true, {}, 'ab']) {
      const e = refusal({ ...BASE, edges });
      expect([e?.pointer, e?.message]).toEqual(['/edges', expect.stringMatching(/not an array: upstream's/)]);
    }
    expect(datasetIdentityHex({ ...BASE, edges: null })).toBe(datasetIdentityHex({ ...BASE, edges: undefined }));
  });
  it('"rowIds" a string or object whose length is the row count; one of another length, or an array, is not hashed', () => {
    for (const rowIds of ['ab', { length: 2 }]) expect(refusal({ ...BASE, rowIds })?.pointer).toBe('/rowIds');
    for (const rowIds of ['abc', { length: 3 }, ['r1', 'r2'], 2, true])
      expect(datasetIdentityHex({ ...BASE, rowIds })).toBe(datasetIdentityHex(BASE));
  });
  it('a package whose dataset has "edges": false fails verify and replay, whatever its fingerprint', async () => {
    const dataset = text((d) => (d['edges'] = false));
    const stored = datasetIdentityHex({ ...BASE, edges: undefined });
    for (const mode of ['verify', 'replay'] as const) {
      const r = await run(pkg(dataset, stored), mode);
      expect(r.verdict).toBe('fail');
      const f = r.findings.find((x) => x.rule === 'RPR-NEM-023');
      expect(f?.pointer).toBe(`entry:${ENTRY.dataset}#/edges`);
    }
  });
});

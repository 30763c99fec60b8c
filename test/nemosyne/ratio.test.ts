/**
 * The compression ratio (RPR-ZIP-019) of packages as upstream Nemosyne writes them
 * (NemosynePackageManager.pack: fflate zipSync, level 6). A red team's dataset of 50,000
 * rows `{x: i % 2}` (about 400 KB, 870 bytes deflated: 460:1) failed under the old
 * default of 300, though upstream sets no ratio limit and memory is bounded by the size
 * limits. The default is now deflate's ceiling, 1032:1, past which a declared size cannot
 * be the data's.
 */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { buildPackageParts } from '../../app/kinds/nemosyne/package-writer.js';
import { ENTRY } from '../../app/kinds/nemosyne/verify.js';
import { readStructure, resolveLimits } from '../../app/zip/index.js';
import { gen } from '../zip/gen.js';
import { verify } from './helpers.js';

/** A V2 package without a digest whose dataset is `rows`, zipped as upstream zips it. */
function upstreamPackage(rows: unknown[]): Buffer {
  const dataset = { name: 'binary', columns: [{ name: 'x', type: 'NUMERIC' }], rows };
  const { manifest } = buildPackageParts(2, { digest: false, dataset, commands: [] });
  const files = {
    [ENTRY.manifest]: strToU8(JSON.stringify(manifest, null, 2)),
    [ENTRY.dataset]: strToU8(JSON.stringify(dataset)),
    [ENTRY.commands]: strToU8(JSON.stringify([])),
  };
  return Buffer.from(zipSync(files, { level: 6 }));
}

const ratioOf = (zip: Buffer, name: string): number => {
  const e = readStructure(zip, resolveLimits({})).entries.find((x) => x.name === name)!;
  return e.uncompressedSize / e.compressedSize;
};

describe('a low-entropy dataset written as upstream writes it passes', () => {
  it('50,000 rows of {x: i % 2} (a ratio over 400) and 200,000 rows of {x: 0}', async () => {
    for (const rows of [
      Array.from({ length: 50_000 }, (_, i) => ({ x: i % 2 })),
      Array.from({ length: 200_000 }, () => ({ x: 0 })),
    ]) {
      const zip = upstreamPackage(rows);
      expect(ratioOf(zip, ENTRY.dataset)).toBeGreaterThan(400);
      const r = await verify(zip);
      expect(r.findings.filter((f) => f.rule.startsWith('RPR-ZIP'))).toEqual([]);
      expect(r.verdict).toBe('pass');
    }
  });

  it('an entry of 4 MiB of zeros (deflated about 1022:1) passes the default limit', () => {
    const s = readStructure(
      gen({ entries: [{ name: 'zeros.bin', data: Buffer.alloc(4 * 1024 * 1024) }] }),
      resolveLimits({}),
    );
    expect(s.findings).toEqual([]);
  });
});

describe('what RPR-ZIP-019 still refuses, and how it says so', () => {
  it('a declared size no deflate stream reaches: the declaration is not the data', () => {
    const s = readStructure(
      gen({ entries: [{ name: 'x.bin', data: 'x', lh: { usize: 1 << 20 }, ch: { usize: 1 << 20 } }] }),
      resolveLimits({}),
    );
    const f = s.findings.find((x) => x.rule === 'RPR-ZIP-019')!;
    expect(f.severity).toBe('fail');
    expect(f.message).toContain('a ratio over 1032, which no entry Reprise reads can have');
    expect(f.message).toContain("the declared size is not the data's");
  });

  it('a real ratio over a lowered limit names the limit that reads it, and that upstream sets none', () => {
    const zip = upstreamPackage(Array.from({ length: 50_000 }, (_, i) => ({ x: i % 2 })));
    const f = readStructure(zip, resolveLimits({ maxRatio: 300 })).findings.find((x) => x.rule === 'RPR-ZIP-019')!;
    expect(f.message).toContain('a ratio over 300, the limit set');
    expect(f.message).toContain('upstream Nemosyne sets no ratio limit: --limit maxRatio=1032 reads this entry');
  });
});

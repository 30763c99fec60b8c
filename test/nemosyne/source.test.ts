/**
 * A package verified from a file on disk (read by position, never whole) gives the same
 * result as the same bytes verified from memory: every sample package (intact, corrupted,
 * ZIP attacks), with and without flags; and end to end, runPath on a package larger than
 * LAZY_MIN gives the report runBytes gives, without loading the file.
 */
import { closeSync, mkdtempSync, openSync, readSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deterministicPart } from '../../app/core/report.js';
import { LAZY_MIN, makeContext, runBytes, runPath } from '../../app/engine/run.js';
import { nemosynePackageKind } from '../../app/kinds/nemosyne/declare.js';
import { buildPackageParts, packPackage } from '../../app/kinds/nemosyne/package-writer.js';
import { samplePackages } from '../../app/kinds/nemosyne/samples.js';
import { Sniffed } from '../../app/kinds/sniff.js';
import type { EngineOptions } from '../../app/kinds/types.js';
import { supportDir } from './helpers.js';
import { digits } from '../helpers/data.js';

const dir = mkdtempSync(join(tmpdir(), 'reprise-nemosyne-source-'));
const support = supportDir();

/** The kind's result from memory, and from the file (a Sniffed holding only the head). */
async function fromBoth(name: string, bytes: Buffer, options: EngineOptions) {
  const path = join(dir, name.replace(/\//g, '_'));
  writeFileSync(path, bytes);
  const ctx = makeContext(path, options);
  const code = await nemosynePackageKind.load();
  const mem = await code.verify(new Sniffed(path, bytes), ctx);
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(Math.min(bytes.length, 65536));
    readSync(fd, head, 0, head.length, 0);
    const s = new Sniffed(path, head, { fd, size: bytes.length });
    expect(nemosynePackageKind.detect(s)).toBe(nemosynePackageKind.detect(new Sniffed(path, bytes)));
    const disk = await code.verify(s, ctx);
    expect(s.loaded).toBe(false); // the whole file was never read
    return { mem, disk };
  } finally {
    closeSync(fd);
  }
}

describe('a package verified from disk and from memory gives the same result', () => {
  const samples = samplePackages();
  it.each(samples.map((s) => [s.name, s] as const))('%s', async (name, s) => {
    for (const options of [{}, support.flags]) {
      const { mem, disk } = await fromBoth(name, s.bytes, options);
      expect(disk).toEqual(mem);
    }
  });

  it('end to end: runPath on a package over LAZY_MIN (intact, and with one bad entry) reports what runBytes reports', async () => {
    const extraFiles = Array.from({ length: 20 }, (_, i) => ({
      name: `extras/part-${i}.csv`,
      data: digits(1024 * 1024, i + 1),
    }));
    const parts = buildPackageParts(2, { digest: false, extraFiles });
    const good = packPackage(parts, (a) => ({ ...a, fastDeflate: true }));
    const bad = packPackage(parts, (a) => {
      a.entries[5]!.central = { crc32: 1 };
      a.entries[5]!.local = { crc32: 1 };
      return { ...a, fastDeflate: true };
    });
    for (const [name, bytes, verdict] of [
      ['good.nemosyne', good, 'pass'],
      ['bad.nemosyne', bad, 'fail'],
    ] as const) {
      expect(bytes.length).toBeGreaterThan(LAZY_MIN);
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const options = { limits: { zipWorkers: 0 } };
      const a = deterministicPart(await runPath(path, 'verify', options));
      const b = deterministicPart(await runBytes(path, bytes, 'verify', options));
      expect(a).toEqual(b);
      expect(a.verdict).toBe(verdict);
    }
  }, 60_000);

  it('end to end over LAZY_MIN: random bytes, a package behind 9 MiB of prepended data, a large JSON document report as from memory', async () => {
    const small = packPackage(buildPackageParts(2, { digest: false }));
    const cases: [string, Buffer, string, string | null][] = [
      ['random.bin', Buffer.concat([digits(9 * 1024 * 1024, 3), Buffer.from([0, 1, 2])]), 'unknown', 'RPR-KIND-001'],
      ['prepended.nemosyne', Buffer.concat([digits(9 * 1024 * 1024, 5), small]), 'nemosyne-package', 'RPR-ZIP-007'], // offsets not shifted: the directory is not where the end record says
      [
        'big.json',
        Buffer.from(JSON.stringify({ rows: Array.from({ length: 1_500_000 }, (_, i) => i) })),
        'unknown',
        'RPR-KIND-001',
      ],
    ];
    for (const [name, bytes, kind, rule] of cases) {
      expect(bytes.length).toBeGreaterThan(LAZY_MIN);
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const a = deterministicPart(await runPath(path, 'verify', {}));
      const b = deterministicPart(await runBytes(path, bytes, 'verify', {}));
      expect(a).toEqual(b);
      expect(a.artifact.kind).toBe(kind);
      if (rule) expect(a.findings.map((f) => f.rule)).toContain(rule);
    }
  }, 60_000);
});

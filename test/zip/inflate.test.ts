/**
 * The two inflate paths (sync for small or parsed entries, streaming for large ones) and
 * the worker split agree byte for byte, and the streaming path refuses as strictly.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { buildPackageParts, packPackage } from '../../app/kinds/nemosyne/package-writer.js';
import { readEntryStreaming, readEntrySync, readStructure, resolveLimits, SYNC_MAX } from '../../app/zip/index.js';
import { BIN, cliBuilt } from '../helpers/cli.js';
import { gen } from './gen.js';
import { digits } from '../helpers/data.js';

const big = digits(SYNC_MAX + 1024 * 1024, 7);
const bigDeflated = zlib.deflateRawSync(big);
const L = resolveLimits(undefined);

async function streamRules(buf: Buffer): Promise<{ rules: string[]; sha: string | null }> {
  const s = readStructure(buf, L);
  expect(s.ok).toBe(true);
  const e = s.entries[0]!;
  const c = await readEntryStreaming(buf, e);
  return { rules: c.findings.map((f) => f.rule), sha: c.sha256 };
}

describe('inflate paths', () => {
  it('streaming and sync inflate give the same SHA-256 for a 9 MiB entry', async () => {
    const buf = gen({ entries: [{ name: 'big.csv', data: big }] });
    const s = readStructure(buf, L);
    const e = s.entries[0]!;
    const sync = readEntrySync(buf, e, true);
    const stream = await readEntryStreaming(buf, e);
    const want = createHash('sha256').update(big).digest('hex');
    expect(sync.sha256).toBe(want);
    expect(stream.sha256).toBe(want);
    expect(sync.bytes?.equals(big)).toBe(true);
  });

  it('the streaming path refuses a longer, shorter, truncated, trailing or CRC-broken stream', async () => {
    const both = (f: Record<string, number>) => ({ lh: f, ch: f });
    expect(
      (await streamRules(gen({ entries: [{ name: 'b', data: big, ...both({ usize: big.length - 1 }) }] }))).rules,
    ).toEqual(['RPR-ZIP-016']);
    expect(
      (await streamRules(gen({ entries: [{ name: 'b', data: big, ...both({ usize: big.length + 1 }) }] }))).rules,
    ).toEqual(['RPR-ZIP-017']);
    expect(
      (
        await streamRules(
          gen({ entries: [{ name: 'b', data: big, raw: bigDeflated.subarray(0, bigDeflated.length - 100) }] }),
        )
      ).rules,
    ).toEqual(['RPR-ZIP-017']);
    expect(
      (
        await streamRules(
          gen({ entries: [{ name: 'b', data: big, raw: Buffer.concat([bigDeflated, Buffer.from('JUNK')]) }] }),
        )
      ).rules,
    ).toEqual(['RPR-ZIP-018']);
    expect((await streamRules(gen({ entries: [{ name: 'b', data: big, ...both({ crc: 1 }) }] }))).rules).toEqual([
      'RPR-ZIP-015',
    ]);
  });
});

describe.skipIf(!cliBuilt())('worker split (built CLI)', () => {
  it('a 40 MiB package verifies the same with 2 inflate workers as inline, and a changed entry fails the same', () => {
    const extraFiles = Array.from({ length: 40 }, (_, i) => ({
      name: `extras/part-${i}.csv`,
      data: digits(1024 * 1024, i + 1),
    }));
    const parts = buildPackageParts(2, { digest: false, extraFiles });
    const dir = mkdtempSync(join(tmpdir(), 'reprise-zip-workers-'));
    const good = join(dir, 'good.nemosyne');
    writeFileSync(
      good,
      packPackage(parts, (a) => ({ ...a, fastDeflate: true })),
    );
    const bad = join(dir, 'bad.nemosyne');
    writeFileSync(
      bad,
      packPackage(parts, (a) => {
        a.entries[20]!.central = { crc32: 1 };
        a.entries[20]!.local = { crc32: 1 };
        return { ...a, fastDeflate: true };
      }),
    );
    const run = (p: string, ...extra: string[]) => {
      const r = spawnSync(process.execPath, [BIN, 'verify', '--json', p, ...extra], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      });
      const { run: _run, ...rest } = JSON.parse(r.stdout) as Report;
      return { code: r.status, rest };
    };
    const a = run(good);
    const b = run(good, '--limit', 'zipWorkers=0');
    expect(a.code).toBe(0);
    expect(a.rest).toEqual(b.rest);
    const c = run(bad);
    const d = run(bad, '--limit', 'zipWorkers=0');
    expect(c.code).toBe(1);
    expect(c.rest.findings.map((f) => f.rule)).toContain('RPR-ZIP-015');
    expect(c.rest).toEqual(d.rest);
  }, 120_000);
});

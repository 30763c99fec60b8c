/**
 * Bombs in a child process: peak RSS stays under 256 MiB even for archives that declare
 * or expand to gigabytes, and each is refused with its rule. Runs the built engine
 * (dist/), as the CLI does.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliBuilt, ROOT } from '../helpers/cli.js';

const CHILD = `
import zlib from 'node:zlib';
const { buildZip } = await import(process.env.ROOT + 'dist/app/zip/writer.js');
const { runBytes } = await import(process.env.ROOT + 'dist/app/engine/run.js');
const c = JSON.parse(process.env.CASE);
const block = zlib.deflateRawSync(Buffer.alloc(64 * 1024 * 1024), { finishFlush: zlib.constants.Z_FULL_FLUSH, level: 9 });
const bomb = Buffer.concat([...Array.from({ length: c.chunks }, () => block), Buffer.from([3, 0])]);
const entries = [{ name: 'manifest.json', data: '{}' }];
const e = { name: c.name, data: 'x', compressed: bomb, local: { uncompressedSize: c.declared, crc32: 0 }, central: { uncompressedSize: c.declared, crc32: 0 } };
entries.push(e);
for (let i = 0; i < (c.overlaps || 0); i++) entries.push({ name: 'copy' + i, data: 'x', central: { localOffset: 0 } });
const zip = buildZip({ entries });
const cpu0 = process.cpuUsage();
const r = await runBytes('bomb.zip', zip, 'verify', { limits: c.limits });
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ verdict: r.verdict, rules: r.findings.map((f) => f.rule), cpuMs: (cpu.user + cpu.system) / 1000, maxRssMiB: process.resourceUsage().maxRSS / 1024, zipBytes: zip.length }));
`;

interface Out {
  verdict: string;
  rules: string[];
  /** CPU time of the verification (every thread of the child), never its wall time. */
  cpuMs: number;
  maxRssMiB: number;
  zipBytes: number;
}

function runCase(c: {
  name: string;
  chunks: number;
  declared: number;
  limits?: Record<string, number>;
  overlaps?: number;
}): Out {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD], {
    env: { ...process.env, ROOT, CASE: JSON.stringify(c) },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as Out;
}

const RAISED = { maxEntryBytes: 2 ** 33, maxTotalBytes: 2 ** 33, maxRatio: 10_000_000, maxArchiveBytes: 2 ** 30 };
const GiB4 = 0xfffffffe;

describe.skipIf(!cliBuilt())('bombs stay bounded in CPU time and memory (child process, peak RSS < 256 MiB)', () => {
  it('an entry declaring 90 MiB that expands to 4 GiB is stopped one byte past its declaration (streaming)', () => {
    const o = runCase({ name: 'extras/bomb.bin', chunks: 64, declared: 90 * 1024 * 1024 });
    expect(o.verdict).toBe('fail');
    expect(o.rules).toContain('RPR-ZIP-016');
    expect(o.maxRssMiB).toBeLessThan(256);
  });

  it('a parsed entry (data/dataset.raw) declaring 90 MiB that expands to 4 GiB is capped too (in memory)', () => {
    const o = runCase({ name: 'data/dataset.raw', chunks: 64, declared: 90 * 1024 * 1024 });
    expect(o.rules).toContain('RPR-ZIP-016');
    expect(o.maxRssMiB).toBeLessThan(256);
  });

  it('with limits raised, an entry declaring 4 GiB and expanding past it streams through in flat memory', () => {
    const o = runCase({ name: 'extras/bomb.bin', chunks: 65, declared: GiB4, limits: RAISED });
    expect(o.rules).toContain('RPR-ZIP-016');
    expect(o.maxRssMiB).toBeLessThan(256);
  }, 120_000);

  it('with limits raised, a parsed entry declaring 4 GiB is refused before inflating', () => {
    const o = runCase({ name: 'data/dataset.raw', chunks: 2, declared: GiB4, limits: RAISED });
    expect(o.rules).toContain('RPR-ZIP-032');
    expect(o.maxRssMiB).toBeLessThan(256);
    expect(o.cpuMs).toBeLessThan(2000);
  });

  it('with default limits, a declared 4 GiB entry is refused from the central directory alone', () => {
    const o = runCase({ name: 'extras/bomb.bin', chunks: 1, declared: GiB4 });
    expect(o.rules).toContain('RPR-ZIP-032');
    expect(o.cpuMs).toBeLessThan(2000);
    expect(o.maxRssMiB).toBeLessThan(256);
  });

  it('a full-overlap bomb (900 central records on one local header) is refused without inflating', () => {
    const o = runCase({ name: 'extras/bomb.bin', chunks: 16, declared: 90 * 1024 * 1024, overlaps: 900 });
    expect(o.rules).toContain('RPR-ZIP-009');
    expect(o.cpuMs).toBeLessThan(2000);
    expect(o.maxRssMiB).toBeLessThan(256);
  });
});

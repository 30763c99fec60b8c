/**
 * Every attack archive of issue 5, built from raw header bytes by the tests' own
 * generator (gen.ts), is refused with its rule, quickly (in under 2 s of CPU time).
 */
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readEntry, readStructure, resolveLimits } from '../../app/zip/index.js';
import { descriptor, gen } from './gen.js';
import { both, CASES, deflated, text, two, unixMode } from './cases.js';
import { cpuMsSince } from '../helpers/measured-cli.js';

async function rulesOf(buf: Buffer, limits?: Record<string, number>): Promise<string[]> {
  const s = readStructure(buf, resolveLimits(limits));
  const rules = s.findings.map((f) => f.rule);
  if (s.ok) for (const e of s.entries) rules.push(...(await readEntry(buf, e, false)).findings.map((f) => f.rule));
  return rules;
}

describe('the strict ZIP reader refuses every attack archive with its rule', () => {
  it('an entry count of 65,535 (the ZIP64 sentinel) is refused as ZIP64, even under a raised maxEntries, and not called unneeded', () => {
    const s = readStructure(
      gen({ ...two(), eocd: { onDisk: 0xffff, total: 0xffff } }),
      resolveLimits({ maxEntries: 100_000 }),
    );
    const zip64 = s.findings.find((f) => f.rule === 'RPR-ZIP-006');
    expect(zip64?.message).toMatch(/ZIP64 archives are refused .*at most 65,534 entries/);
    expect(zip64?.message).not.toMatch(/does not need/);
  });

  it('an entry with a data descriptor whose data holds a ZIP record signature (a streaming reader ends it there)', async () => {
    for (const sig of [0x08074b50, 0x04034b50, 0x02014b50]) {
      const data = Buffer.alloc(40, 0x61);
      data.writeUInt32LE(sig, 17);
      const rules = await rulesOf(
        gen({
          entries: [
            {
              name: 'x.bin',
              data,
              method: 0,
              ...both({ flags: 8 }),
              dd: descriptor(zlib.crc32(data), data.length, data.length),
            },
          ],
        }),
      );
      expect(rules, sig.toString(16)).toContain('RPR-ZIP-014');
    }
  });

  it('accepts the plain archives the attacks are made from', async () => {
    expect(await rulesOf(gen(two()))).toEqual([]);
    expect(
      await rulesOf(
        gen({
          entries: [
            {
              name: 'a.txt',
              data: text,
              ...both({ flags: 8 }),
              dd: descriptor(zlib.crc32(text), deflated.length, text.length),
            },
          ],
        }),
      ),
    ).toEqual([]);
    expect(
      await rulesOf(
        gen({
          entries: [
            {
              name: 'a.txt',
              data: text,
              ...both({ flags: 8, crc: 0, csize: 0, usize: 0 }),
              ch: { flags: 8 },
              dd: descriptor(zlib.crc32(text), deflated.length, text.length, false),
            },
          ],
        }),
      ),
      // Without its signature, a streaming reader (fflate's Unzip) ends the entry elsewhere.
    ).toEqual(['RPR-ZIP-014']);
    expect(
      await rulesOf(
        gen({
          entries: [
            { name: 'dir/', data: '', method: 0 },
            { name: 'dir/f\u00e9.txt', data: 'x', ...unixMode(0o100644) },
          ],
        }),
      ),
    ).toEqual([]);
    // File-type bits left at 0 (Python's zipfile writes 0o600 alone) or undefined: read as the name says.
    for (const mode of [0o600, 0o644, 0o030644])
      expect(
        await rulesOf(
          gen({
            entries: [
              { name: 'dir/', data: '', method: 0, ...unixMode(0o755) },
              { name: 'dir/a.txt', data: 'x', ...unixMode(mode) },
            ],
          }),
        ),
      ).toEqual([]);
    // Nested archives are data: a stored ZIP inside is not opened.
    expect(
      await rulesOf(
        gen({ entries: [{ name: 'inner.zip', data: gen({ entries: [{ name: '../evil', data: 'x' }] }), method: 0 }] }),
      ),
    ).toEqual([]);
  });

  it.each(CASES)('%s: %s', async (_label, rule, bytes, limits) => {
    const built = bytes();
    const cpu0 = process.cpuUsage();
    const rules = await rulesOf(built, limits);
    expect(rules).toContain(rule);
    expect(cpuMsSince(cpu0)).toBeLessThan(2000);
  });
});

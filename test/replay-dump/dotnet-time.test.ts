// A dump's times are .NET DateTimes (the seed's ReplayContext.CreatedAtUtc; upstream's
// ReplayDump.CreatedAt), whose least value is 0001-01-01: year 0000, which RFC 3339 allows,
// is RDS-003, in either encoding (found by a red team: it passed). 0001-01-01 still passes.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBytes } from '../../app/engine/run.js';
import { encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { encodeRom, loadRomParser } from '../../app/kinds/replay-dump/rom-encoding.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { sampleSpec, trustStoreDocument } from '../../app/kinds/replay-dump/examples.js';

let store = '';
beforeAll(async () => {
  await loadRomParser();
  store = join(await mkdtemp(join(tmpdir(), 'reprise-dotnet-time-')), 'trust.json');
  await writeFile(store, trustStoreDocument());
});

describe('a dump time .NET cannot hold', () => {
  it('year 0000 fails RDS-003 in JSON and ROM; 0001-01-01 passes', async () => {
    for (const [at, verdict] of [
      ['0000-01-01T00:00:00Z', 'fail'],
      ['0001-01-01T00:00:00Z', 'pass'],
    ] as const) {
      const m = await buildDump(sampleSpec({ createdAtUtc: at }), sampleSigner('active'));
      const encoded: [string, string][] = [
        ['y.dump.json', encodeJson(m)],
        ['y.rom.md', encodeRom(m)],
      ];
      for (const [name, text] of encoded) {
        const r = await runBytes(name, Buffer.from(text, 'utf8'), 'verify', { trustStore: store });
        expect(r.verdict, `${at} ${name}`).toBe(verdict);
        const f = r.findings.find((x) => x.rule === 'RDS-003');
        if (verdict === 'fail') expect(f?.message).toMatch(/year 0000, before \.NET's DateTime\.MinValue/);
        else expect(f).toBeUndefined();
      }
    }
  });

  it('a fraction finer than a tick (100 ns) fails RDS-003; 7 digits, or more ending in zeros, pass', async () => {
    for (const [at, verdict] of [
      ['2026-05-04T10:00:00.123456789Z', 'fail'],
      ['2026-05-04T10:00:00.00000001Z', 'fail'],
      ['2026-05-04T10:00:00.1234567Z', 'pass'],
      ['2026-05-04T10:00:00.123456700Z', 'pass'],
    ] as const) {
      const m = await buildDump(sampleSpec({ createdAtUtc: at }), sampleSigner('active'));
      for (const [name, text] of [
        ['y.dump.json', encodeJson(m)],
        ['y.rom.md', encodeRom(m)],
      ] as const) {
        const r = await runBytes(name, Buffer.from(text, 'utf8'), 'verify', { trustStore: store });
        expect(r.verdict, `${at} ${name}`).toBe(verdict);
        const f = r.findings.find((x) => x.rule === 'RDS-003');
        if (verdict === 'fail') expect(f?.message).toMatch(/finer than \.NET's DateTime holds \(ticks of 100 ns/);
        else expect(f).toBeUndefined();
      }
    }
  });
});

/**
 * A ROM dump saved with a UTF-8 byte-order mark is still a replay dump, refused as one by
 * name (RPR-DUMP-005), as its JSON twin is (RPR-DUMP-003, ERR_BOM): upstream's ROM loader
 * (AIKernel.Core RomLoader + MarkdownFrontMatterParser) keeps the mark and then finds no
 * "---" at the start, so it refuses the file too. Front matter of another type behind a
 * mark is claimed by no kind.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { runBytes } from '../../app/engine/run.js';
import { Sniffed } from '../../app/kinds/sniff.js';
import { detectRom } from '../../app/kinds/replay-dump/declare.js';
import { encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { encodeRom } from '../../app/kinds/replay-dump/rom-encoding.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { sampleSpec } from '../../app/kinds/replay-dump/examples.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
let rom: string;
let json: string;

beforeAll(async () => {
  const m = await buildDump(sampleSpec(), sampleSigner('active'));
  rom = encodeRom(m);
  json = encodeJson(m);
});

const withBom = (text: string): Buffer => Buffer.concat([BOM, Buffer.from(text, 'utf8')]);

function expectRefusedForBom(r: Report): void {
  expect(r.artifact.kind).toBe('replay-dump');
  expect(r.verdict).toBe('fail');
  expect(r.findings.map((f) => f.rule)).not.toContain('RPR-KIND-001');
  const f = r.findings.filter((x) => x.rule === 'RPR-DUMP-005');
  expect(f).toHaveLength(1);
  expect(f[0]).toMatchObject({
    severity: 'fail',
    pointer: 'line:1',
    expected: 'the front matter\'s "---" line at byte 0',
    actual: 'a byte-order mark (EF BB BF)',
  });
  expect(f[0]!.message).toBe(
    'the ROM dump begins with a byte-order mark (U+FEFF, bytes EF BB BF) before its front matter: a ROM text starts with its "---" line, as AIKernel.Core\'s ROM loader requires, so the dump is not read; save it as UTF-8 without a byte-order mark',
  );
}

describe('a ROM dump behind a byte-order mark', () => {
  it('is detected as a dump (LF and CRLF line ends)', () => {
    expect(detectRom(new Sniffed('x', withBom(rom)))).toBe(true);
    expect(detectRom(new Sniffed('x', withBom(rom.replace(/\n/g, '\r\n'))))).toBe(true);
  });

  for (const mode of ['verify', 'replay'] as const)
    it(`is refused as a dump naming the mark (${mode}), nothing read or run`, async () => {
      const r = await runBytes('x.rom.md', withBom(rom), mode, {});
      expectRefusedForBom(r);
      expect(r.chain).toEqual([]);
    });

  it('is refused alike with CRLF line ends', async () => {
    expectRefusedForBom(await runBytes('x.rom.md', withBom(rom.replace(/\n/g, '\r\n')), 'verify', {}));
  });

  it('is the same kind and verdict as its JSON twin behind a mark', async () => {
    const j = await runBytes('x.dump.json', withBom(json), 'verify', {});
    const r = await runBytes('x.rom.md', withBom(rom), 'verify', {});
    expect([r.artifact.kind, r.verdict]).toEqual([j.artifact.kind, j.verdict]);
  });

  it('front matter of another type behind a mark stays unclaimed (RPR-KIND-001)', async () => {
    const other = withBom(rom.replace('type: "kernel.replay_dump"', 'type: "kernel.replay"'));
    expect(detectRom(new Sniffed('x', other))).toBe(false);
    const r = await runBytes('x.rom.md', other, 'verify', {});
    expect(r.findings.map((f) => f.rule)).toEqual(['RPR-KIND-001']);
  });
});

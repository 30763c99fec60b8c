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
    expect([r.artifact.kind, r.verdict, r.artifact.id]).toEqual([j.artifact.kind, j.verdict, j.artifact.id]);
  });

  it('names the dump refused by the id its front matter gives, as the JSON twin names it (LF, CRLF)', async () => {
    const id = sampleSpec().dumpId;
    for (const mode of ['verify', 'replay'] as const) {
      const j = await runBytes('x.dump.json', withBom(json), mode, {});
      expect(j.artifact.id).toBe(id);
      for (const t of [rom, rom.replace(/\n/g, '\r\n')]) {
        const r = await runBytes('x.rom.md', withBom(t), mode, {});
        expectRefusedForBom(r);
        expect(r.artifact.id).toBe(id);
      }
    }
  });

  it('reads the id from the front matter alone: a body of any size or content behind it is not read', async () => {
    const r = await runBytes(
      'x.rom.md',
      withBom(rom + 'not a line of a ROM dump\n' + 'x'.repeat(1 << 20)),
      'verify',
      {},
    );
    expectRefusedForBom(r);
    expect(r.artifact.id).toBe(sampleSpec().dumpId);
  });

  it('shows no id when the front matter behind the mark is one the reader refuses', async () => {
    const id = `id: ${JSON.stringify(sampleSpec().dumpId)}`;
    expect(rom).toContain(id);
    const refused = [
      rom.replace(id, `id: ${sampleSpec().dumpId}`), // not a JSON scalar
      rom.replace(id, `${id} # approved`), // a YAML comment
      rom.replace(id, `${id}\nreviewer: "x"`), // an unknown key
      rom.replace(id, `${id}\n${id}`), // the key twice
      rom.replace('---\n#', '#'), // the front matter never closed
      // its closing line beyond what is looked at (blank lines, which its bounds do not count)
      rom.replace('"kernel.replay_dump"\n', `"kernel.replay_dump"\n${(' '.repeat(8000) + '\n').repeat(50)}`),
    ];
    for (const t of refused) {
      expect(t).not.toBe(rom);
      const r = await runBytes('x.rom.md', withBom(t), 'verify', {});
      expectRefusedForBom(r);
      expect(r.artifact.id).toBeNull();
    }
    const notUtf8 = Buffer.concat([
      BOM,
      Buffer.from('---\nid: "dump.'),
      Buffer.from([0xff]),
      Buffer.from(rom.slice(rom.indexOf('"\n'))),
    ]);
    const r = await runBytes('x.rom.md', notUtf8, 'verify', {});
    expect(r.findings.map((f) => f.rule)).toContain('RPR-DUMP-005');
    expect(r.artifact.id).toBeNull();
  });

  it('front matter of another type behind a mark stays unclaimed (RPR-KIND-001)', async () => {
    const other = withBom(rom.replace('type: "kernel.replay_dump"', 'type: "kernel.replay"'));
    expect(detectRom(new Sniffed('x', other))).toBe(false);
    const r = await runBytes('x.rom.md', other, 'verify', {});
    expect(r.findings.map((f) => f.rule)).toEqual(['RPR-KIND-001']);
  });
});

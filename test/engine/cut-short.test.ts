/**
 * A file cut short (a copy truncated, a download interrupted) says "truncated" in its
 * decisive finding, in one wording for every format, where the evidence shows it: JSON
 * that stops inside a value, a JSON Lines trace whose last line stops so, a ROM dump that
 * ends inside its front matter, a fenced block, before an artifact's block or inside a
 * last line, or at a line's end with only what the writer puts after it missing, a ZIP
 * whose records run to the end of the file. A file broken elsewhere, or
 * one that only begins like a ZIP, is not called truncated.
 */
import { describe, expect, it } from 'vitest';
import type { Finding, Report } from '../../shared/report.js';
import { runBytes } from '../../app/engine/run.js';
import { endsInsideJsonValue } from '../../app/core/jcs.js';
import { generateTrace } from '../../app/kinds/acgp/generate.js';
import { encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { encodeRom } from '../../app/kinds/replay-dump/rom-encoding.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { samplePackages } from '../../app/kinds/nemosyne/samples.js';
import { sampleSpec } from '../../app/kinds/replay-dump/examples.js';

/** What the workbench's banner shows: the first fail's message and its `actual`. */
async function decisive(bytes: Buffer | string): Promise<{ report: Report; f: Finding; shown: string }> {
  const report = await runBytes('x', Buffer.from(bytes), 'verify', {});
  const f = report.findings.find((x) => x.severity === 'fail');
  if (!f) throw new Error(`no fail: ${JSON.stringify(report.findings)}`);
  return { report, f, shown: `${f.message} ${typeof f.actual === 'string' ? f.actual : ''}` };
}

describe('the evidence: JSON text that stops inside a value it began well', () => {
  it('is cut short inside strings, numbers, literals, objects and arrays, and in a character', () => {
    for (const t of [
      '{',
      '[',
      '{"a',
      '{"a"',
      '{"a":',
      '{"a": 1',
      '{"a": -',
      '{"a": 1.',
      '{"a": 1e+',
      '{"a": tr',
      '[nul',
      '["x\\',
      '["x\\u00',
      '{"a":[1,{"b":2}',
      '  {"a":1,\n',
    ])
      expect(endsInsideJsonValue(t), t).toBe(true);
    const e = Buffer.from('{"a":"é', 'utf8');
    expect(endsInsideJsonValue(e.subarray(0, e.length - 1))).toBe(true);
  });

  it('is not: complete values, data after one, a break before the end, other bytes', () => {
    for (const t of [
      '',
      '  ',
      '{}',
      '[1]',
      '12',
      '"x"',
      'true',
      '{"a":1}\n{"b":2}',
      '{"a":1}}',
      '{"a" 1',
      '{"a":1,}',
      '[1,]',
      '{"a":[1}',
      '{"a": 1x',
      '{"a": 1.e',
      '{"a": trux',
      '["x\\q',
      '["\u0001',
      'hello',
      '\ufeff{',
    ])
      expect(endsInsideJsonValue(t), t).toBe(false);
    expect(endsInsideJsonValue(Buffer.from([0x7b, 0x22, 0xff, 0x61]))).toBe(false);
  });
});

describe('JSON', () => {
  it('a document cut short is "truncated"; two documents one after the other are not', async () => {
    const json = encodeJson(await buildDump(sampleSpec(), sampleSigner('active')));
    const half = await decisive(json.slice(0, Math.floor(json.length / 2)));
    expect(half.shown).toContain('(truncated, cut short?)');
    // It leads with the cut, not with "unknown kind": such a copy is most likely of a known kind.
    expect(half.f.message).toMatch(/^the file looks cut short \(truncated\), so its kind cannot be read/);
    const two = await decisive('{"a":1}\n{"b":2}\n');
    expect(two.f.rule).toBe('RPR-KIND-001');
    expect(two.shown).not.toContain('truncated');
    expect(two.f.message).toMatch(/^the content is not an artifact kind Reprise knows/);
    expect(two.f.actual).toMatch(/^not well-formed JSON: ERR_SYNTAX: unexpected data after the JSON value/);
  });
});

describe('a JSON Lines trace', () => {
  const lines = generateTrace({ count: 6, seed: 3, traceId: 'trace-é' }).map((e) => JSON.stringify(e));
  const whole = lines.join('\n') + '\n';

  it('cut inside its last line (a string, a number, a character) is "truncated", with the rule and severity kept', async () => {
    const bytes = Buffer.from(whole, 'utf8');
    const last = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
    // Inside a member name, inside a number or string half way, between the two bytes of "é".
    const at = [last + 5, last + Math.floor((bytes.length - last) / 2), bytes.indexOf('é', last) + 1];
    for (const cut of at) {
      const { report, f } = await decisive(bytes.subarray(0, cut));
      expect(report.artifact.kind).toBe('acgp-trace');
      expect(f.rule).toBe('RPR-ACGP-001');
      expect(f.message).toMatch(
        /^EVAL 5 \(line 6\) is not valid I-JSON \(truncated, cut short\?\): the trace ends inside this line/,
      );
    }
  });

  it('a bad line in the middle, or a last line broken before its end, is not', async () => {
    const middle = [lines[0], '{"trace_id": }', ...lines.slice(2)].join('\n') + '\n';
    const m = await decisive(middle);
    expect(m.f.rule).toBe('RPR-ACGP-001');
    expect(m.shown).not.toContain('truncated');
    const broken = await decisive([...lines.slice(0, 5), lines[5] + '}'].join('\n'));
    expect(broken.f.rule).toBe('RPR-ACGP-001');
    expect(broken.shown).not.toContain('truncated');
  });
});

describe('a ROM dump', () => {
  it('cut inside a fenced block, before an artifact block, inside its last line or its front matter is "truncated"', async () => {
    const rom = encodeRom(await buildDump(sampleSpec(), sampleSigner('active')));
    const heading = rom.indexOf('\n## ') + 1;
    const fence = rom.indexOf('\n```', heading) + 1;
    const cuts: [number, RegExp][] = [
      [fence + 20, /is not closed by ``` \(truncated, cut short\?\): the text ends inside the block/],
      [
        rom.indexOf('\n', heading) + 1,
        /has no fenced content block \(truncated, cut short\?\): the text ends before its block/,
      ],
      [rom.indexOf('* [arity]') + 4, /\(truncated, cut short\?\): the text ends inside this line/],
      [
        rom.indexOf('type:') + 'type: "kernel.replay_dump"\n'.length,
        /front matter is not closed by a "---" line \(truncated, cut short\?\)/,
      ],
    ];
    for (const [cut, message] of cuts) {
      const { report, f } = await decisive(rom.slice(0, cut));
      expect(report.artifact.kind).toBe('replay-dump');
      expect(f.rule).toBe('RPR-DUMP-005');
      expect(f.message).toMatch(message);
    }
  });

  it('an artifact without its block before the next heading, or a bad last line ending in a newline, is not', async () => {
    const rom = encodeRom(await buildDump(sampleSpec(), sampleSigner('active')));
    const heading = rom.indexOf('\n## ') + 1;
    const next = rom.indexOf('\n## ', heading) + 1;
    const noBlock = await decisive(rom.slice(0, rom.indexOf('\n', heading) + 1) + rom.slice(next));
    expect(noBlock.f.message).toMatch(/has no fenced content block$/);
    const badLast = await decisive(rom + '* [seed]: 4x\n');
    expect(badLast.f.rule).toMatch(/^RPR-DUMP-00[15]$/);
    expect(badLast.shown).not.toContain('truncated');
  });
});

describe('a ROM dump cut at the end of a line (every line reads well)', () => {
  const lineEnds = (rom: string): number[] => [...rom.matchAll(/\n/g)].map((m) => m.index + 1);

  it('is "truncated" at every line end after the front matter: RDS-001 for a section after the end, RDS-002 for an artifact after it', async () => {
    const rom = encodeRom(await buildDump(sampleSpec(), sampleSigner('active')));
    const bodyFrom = rom.indexOf('\n---\n') + 5;
    let cuts = 0;
    for (const cut of lineEnds(rom).filter((n) => n >= bodyFrom && n < rom.length)) {
      const { f } = await decisive(rom.slice(0, cut));
      // Inside an artifact (after its heading, its media type or its block's first lines) the reader says so itself.
      if (f.rule === 'RPR-DUMP-005') {
        expect(f.message, `cut at ${cut}`).toContain('(truncated, cut short?)');
        continue;
      }
      expect(f.rule, `cut at ${cut}: ${f.message}`).toMatch(/^RDS-00[12]$/);
      expect(f.message, `cut at ${cut}`).toMatch(
        /\(truncated, cut short\?\): the text ends after (its front matter|"# [A-Za-z ]+"|artifact sha256:[0-9a-f]{64}), and the writer puts (this artifact|"# [A-Za-z ]+") after that$/,
      );
      cuts++;
    }
    expect(cuts).toBeGreaterThan(5);
  });

  it("is not, when the missing part comes from the middle, or the text is not in the writer's order", async () => {
    const rom = encodeRom(await buildDump(sampleSpec(), sampleSigner('active')));
    // The first artifact removed whole: the ones after it are still there.
    const first = rom.indexOf('\n## ') + 1;
    const second = rom.indexOf('\n## ', first) + 1;
    const middle = await decisive(rom.slice(0, first) + rom.slice(second));
    expect(middle.f.rule).toBe('RDS-002');
    expect(middle.report.findings.map((x) => x.message).join('\n')).not.toContain('truncated');
    // The buffers section moved after the artifacts, then the text cut before the artifacts' end.
    const buffers = rom.indexOf('# Frozen Buffers');
    const artifacts = rom.indexOf('# Embedded Artifacts');
    const reordered = rom.slice(0, buffers) + rom.slice(artifacts) + rom.slice(buffers, artifacts);
    const cut = await decisive(reordered.slice(0, reordered.indexOf('\n## ', reordered.indexOf('\n## ') + 1) + 1));
    expect(cut.report.findings.map((x) => x.message).join('\n')).not.toContain('truncated');
  });
});

describe('a ZIP package', () => {
  const pkg = samplePackages().find((p) => p.name === 'intact/v4.nemosyne')!.bytes;

  it('cut anywhere (a header, the data, the central directory, the end record) is "truncated", RPR-ZIP-001 kept', async () => {
    const cdir = pkg.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    for (const [cut, where] of [
      [10, /inside the local header of entry 1/],
      [60, /inside (the local header|the data) of entry 1/],
      [Math.floor(pkg.length / 2), /ends inside the data of entry \d+ \("/],
      [cdir + 10, /inside central directory record \d+/],
      [pkg.length - 5, /inside the end-of-central-directory record/],
    ] as const) {
      const { report, f } = await decisive(pkg.subarray(0, cut));
      expect(report.artifact.kind).toBe('nemosyne-package');
      expect(f.rule).toBe('RPR-ZIP-001');
      expect(f.message).toContain('(truncated, cut short?): the file begins as a ZIP archive and ends');
      expect(f.message).toMatch(where);
    }
  });

  it('a file that only begins with the ZIP magic is not', async () => {
    // The first entry whole (its header's sizes say where it ends), then no record.
    const firstEnd = 30 + pkg.readUInt16LE(26) + pkg.readUInt16LE(28) + pkg.readUInt32LE(18);
    for (const bytes of [
      Buffer.concat([
        Buffer.from([0x50, 0x4b, 0x03, 0x04]),
        Buffer.from('hello, this is plain text and no archive at all\n'.repeat(4)),
      ]),
      Buffer.concat([pkg.subarray(0, firstEnd), Buffer.alloc(400, 0x41)]),
    ]) {
      const { f } = await decisive(bytes);
      expect(f.rule).toBe('RPR-ZIP-001');
      expect(f.message).toBe('no end-of-central-directory record: not a ZIP archive');
    }
  });
});

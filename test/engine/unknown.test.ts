import { describe, expect, it } from 'vitest';
import type { Finding } from '../../shared/report.js';
import { runBytes } from '../../app/engine/run.js';
import { encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { encodeRom } from '../../app/kinds/replay-dump/rom-encoding.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { sampleSpec } from '../../app/kinds/replay-dump/examples.js';

// Content no kind claims is RPR-KIND-001 (fail-closed). Its `actual` says what the content
// looked like, so that a dump cut short or re-saved with a byte-order mark is told apart
// from a file of another sort.
async function unknown(bytes: Buffer | string): Promise<Finding> {
  const r = await runBytes('x', Buffer.from(bytes), 'verify', {});
  expect(r.artifact.kind).toBe('unknown');
  expect(r.verdict).toBe('fail');
  expect(r.findings.map((f) => f.rule)).toEqual(['RPR-KIND-001']);
  return r.findings[0]!;
}

describe('RPR-KIND-001 says what the unclaimed content looked like', async () => {
  const dump = await buildDump(sampleSpec(), sampleSigner('active'));
  const json = encodeJson(dump);
  const rom = encodeRom(dump);

  it('a JSON dump cut short: not well-formed JSON, with where the text ends', async () => {
    for (const cut of [1, 100, Math.floor(json.length / 2), json.length - 2]) {
      const f = await unknown(json.slice(0, cut));
      expect(f.actual).toMatch(
        /^not well-formed JSON \(truncated, cut short\?\): ERR_SYNTAX: .*\(line \d+, column \d+\)$/,
      );
    }
  });

  it('a dump behind a byte-order mark is its own kind: JSON failing RPR-DUMP-003, ROM RPR-DUMP-005', async () => {
    // The JSON dump is told by its top-level type (sniff.ts topLevelString), the ROM dump by
    // its front matter after the mark: each one's own finding names the mark.
    const r = await runBytes('x', Buffer.from('\ufeff' + json), 'verify', {});
    expect([r.artifact.kind, r.verdict]).toEqual(['replay-dump', 'fail']);
    expect(r.findings.find((f) => f.rule === 'RPR-DUMP-003')?.message).toMatch(/ERR_BOM/);
    const m = await runBytes('x', Buffer.from('\ufeff' + rom), 'verify', {});
    expect([m.artifact.kind, m.verdict]).toEqual(['replay-dump', 'fail']);
    expect(m.findings.find((f) => f.rule === 'RPR-DUMP-005')?.message).toMatch(/byte-order mark/);
    // Other text behind a mark is still unclaimed, and says so.
    expect((await unknown('\ufeff# notes\n')).actual).toMatch(/byte-order mark/);
  });

  it('JSON the strict parse refuses, with the reason', async () => {
    expect((await unknown('{"a":1,"a":2}')).actual).toMatch(
      /^JSON the strict parse refuses: ERR_DUPLICATE_KEY: duplicate member name "a"/,
    );
  });

  it('well-formed JSON of no known type', async () => {
    expect((await unknown('[1,2]')).actual).toBe('a JSON array, which no kind claims');
    expect((await unknown('{"type":"kernel.replay_dum"}')).actual).toBe(
      'a JSON object whose "type" is "kernel.replay_dum", which no kind claims',
    );
    expect((await unknown('{"hello":"world"}')).actual).toBe('a JSON object without a "type" any kind claims');
  });

  it('front matter of another type, binary bytes, plain text, nothing', async () => {
    expect((await unknown(rom.replace('type: "kernel.replay_dump"', 'type: "kernel.replay"'))).actual).toBe(
      'text with YAML front matter whose "type" no kind claims',
    );
    expect((await unknown(Buffer.from([0xff, 0xfe, 0x00, 0x41]))).actual).toBe(
      '4 bytes that are neither UTF-8 text nor a ZIP package',
    );
    expect((await unknown('hello\n')).actual).toBe('6 bytes that no kind claims');
    expect((await unknown('')).actual).toBe('an empty file');
  });
});

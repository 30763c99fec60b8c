/**
 * A line over MAX_LINE_BYTES is reported (RPR-JOURNAL-002) wherever the reader's chunk
 * boundaries fall: streamLines hands every such line over as overlong, never as a line,
 * whether it starts at the file's start, just before, at or just after a chunk boundary, and
 * verify fails a signed entry one byte over the limit that the chunks used to let through.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendEntry, verifyJournal } from '../../app/journal/index.js';
import { signEntry } from '../../app/journal/format.js';
import { leafHash } from '../../app/journal/merkle.js';
import { MAX_LINE_BYTES, streamLines, type OverlongLine } from '../../app/journal/read.js';
import { makeKeys, tmp } from './helpers.js';

/** The reader's chunk (read.ts CHUNK_BYTES): boundaries fall at its multiples. */
const CHUNK = 8 * 1024 * 1024;

describe('verify: over-long lines wherever the chunks fall', () => {
  it('every line of limit+1 bytes is overlong, at offsets around the chunk boundaries', async () => {
    const dir = tmp('reprise-verify-overlong-');
    const long = Buffer.alloc(MAX_LINE_BYTES + 1, 0x61);
    const atLimit = Buffer.alloc(MAX_LINE_BYTES, 0x62);
    for (const start of [0, 1, 4096, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK - 7]) {
      // A short first line puts the long one at `start`; a line at the limit and a short one follow.
      const head = start === 0 ? Buffer.alloc(0) : Buffer.concat([Buffer.alloc(start - 1, 0x63), Buffer.from('\n')]);
      writeFileSync(join(dir, 'f'), Buffer.concat([head, long, Buffer.from('\n'), atLimit, Buffer.from('\nend\n')]));
      const seen: { line: number; length: number }[] = [];
      const over: OverlongLine[] = [];
      const file = await streamLines(
        dir,
        'f',
        (lines) => lines.forEach((l) => seen.push({ line: l.line, length: l.bytes.length })),
        (l) => over.push(l),
      );
      const first = start === 0 ? 0 : 1;
      expect(
        over.map((l) => [l.line, l.offset, l.length]),
        `long line at ${start}`,
      ).toEqual([[first + 1, start, MAX_LINE_BYTES + 1]]);
      expect(over[0]!.leaf.equals(leafHash(long))).toBe(true);
      expect(seen, `long line at ${start}`).toEqual([
        ...(first ? [{ line: 1, length: start - 1 }] : []),
        { line: first + 2, length: MAX_LINE_BYTES },
        { line: first + 3, length: 3 },
      ]);
      expect(file.lines).toBe(first + 3);
      expect(file.torn).toBeNull();
    }
  }, 60_000);

  it('a signed entry one byte over the limit fails RPR-JOURNAL-002', async () => {
    const base = tmp('reprise-verify-overlong-');
    const keys = makeKeys(base);
    const dir = join(base, 'J');
    const first = await appendEntry(
      dir,
      { kind: 'replay-drift', subject: { claimRef: 'claim:X' }, body: { x: 1 } },
      keys.reviewer,
      { trustStore: keys.trust, fsync: false },
    );
    // Written by another tool (the writer refuses a line over the limit): entry 1, signed and
    // chained, padded so its line is exactly limit+1 bytes; it starts just after entry 0, so it
    // spans the first two chunk boundaries.
    const entry = (pad: number) =>
      signEntry(
        {
          author: keys.reviewer.keyId,
          body: { pad: 'a'.repeat(pad) },
          kind: 'replay-drift',
          prev: first.entryHash,
          recordedAtUtc: first.entry.recordedAtUtc,
          seq: 1,
          subject: { claimRef: 'claim:X' },
        },
        keys.reviewer,
      ).line;
    const line = entry(MAX_LINE_BYTES + 1 - Buffer.byteLength(entry(0)));
    expect(Buffer.byteLength(line)).toBe(MAX_LINE_BYTES + 1);
    appendFileSync(join(dir, 'entries.jsonl'), line + '\n');
    const v = await verifyJournal(dir, keys.trust, { keep: false });
    const over = v.findings.filter((f) => f.rule === 'RPR-JOURNAL-002');
    expect(over.map((f) => [f.severity, f.pointer])).toEqual([['fail', 'line:2']]);
    expect(over[0]!.message).toContain(`${MAX_LINE_BYTES + 1} bytes long`);
  });
});

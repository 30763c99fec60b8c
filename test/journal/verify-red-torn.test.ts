/**
 * Torn tails as verify reports them (RPR-JOURNAL-013, docs/journal.md "Crash states"): a torn
 * line of notes.jsonl fails like one of the other two files, and the finding gives the real
 * number of torn bytes, also for a tail too long to hold (it is counted, not kept).
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyJournal } from '../../app/journal/index.js';
import { MAX_LINE_BYTES } from '../../app/journal/read.js';
import { twoEntries } from './helpers.js';

describe('verify: torn tails', () => {
  it('a torn notes.jsonl line fails RPR-JOURNAL-013, naming notes.jsonl and its bytes', async () => {
    const { dir, keys } = await twoEntries('reprise-verify-torn-');
    appendFileSync(join(dir, 'notes.jsonl'), '"torn note');
    const v = await verifyJournal(dir, keys.trust);
    const torn = v.findings.filter((f) => f.rule === 'RPR-JOURNAL-013');
    expect(torn).toHaveLength(1);
    expect(torn[0]!.severity).toBe('fail');
    expect(torn[0]!.pointer).toBe('entry:notes.jsonl:line:3');
    expect(torn[0]!.message).toContain('notes.jsonl ends with a torn line: 10 byte(s)');
    expect(v.torn.map((t) => [t.file, t.length])).toEqual([['notes.jsonl', 10]]);
  });

  it('a torn tail longer than a line may be says its real length', async () => {
    const { dir, keys } = await twoEntries('reprise-verify-torn-');
    const n = MAX_LINE_BYTES + 12_345;
    appendFileSync(join(dir, 'entries.jsonl'), Buffer.alloc(n, 0x61));
    const v = await verifyJournal(dir, keys.trust, { keep: false });
    const torn = v.findings.filter((f) => f.rule === 'RPR-JOURNAL-013');
    expect(torn.map((f) => [f.pointer, f.message.split(' (')[0]])).toEqual([
      ['line:3', `entries.jsonl ends with a torn line: ${n} byte(s) after the last newline`],
    ]);
    expect(v.torn[0]!.length).toBe(n);
  });
});

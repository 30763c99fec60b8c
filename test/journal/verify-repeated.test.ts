/**
 * Checkpoint and note lines that verify passed without a word. A line repeated
 * (RPR-JOURNAL-046, docs/rules/journal.md): the writer signs one of each per entry, so a
 * second line for the same tree was copied in or written by another program; no root
 * changes, so it is a warning naming the line, and the journal stays writable. And
 * notes.jsonl removed from a journal whose writer writes notes (RPR-JOURNAL-043).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendEntry, verifyJournal } from '../../app/journal/index.js';
import { verifyJournalSince } from '../../app/journal/verify.js';
import { twoEntries } from './helpers.js';

/** Writes the file's last line a second time. */
function repeatLastLine(path: string): void {
  const text = readFileSync(path, 'utf8');
  writeFileSync(path, text + text.split('\n').at(-2)! + '\n');
}

describe('verify: a repeated checkpoint or note', () => {
  for (const file of ['checkpoints.jsonl', 'notes.jsonl']) {
    it(`a repeated line of ${file} is a warning naming it, and the journal can still be written`, async () => {
      const { dir, keys } = await twoEntries('reprise-verify-repeated-');
      expect((await verifyJournal(dir, keys.trust)).findings.filter((f) => f.severity !== 'info')).toEqual([]);
      repeatLastLine(join(dir, file));
      const v = await verifyJournal(dir, keys.trust);
      const found = v.findings.filter((f) => f.severity !== 'info');
      expect(found.map((f) => [f.rule, f.severity, f.pointer])).toEqual([
        ['RPR-JOURNAL-046', 'warning', `entry:${file}:line:3`],
      ]);
      expect(found[0]!.message).toMatch(/line 3 repeats tree size 2 of the (checkpoint at line 2|note) above it/);
      await appendEntry(
        dir,
        { kind: 'replay-drift', subject: { claimRef: 'claim:X' }, body: { x: 2 } },
        keys.reviewer,
        {
          trustStore: keys.trust,
          fsync: false,
        },
      );
      const after = await verifyJournal(dir, keys.trust);
      expect(after.findings.filter((f) => f.severity === 'fail')).toEqual([]);
      expect(after.findings.filter((f) => f.rule === 'RPR-JOURNAL-046')).toHaveLength(1);
    });
  }

  it('verify --since finds a repeated checkpoint after the held one, and not the held one its own line repeats', async () => {
    const { dir, keys } = await twoEntries('reprise-verify-repeated-');
    const held = (await verifyJournal(dir, keys.trust)).latestCheckpoint!;
    await appendEntry(dir, { kind: 'replay-drift', subject: { claimRef: 'claim:X' }, body: { x: 2 } }, keys.reviewer, {
      trustStore: keys.trust,
      fsync: false,
    });
    const clean = (await verifyJournalSince(dir, held, keys.trust))!;
    expect(clean.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    repeatLastLine(join(dir, 'checkpoints.jsonl'));
    const v = await verifyJournalSince(dir, held, keys.trust);
    // A file changed outside a writer is read again from the start (null: the caller verifies in full).
    const found = (v ?? (await verifyJournal(dir, keys.trust))).findings.filter((f) => f.severity !== 'info');
    expect(found.map((f) => [f.rule, f.pointer])).toEqual([['RPR-JOURNAL-046', 'entry:checkpoints.jsonl:line:4']]);
  });
});

describe('verify: notes.jsonl removed', () => {
  it('is a warning when a writer that writes notes left its state here, and nothing to say for a journal without notes', async () => {
    const { dir, keys } = await twoEntries('reprise-verify-notes-gone-');
    expect(existsSync(join(dir, 'state.json'))).toBe(true);
    rmSync(join(dir, 'notes.jsonl'));
    const v = await verifyJournal(dir, keys.trust);
    const found = v.findings.filter((f) => f.severity !== 'info');
    expect(found.map((f) => [f.rule, f.severity, f.pointer])).toEqual([
      ['RPR-JOURNAL-043', 'warning', 'entry:notes.jsonl'],
    ]);
    expect(found[0]!.message).toMatch(
      /^notes\.jsonl is missing, though the writer whose state is here \(state\.json\)/,
    );
    // A journal no such writer touched (no state.json: written before notes, or by another program) has nothing to say.
    rmSync(join(dir, 'state.json'));
    expect((await verifyJournal(dir, keys.trust)).findings.filter((f) => f.severity !== 'info')).toEqual([]);
    // The next write starts the notes again, and the newest checkpoint has its note.
    await appendEntry(dir, { kind: 'replay-drift', subject: { claimRef: 'claim:X' }, body: { x: 3 } }, keys.reviewer, {
      trustStore: keys.trust,
      fsync: false,
    });
    expect((await verifyJournal(dir, keys.trust)).findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });
});

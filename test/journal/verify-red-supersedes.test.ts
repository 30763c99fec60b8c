/**
 * RPR-JOURNAL-045: journal verify holds a note's edit (body.supersedes) to the rules its writer
 * applies (docs/journal.md "Notes", notes.ts): an edit is a note naming an earlier note on the
 * same artifact that nothing supersedes yet. Journals are written around the writer
 * (forgeEntry), which signs any body, as another tool or a hand edit could: the writer itself
 * refuses such an edit (note-edit-append-rules.test.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendEntry, verifyJournal } from '../../app/journal/index.js';
import { verifyJournalSince } from '../../app/journal/verify.js';
import type { JsonObject } from '../../app/journal/format.js';
import { JUDGEMENT_TYPE } from '../../app/journal/judgement.js';
import type { Signer } from '../../app/core/keys.js';
import { forgeEntry } from './forge.helpers.js';
import { makeKeys, tmp, type Keys } from './helpers.js';

const A = `sha256:${'a'.repeat(64)}`;
const B = `sha256:${'b'.repeat(64)}`;
const TEXT = 'The dump and the manifest name the same claim reference 2026-11-0104.';

/** A journal written around the writer: `add` appends a review-rationale on an artifact and returns its entry hash. */
function journal() {
  const base = tmp('reprise-verify-supersedes-');
  const keys = makeKeys(base);
  const dir = join(base, 'J');
  mkdirSync(dir);
  const add = async (artifact: string, body: JsonObject, signer: Signer = keys.reviewer) =>
    forgeEntry(dir, { kind: 'review-rationale', subject: { claimRef: artifact, artifact }, body }, signer).entryHash;
  return { dir, keys, add };
}

const note = (supersedes?: string): JsonObject => ({
  type: JUDGEMENT_TYPE,
  decision: 'note',
  rationale: TEXT,
  pointer: '',
  ...(supersedes ? { supersedes } : {}),
});

async function edits(dir: string, keys: Keys) {
  const v = await verifyJournal(dir, keys.trust);
  return {
    found: v.findings.filter((f) => f.rule === 'RPR-JOURNAL-045').map((f) => [f.severity, f.pointer]),
    fails: v.findings.filter((f) => f.severity === 'fail').map((f) => f.rule),
  };
}

describe('verify: a note edit the writer would refuse fails RPR-JOURNAL-045', () => {
  it('a note on B superseding a note on A', async () => {
    const { dir, keys, add } = journal();
    const onA = await add(A, note());
    await add(B, note(onA));
    expect((await edits(dir, keys)).found).toEqual([['fail', 'line:2']]);
  });

  it('an accept decision carrying supersedes', async () => {
    const { dir, keys, add } = journal();
    const onA = await add(A, note());
    await add(A, { type: JUDGEMENT_TYPE, decision: 'accept', rationale: TEXT, pointer: '', supersedes: onA });
    expect((await edits(dir, keys)).found).toEqual([['fail', 'line:2']]);
  });

  it('supersedes naming no entry of the journal, or a judgement that is not a note', async () => {
    const { dir, keys, add } = journal();
    const accept = await add(A, { type: JUDGEMENT_TYPE, decision: 'accept', rationale: TEXT, pointer: '' });
    await add(A, note(`sha256:${'c'.repeat(64)}`));
    await add(A, note(accept));
    expect((await edits(dir, keys)).found).toEqual([
      ['fail', 'line:2'],
      ['fail', 'line:3'],
    ]);
  });

  it('a second edit of a note already edited', async () => {
    const { dir, keys, add } = journal();
    const first = await add(A, note());
    await add(A, note(first));
    await add(A, note(first));
    expect((await edits(dir, keys)).found).toEqual([['fail', 'line:3']]);
  });

  it('a line of edits passes, and an edit by a key that may not sign a judgement supersedes nothing (as notes.ts lists it)', async () => {
    const { dir, keys, add } = journal();
    const first = await add(A, note());
    const second = await add(A, note(first));
    await add(A, note(second));
    expect(await edits(dir, keys)).toEqual({ found: [], fails: [] });
    // The officer's edit of the latest version is not a reviewer's: the reviewer may still edit that version.
    const third = await add(B, note());
    await add(B, note(third), keys.officer);
    await add(B, note(third));
    expect(await edits(dir, keys)).toEqual({ found: [], fails: [] });
  });

  it('since a held checkpoint: an edit of a note before it is counted, not checked; one after it is checked', async () => {
    const { dir, keys, add } = journal();
    // The held tree is a writer's (its tree.bin and index.bin anchor the verification since it).
    const input = { kind: 'review-rationale', subject: { claimRef: A, artifact: A }, body: note() } as const;
    const old = (await appendEntry(dir, input, keys.reviewer, { trustStore: keys.trust, fsync: false })).entryHash;
    const held = (await verifyJournal(dir, keys.trust)).latestCheckpoint!;
    await add(A, note(old));
    const fresh = await add(B, note());
    await add(B, note(fresh));
    await add(B, note(fresh));
    const v = (await verifyJournalSince(dir, held, keys.trust))!;
    expect(v.findings.filter((f) => f.rule === 'RPR-JOURNAL-045').map((f) => [f.severity, f.pointer ?? null])).toEqual([
      ['fail', 'line:5'],
      ['info', null],
    ]);
  });
});

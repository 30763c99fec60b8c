/**
 * A note's edit is held to the rule `journal verify` applies (RPR-JOURNAL-045) by the writer,
 * not only by the note commands (docs/journal.md, "The rules are the writer's, for every
 * append"): an edit appended through `JournalWriter.append` or `appendEntry` naming no entry,
 * an entry that is no note, another artifact's note or a note already edited is refused with
 * nothing written, so the writer's sealed state never stands for a journal that fails. A
 * journal holding such an edit written around the writer is refused, whatever its state.json.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSigner, parseTrustStore, trustStoreEntry, type Signer } from '../../app/core/keys.js';
import { appendEntry, JournalWriter, verifyJournal, type AppendInput } from '../../app/journal/index.js';
import type { JsonObject } from '../../app/journal/format.js';
import { JUDGEMENT_TYPE } from '../../app/journal/judgement.js';
import { recordNote } from '../../app/journal/notes.js';
import { trustStoreDigest, verificationContext } from '../../app/journal/trusted-state.js';
import { forgeEntry, resealState } from './forge.helpers.js';
import { makeKeys, tmp, type Keys } from './helpers.js';

const A = `sha256:${'a'.repeat(64)}`;
const B = `sha256:${'b'.repeat(64)}`;
const TEXT = 'The dump and the manifest name the same claim reference 2026-11-0104.';
const opts = { fsync: false };
const FILES = ['entries.jsonl', 'checkpoints.jsonl', 'notes.jsonl'];
const snapshot = (dir: string) => FILES.map((f) => readFileSync(join(dir, f), 'utf8'));

const rationale = (artifact: string, body: JsonObject): AppendInput => ({
  kind: 'review-rationale',
  subject: { claimRef: artifact, artifact },
  body,
});

const note = (artifact: string, supersedes?: string): AppendInput =>
  rationale(artifact, {
    type: JUDGEMENT_TYPE,
    decision: 'note',
    rationale: TEXT,
    pointer: '',
    ...(supersedes ? { supersedes } : {}),
  });

/** The store, with a second reviewer (rev2) beside makeKeys' reviewer and officer. */
function keysWithRev2(): { k: Keys; rev2: Signer } {
  const rev2 = generateSigner();
  return { k: makeKeys(tmp('reprise-note-edit-'), [{ signer: rev2, role: 'reviewer', status: 'active' }]), rev2 };
}

async function add(dir: string, k: Keys, input: AppendInput, signer: Signer = k.reviewer): Promise<string> {
  return (await appendEntry(dir, input, signer, { ...opts, trustStore: k.trust })).entryHash;
}

/** Appends through a writer opened on the existing journal, as any caller of the public API can. */
async function appendVia(dir: string, k: Keys, signer: Signer, input: AppendInput): Promise<string> {
  const w = await JournalWriter.open(dir, { ...opts, signer, trustStore: k.trust, create: false });
  try {
    return (await w.append(input, signer)).entryHash;
  } finally {
    await w.close();
  }
}

async function failing(dir: string, k: Keys): Promise<string[]> {
  return (await verifyJournal(dir, k.trust)).findings.filter((f) => f.severity === 'fail').map((f) => f.rule);
}

const refused = (reason: RegExp) => ({
  code: 'REFUSED',
  message: expect.stringMatching(new RegExp(`^note edit refused \\(RPR-JOURNAL-045\\): ${reason.source}`)),
});

describe('the public append holds a note edit to the rule journal verify applies', () => {
  it('refuses an edit naming no entry, a judgement, another artifact note or an edited note; takes a valid one', async () => {
    const { k } = keysWithRev2();
    const dir = join(tmp(), 'J');
    const onA = await add(dir, k, note(A));
    const onB = await add(dir, k, note(B));
    const accept = await add(dir, k, rationale(A, { type: JUDGEMENT_TYPE, decision: 'accept', rationale: TEXT }));
    const edit = await add(dir, k, note(A, onA));
    const before = snapshot(dir);
    const cases: [string, RegExp][] = [
      [`sha256:${'c'.repeat(64)}`, /entry sha256:c{64} is no note on this artifact in the journal/],
      [accept, /entry \S+ is no note on this artifact/],
      [onB, /entry \S+ is no note on this artifact in the journal: it is the note at line 2, on another artifact/],
      [onA, new RegExp(`the note ${onA} was already edited by ${edit}: edit its latest version`)],
    ];
    for (const [supersedes, why] of cases) {
      await expect(appendVia(dir, k, k.reviewer, note(A, supersedes))).rejects.toMatchObject(refused(why));
      await expect(add(dir, k, note(A, supersedes))).rejects.toMatchObject(refused(why));
    }
    // A decision carrying supersedes fails the judgement body check, as verify finds it.
    const decided = rationale(A, { type: JUDGEMENT_TYPE, decision: 'reject', rationale: TEXT, supersedes: edit });
    await expect(add(dir, k, decided)).rejects.toMatchObject(refused(/body.supersedes is a note's edit/));
    expect(snapshot(dir)).toEqual(before);
    // The latest version is edited, through either way in, and the journal verifies.
    const next = await appendVia(dir, k, k.reviewer, note(A, edit));
    await add(dir, k, note(A, next));
    expect(await failing(dir, k)).toEqual([]);
  });

  it('takes an edit of another reviewer note (the rule names no author, as verify), not of one already edited', async () => {
    const { k, rev2 } = keysWithRev2();
    const dir = join(tmp(), 'J');
    const first = await add(dir, k, note(A));
    const byRev2 = await appendVia(dir, k, rev2, note(A, first));
    const before = snapshot(dir);
    await expect(appendVia(dir, k, k.reviewer, note(A, first))).rejects.toMatchObject(
      refused(new RegExp(`the note ${first} was already edited by ${byRev2}`)),
    );
    expect(snapshot(dir)).toEqual(before);
    await add(dir, k, note(A, byRev2));
    expect(await failing(dir, k)).toEqual([]);
  });
});

/**
 * A journal holding an edit `journal verify` fails (RPR-JOURNAL-045 at line 4) and an unedited
 * note on B (`onB`, line 2), beside a state sealed as verified under `under`. rev2's edit
 * (line 3) supersedes the reviewer's note (line 1); the reviewer's second edit of that note
 * (line 4) is written around the writer (forgeEntry).
 * A writer under a store that calls rev2 an officer (whose edits count for nothing) verifies
 * the journal in full, rebuilds the derived files and seals the state; the state is then
 * re-sealed, by the reviewer (who signed the newest checkpoint), as verified under `under`.
 */
async function badEditUnderSealedState(k: Keys, rev2: Signer, under: string): Promise<{ dir: string; onB: string }> {
  const dir = join(tmp(), 'J');
  const first = await add(dir, k, note(A));
  const onB = await add(dir, k, note(B));
  await add(dir, k, note(A, first), rev2);
  forgeEntry(dir, note(A, first), k.reviewer);
  const doc = {
    type: 'reprise.trust-store/v1',
    keys: [trustStoreEntry(k.reviewer, 'reviewer', 'r'), trustStoreEntry(rev2, 'quarantine-officer', 'mislabelled')],
  };
  const wrong = parseTrustStore(Buffer.from(JSON.stringify(doc)), 'wrong.json');
  const w = await JournalWriter.open(dir, { ...opts, signer: k.reviewer, trustStore: wrong, create: false });
  expect(w.verifiedBy).toBe('full-verification');
  await w.close();
  resealState(dir, k.reviewer, under);
  return { dir, onB };
}

describe('a journal holding an edit journal verify fails, with a sealed state.json', () => {
  it('refuses the next edit (UNVERIFIED, RPR-JOURNAL-045) though the state is trusted, and writes nothing', async () => {
    const { k, rev2 } = keysWithRev2();
    const { dir, onB } = await badEditUnderSealedState(k, rev2, verificationContext({ trustStore: k.trust }));
    expect(await failing(dir, k)).toEqual(['RPR-JOURNAL-045']);
    const w = await JournalWriter.open(dir, { ...opts, signer: k.reviewer, trustStore: k.trust, create: false });
    expect(w.verifiedBy).toBe('trusted-state');
    await w.close();
    const before = snapshot(dir);
    const unverified = { code: 'UNVERIFIED', message: expect.stringContaining('RPR-JOURNAL-045 at line:4') };
    await expect(appendVia(dir, k, k.reviewer, note(B, onB))).rejects.toMatchObject(unverified);
    await expect(
      recordNote(dir, { artifact: B, text: TEXT, supersedes: onB }, k.reviewer, k.trust, opts),
    ).rejects.toMatchObject(unverified);
    expect(snapshot(dir)).toEqual(before);
  });

  it('a state sealed by a writer that did not check edits (no note-edit-rules in verifiedUnder) is verified in full, and refused', async () => {
    const { k, rev2 } = keysWithRev2();
    const { dir } = await badEditUnderSealedState(k, rev2, `case-rules trust-store:${trustStoreDigest(k.trust)}`);
    const before = snapshot(dir);
    const drift: AppendInput = { kind: 'replay-drift', subject: { claimRef: 'claim:A' }, body: { x: 1 } };
    await expect(appendEntry(dir, drift, k.officer, { ...opts, trustStore: k.trust })).rejects.toMatchObject({
      code: 'UNVERIFIED',
      message: expect.stringContaining('RPR-JOURNAL-045'),
    });
    expect(snapshot(dir)).toEqual(before);
  });
});

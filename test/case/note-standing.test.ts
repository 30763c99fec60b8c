/**
 * A case's judgements say whether each counts (app/kinds/journal/case-facts.ts, shared/case.ts
 * CaseJudgement.standing and .problem), by the rules `reprise journal notes` applies: a note
 * "edit" signed by a quarantine officer's key (recorded by hand without a trust store, so the
 * writer could not refuse it) does not count and carries its problem, and the reviewer's note
 * it claims to supersede stays the one that counts; without a trust store nobody's signer is
 * judged, and the case says so. Held to the case schema and the hand-written case shape.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashBytes } from '../../app/core/hash.js';
import { writeExamples } from '../../app/examples/index.js';
import { runCase } from '../../app/jobs/case.js';
import { JUDGEMENT_TYPE } from '../../app/journal/judgement.js';
import { appendJudgementBody, listNotes, recordNote } from '../../app/journal/notes.js';
import { journalCaseFacts } from '../../app/kinds/journal/case-facts.js';
import type { CaseJudgementFact } from '../../app/kinds/operations.js';
import { caseShapeProblems } from '../../shared/case-shape.js';
import { caseSchemaValidator } from '../helpers/case-schema.js';
import { makeKeys, tmp, type Keys } from '../journal/helpers.js';

const opts = { fsync: false };
const REVIEWER_TEXT = 'The dump and the manifest name the same claim reference; checked by hand.';
const OFFICER_TEXT = 'OFFICER OVERRIDE: this replaces the reviewer note, signed by the quarantine officer.';

interface World {
  caseDir: string;
  journal: string;
  artifact: string;
  keys: Keys;
  reviewerNote: string;
  officerNote: string;
  reviewerEdit: string;
}

let w: World;

beforeAll(async () => {
  const base = tmp('reprise-note-standing-');
  const keys = makeKeys(base);
  await writeExamples(join(base, 'examples'));
  const caseDir = join(base, 'case');
  mkdirSync(caseDir);
  copyFileSync(join(base, 'examples', 'reports', 'well-formed.report.json'), join(caseDir, 'report.json'));
  const artifact = hashBytes(readFileSync(join(caseDir, 'report.json')));
  const journal = join(caseDir, 'journal');
  const r = await recordNote(journal, { artifact, text: REVIEWER_TEXT }, keys.reviewer, keys.trust, opts);
  // `journal record --kind review-rationale --artifact A --key officer.pem` without --trust-store:
  // the writer checks the body and the edit, not who signs.
  const o = await appendJudgementBody(
    journal,
    {
      subject: { claimRef: artifact, artifact },
      body: { type: JUDGEMENT_TYPE, decision: 'note', rationale: OFFICER_TEXT, pointer: '', supersedes: r.entryHash },
      what: 'judgement',
    },
    keys.officer,
    null,
    opts,
  );
  // The reviewer's own edit of the note the officer claimed to edit: the officer's did not count, so it is the first.
  const e = await recordNote(
    journal,
    { artifact, text: `${REVIEWER_TEXT} Edited once.`, supersedes: r.entryHash },
    keys.reviewer,
    keys.trust,
    opts,
  );
  w = {
    caseDir,
    journal,
    artifact,
    keys,
    reviewerNote: r.entryHash,
    officerNote: o.entryHash,
    reviewerEdit: e.entryHash,
  };
}, 120_000);

const byHash = (js: readonly CaseJudgementFact[], h: string) => js.find((j) => j.entryHash === h)!;

describe("a case's judgements say whether each counts", () => {
  it("with the trust store: the officer's edit does not count and carries its problem; the reviewer's count", async () => {
    const facts = await journalCaseFacts(w.journal, undefined, w.keys.trust);
    const js = facts.judgements!;
    expect(js).toHaveLength(3);
    const officer = byHash(js, w.officerNote);
    expect(officer.standing).toBe('does-not-count');
    expect(officer.problem).toMatch(/quarantine-officer|role/);
    expect(byHash(js, w.reviewerNote)).toMatchObject({ standing: 'counts', problem: null });
    expect(byHash(js, w.reviewerEdit)).toMatchObject({ standing: 'counts', problem: null });
    // The same words `reprise journal notes` gives (listNotes), and the same latest version.
    const { notes } = await listNotes(w.journal, w.artifact, w.keys.trust);
    expect(notes.find((n) => n.entryHash === w.officerNote)!.problem).toBe(officer.problem);
    expect(notes.find((n) => n.entryHash === w.reviewerNote)!.supersededBy).toBe(w.reviewerEdit);
  });

  it('without a trust store: no signer is judged, and each says so (unchecked, never counts)', async () => {
    const js = (await journalCaseFacts(w.journal)).judgements!;
    expect(js.map((j) => [j.standing, j.problem])).toEqual([
      ['unchecked', null],
      ['unchecked', null],
      // As notesIn without a store: the officer's unchecked edit came first, so the reviewer's second edit of the same note is refused.
      ['does-not-count', `the note ${w.reviewerNote} was already edited by ${w.officerNote}: edit its latest version`],
    ]);
  });

  it('with a store where the reviewer is revoked: none of the notes counts', async () => {
    const base = tmp('reprise-note-standing-revoked-');
    const doc = JSON.parse(readFileSync(w.keys.trustPath, 'utf8')) as { keys: { status?: string; role: string }[] };
    for (const k of doc.keys) if (k.role === 'reviewer') k.status = 'revoked';
    const { parseTrustStore } = await import('../../app/core/keys.js');
    const revoked = parseTrustStore(Buffer.from(JSON.stringify(doc)), join(base, 'ts.json'));
    const js = (await journalCaseFacts(w.journal, undefined, revoked)).judgements!;
    expect(js.every((j) => j.standing === 'does-not-count' && typeof j.problem === 'string')).toBe(true);
    expect(byHash(js, w.reviewerNote).problem).toMatch(/revoked/);
  });

  it('the case run with a trust store carries them, deterministic and of the schema and the case shape', async () => {
    const run = () => runCase(w.caseDir, { options: { trustStore: w.keys.trustPath } });
    const c = await run();
    const notes = c.judgements.filter((j) => j.journal === 'journal');
    expect(notes.map((j) => [j.entryHash, j.standing])).toEqual([
      [w.reviewerNote, 'counts'],
      [w.officerNote, 'does-not-count'],
      [w.reviewerEdit, 'counts'],
    ]);
    expect(notes[1]!.problem).toMatch(/quarantine-officer|role/);
    expect(caseSchemaValidator()(c)).toBe(true);
    expect(caseShapeProblems(JSON.parse(JSON.stringify(c)))).toEqual([]);
    expect(JSON.stringify((await run()).judgements)).toBe(JSON.stringify(c.judgements));
    const bare = await runCase(w.caseDir);
    expect(bare.judgements.map((j) => j.standing)).toEqual(['unchecked', 'unchecked', 'does-not-count']);
    expect(caseSchemaValidator()(bare)).toBe(true);
  });
});

/**
 * Reviewer notes (app/journal/notes.ts): append-only; an edit is a new entry naming the
 * note it supersedes, the old text stays listed and provable; an edit of an edited note,
 * of a judgement or of another artifact's note is refused; nothing is signed on a journal
 * that does not verify; only a reviewer signs. The CLI (journal note / notes) when built.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInclusionProof, inclusionProof, recordJudgement } from '../../app/journal/index.js';
import { appendJudgementBody, listNotes, recordNote } from '../../app/journal/notes.js';
import { runBytes } from '../../app/engine/run.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { runJudgementOp } from '../../main/host/judgement-ops.js';
import type { JudgementList, NoteReceipt } from '../../shared/api.js';
import { makeKeys, tmp, type Keys } from './helpers.js';

const A = `sha256:${'a'.repeat(64)}`;
const B = `sha256:${'b'.repeat(64)}`;
const FIRST = 'The dump and the manifest name the same claim reference 2026-11-0104.';
const EDITED = 'The dump and the manifest name the same claim reference 2026-11-0104; checked twice.';
const opts = { fsync: false };

async function journalWithNote(): Promise<{ dir: string; keys: Keys; first: string }> {
  const base = tmp('reprise-notes-');
  const keys = makeKeys(base);
  const dir = join(base, 'journal');
  const r = await recordNote(dir, { artifact: A, text: FIRST }, keys.reviewer, keys.trust, opts);
  expect(r.proofVerified).toBe(true);
  return { dir, keys, first: r.entryHash };
}

describe('reviewer notes', () => {
  it('an edit is a new entry that supersedes; the old text stays listed and provable', async () => {
    const { dir, keys, first } = await journalWithNote();
    const e = await recordNote(dir, { artifact: A, text: EDITED, supersedes: first }, keys.reviewer, keys.trust, opts);
    expect(e.seq).toBe(1);
    expect(e.entry.body['supersedes']).toBe(first);
    const { notes } = await listNotes(dir, A, keys.trust);
    expect(notes.map((n) => [n.rationale, n.supersedes, n.supersededBy])).toEqual([
      [FIRST, null, e.entryHash],
      [EDITED, first, null],
    ]);
    expect(notes.every((n) => n.proofVerified && n.problem === null)).toBe(true);
    // The old note's own proof, taken after the edit, still checks.
    const proof = await inclusionProof(dir, 0);
    expect(checkInclusionProof(proof, keys.trust).findings.filter((f) => f.severity === 'fail')).toEqual([]);
    expect(JSON.parse(proof.entry).body.rationale).toBe(FIRST);
  });

  it('an edit by a key that may not sign notes replaces nothing, and a note that does not count cannot be edited', async () => {
    const { dir, keys, first } = await journalWithNote();
    // A quarantine officer's "edit", written without a trust store (the writer cannot refuse it then).
    const body = {
      type: 'reprise.judgement/v1',
      decision: 'note',
      rationale: 'OFFICER OVERRIDE: the artifact is fine',
      pointer: '',
      supersedes: first,
    };
    const subject = { claimRef: A, artifact: A };
    const planted = await appendJudgementBody(dir, { subject, body, what: 'note' }, keys.officer, null, opts);
    const { notes } = await listNotes(dir, A, keys.trust);
    expect(notes.map((n) => [n.entryHash, n.supersededBy, n.problem === null])).toEqual([
      [first, null, true],
      [planted.entryHash, null, false],
    ]);
    await expect(
      recordNote(dir, { artifact: A, text: EDITED, supersedes: planted.entryHash }, keys.reviewer, keys.trust, opts),
    ).rejects.toThrow(
      /note refused: the note .* does not count, so it cannot be edited \(a judgement must be signed by a reviewer key/,
    );
    // The reviewer's own note is still the one to edit.
    const e = await recordNote(dir, { artifact: A, text: EDITED, supersedes: first }, keys.reviewer, keys.trust, opts);
    expect((await listNotes(dir, A, keys.trust)).notes.find((n) => n.entryHash === first)?.supersededBy).toBe(
      e.entryHash,
    );
  });

  it('refuses an edit of an edited note, of a judgement, of another artifact, and of nothing; nothing written', async () => {
    const { dir, keys, first } = await journalWithNote();
    const second = await recordNote(
      dir,
      { artifact: A, text: EDITED, supersedes: first },
      keys.reviewer,
      keys.trust,
      opts,
    );
    const before = readFileSync(join(dir, 'entries.jsonl'), 'utf8');
    const refuse = (supersedes: string, artifact = A) =>
      expect(recordNote(dir, { artifact, text: EDITED, supersedes }, keys.reviewer, keys.trust, opts)).rejects.toThrow(
        /note refused/,
      );
    await refuse(first); // already edited: edit its latest version
    await expect(
      recordNote(dir, { artifact: A, text: EDITED, supersedes: first }, keys.reviewer, keys.trust, opts),
    ).rejects.toThrow(new RegExp(`already edited by ${second.entryHash}`));
    await refuse(second.entryHash, B); // a note on another artifact
    await refuse(`sha256:${'c'.repeat(64)}`); // no such entry
    const report = await runBytes('x.json', Buffer.from('{"x": 1}\n'), 'verify', {});
    const j = await recordJudgement(
      dir,
      { report, pointer: '', decision: 'reject', rationale: 'The content is of no kind the engine knows.' },
      keys.reviewer,
      keys.trust,
      opts,
    );
    await refuse(j.entryHash, report.artifact.sha256!); // a judgement is never edited, only followed
    expect(readFileSync(join(dir, 'entries.jsonl'), 'utf8').startsWith(before)).toBe(true);
    expect(readFileSync(join(dir, 'entries.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(3);
  });

  it('refuses a note by a key that may not judge, and a note that is no real content', async () => {
    const { dir, keys } = await journalWithNote();
    await expect(recordNote(dir, { artifact: A, text: FIRST }, keys.officer, keys.trust, opts)).rejects.toThrow(
      /note refused: a judgement must be signed by a reviewer key/,
    );
    await expect(recordNote(dir, { artifact: A, text: 'ok ok ok' }, keys.reviewer, keys.trust, opts)).rejects.toThrow(
      /note refused: the rationale has/,
    );
  });

  it('signs nothing on a journal that does not verify (an entry edited on disk)', async () => {
    const { dir, keys } = await journalWithNote();
    const file = join(dir, 'entries.jsonl');
    const edited = readFileSync(file, 'utf8').replace('2026-11-0104', '2026-11-0105');
    writeFileSync(file, edited);
    await expect(recordNote(dir, { artifact: A, text: EDITED }, keys.reviewer, keys.trust, opts)).rejects.toThrow(
      /does not verify|RPR-JOURNAL/,
    );
    expect(readFileSync(file, 'utf8')).toBe(edited);
  });

  it("the workbench's operation: a note and its edit, listed with what each supersedes", async () => {
    const base = tmp('reprise-notes-host-');
    const keys = makeKeys(base);
    const dir = join(base, 'journal');
    const req = { dir, trustStore: keys.trustPath, keyFile: keys.reviewerPem, keyId: keys.reviewer.keyId, artifact: A };
    // The window signs only into a journal it opened or was asked to create.
    await expect(runJudgementOp({ op: 'judge-note', req: { ...req, text: FIRST, supersedes: null } })).rejects.toThrow(
      /is not a journal/,
    );
    expect(existsSync(dir)).toBe(false);
    await runJudgementOp({ op: 'judge-open', req: { dir, trustStore: keys.trustPath, create: true } });
    // Text that is no text, or more than a note holds, is the user's to fix: a usage error, nothing written.
    for (const text of [`${FIRST}\ud800`, 'x'.repeat(64 * 1024 + 1)])
      await expect(runJudgementOp({ op: 'judge-note', req: { ...req, text, supersedes: null } })).rejects.toMatchObject(
        {
          code: 'USAGE',
          message: expect.stringMatching(/note refused: (its text|the rationale is) .*nothing was written/),
        },
      );
    expect(readFileSync(join(dir, 'entries.jsonl'), 'utf8')).toBe('');
    const first = (await runJudgementOp({
      op: 'judge-note',
      req: { ...req, text: FIRST, supersedes: null },
    })) as NoteReceipt;
    expect(first).toMatchObject({ seq: 0, supersedes: null, role: 'reviewer', proofVerified: true });
    const edit = (await runJudgementOp({
      op: 'judge-note',
      req: { ...req, text: EDITED, supersedes: first.entryHash },
    })) as NoteReceipt;
    expect(edit.supersedes).toBe(first.entryHash);
    const list = (await runJudgementOp({
      op: 'judge-list',
      req: { dir, trustStore: keys.trustPath, artifact: A },
    })) as JudgementList;
    expect(list.judgements.map((j) => [j.decision, j.rationale, j.supersedes, j.proofVerified])).toEqual([
      ['note', FIRST, null, true],
      ['note', EDITED, first.entryHash, true],
    ]);
    await expect(
      runJudgementOp({
        op: 'judge-note',
        req: { ...req, keyFile: keys.officerPem, keyId: keys.officer.keyId, text: FIRST, supersedes: null },
      }),
    ).rejects.toThrow(/note refused/);
    // The key file holds another key than the confirmation showed (copied over since): refused, nothing written.
    const before = readFileSync(join(dir, 'entries.jsonl'));
    await expect(
      runJudgementOp({ op: 'judge-note', req: { ...req, keyFile: keys.officerPem, text: FIRST, supersedes: null } }),
    ).rejects.toThrow(/the key file changed since it was shown: .* nothing was signed/);
    expect(readFileSync(join(dir, 'entries.jsonl'))).toEqual(before);
  });

  it.skipIf(!cliBuilt())('the CLI: journal note, an edit with --supersedes, journal notes lists both', async () => {
    const base = tmp('reprise-notes-cli-');
    const keys = makeKeys(base);
    const dir = join(base, 'journal');
    const body = join(base, 'note.txt');
    writeFileSync(body, FIRST);
    const common = ['--artifact', A, '--body-file', body, '--key', keys.reviewerPem, '--trust-store', keys.trustPath];
    const first = await runCli(['journal', 'note', dir, ...common, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const h = (JSON.parse(first.stdout) as { entryHash: string }).entryHash;
    writeFileSync(body, EDITED);
    const second = await runCli(['journal', 'note', dir, ...common, '--supersedes', h]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`supersedes ${h}`);
    const again = await runCli(['journal', 'note', dir, ...common, '--supersedes', h]);
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(/already edited/);
    const list = await runCli(['journal', 'notes', dir, '--artifact', A, '--trust-store', keys.trustPath, '--json']);
    const notes = (JSON.parse(list.stdout) as { notes: { text: string; supersededBy: string | null }[] }).notes;
    expect(notes.map((n) => n.text)).toEqual([FIRST, EDITED]);
    expect(notes[0]!.supersededBy).not.toBeNull();
    const bad = await runCli(['journal', 'note', dir, '--artifact', 'nope', '--body-file', body]);
    expect(bad.code).toBe(3);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    // An edit that only inserts a zero-width space, or carries tag characters, shows them.
    writeFileSync(body, `${EDITED.replace('twice', 'tw\u200bice')}\u{E0049}`);
    const hidden = await runCli([
      'journal',
      'note',
      dir,
      ...common.slice(0, 2),
      '--body-file',
      body,
      ...common.slice(4),
    ]);
    expect(hidden.code, hidden.stderr).toBe(0);
    const shown = await runCli(['journal', 'notes', dir, '--artifact', A, '--trust-store', keys.trustPath]);
    expect(shown.stdout).toContain('tw\\u200bice');
    expect(shown.stdout).toContain('\\u{e0049}');
    expect(shown.stdout).not.toMatch(/[\u200b\u{E0049}]/u);
  });
});

/**
 * Notes that do not count, and notes of a journal that fails, through the UI (web target):
 * a "note" recorded by hand with a quarantine officer's key (`journal record --kind
 * review-rationale` without --trust-store) claiming to edit the reviewer's note is listed with
 * its problem and never as the latest version, the reviewer's staying latest, as `reprise
 * journal notes` says; the notes of a journal worked in whose signed notes were tampered with
 * (`journal verify` FAILS) are listed as not proven, saying why, never "inclusion proven"; so
 * are those of one whose entry line was tampered with (no inclusion proof can be built), each
 * saying so in the engine's words, never hidden behind an error; one the engine cannot list at
 * all (its entries gone) shows the engine's error, never "No note yet". A note's invisible
 * characters show as escapes. The journal worked in lies in the case folder, so it is also a
 * journal of the case: its notes are listed once. Axe on every state, light and dark.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { axeBothThemes, expect, ROOT, test, type Served } from './fixtures.js';

test.describe.configure({ timeout: 240_000 });

const REVIEWER = 'The dump names the claim 2026-11-0104 that the manifest of this case holds too.';
const SECOND = 'A second note on the dump: its frozen run matches the one the manifest pins.';
const OVERRIDE = 'OFFICER OVERRIDE: this replaces the reviewer note on the dump, signed by the officer.';

function reprise(args: string[]): string {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), ...args], { encoding: 'utf8' });
  expect(r.status, `reprise ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

interface Setup {
  base: string;
  dir: string;
  journal: string;
  store: string;
  artifact: string;
}

/**
 * A case folder holding the intact dump and the journal worked in (opened in the header with a
 * trust store naming the reviewer and a quarantine officer), the case opened and the dump's notes shown.
 */
async function setup(page: Page, served: Served, prefix: string): Promise<Setup> {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const dir = join(base, 'case');
  mkdirSync(dir);
  copyFileSync(join(served.examples, 'dumps', 'intact.dump.json'), join(dir, 'dump.json'));
  const artifact = `sha256:${createHash('sha256')
    .update(readFileSync(join(dir, 'dump.json')))
    .digest('hex')}`;
  const store = join(base, 'trust-store.json');
  copyFileSync(served.reviewerTrustStore, store);
  const officer = join(base, 'officer.pem');
  reprise([
    'keys',
    'generate',
    '--out',
    officer,
    '--role',
    'quarantine-officer',
    '--label',
    'officer',
    '--trust-store',
    store,
  ]);
  const journal = join(dir, 'journal');
  await page.getByTestId('work-journal-toggle').click();
  await page.locator('#wj-dir').fill(journal);
  await page.locator('#wj-trust').fill(store);
  await page.getByTestId('wj-create').check();
  await page.getByTestId('wj-open').click();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 0 entries', { timeout: 30_000 });
  await page.getByTestId('wj-key').selectOption(served.reviewerKey);
  await page.getByRole('button', { name: 'Done' }).click();
  await openNotes(page, dir);
  return { base, dir, journal, store, artifact };
}

/** The case (re)opened, and the dump's notes shown anew (read again from the journal worked in). */
async function openNotes(page: Page, dir: string): Promise<void> {
  await page.getByTestId('tab-case').click();
  await page.locator('#case-path').fill(dir);
  await page.getByTestId('case-open').click();
  await expect(page.getByTestId('case-verdict')).toBeVisible({ timeout: 60_000 });
  const button = page.getByRole('button', { name: 'Notes on dump.json' });
  if ((await button.getAttribute('aria-pressed')) === 'true') await button.click();
  await expect(page.getByTestId('case-notes')).toHaveCount(0);
  await button.click();
}

async function signNote(page: Page, text: string, count: number): Promise<void> {
  await page.getByTestId('note-add').click();
  await page.getByTestId('note-text-input').fill(text);
  await page.getByTestId('note-review').click();
  await page.getByTestId('note-confirm-sign').click();
  await expect(page.getByTestId('note-receipt')).toContainText('proof verified', { timeout: 30_000 });
  await expect(page.getByTestId('case-notes')).toContainText(`Notes on this artifact (${count})`, { timeout: 30_000 });
}

test("an officer's note claiming to edit the reviewer's does not count: the reviewer's stays latest", async ({
  workbench: page,
  served,
}) => {
  const s = await setup(page, served, 'reprise-e2e-notes-officer-');
  await signNote(page, REVIEWER, 1);
  const listed = JSON.parse(
    reprise(['journal', 'notes', s.journal, '--artifact', s.artifact, '--trust-store', s.store, '--json']),
  ) as {
    notes: { entryHash: string }[];
  };
  const reviewerNote = listed.notes[0]!.entryHash;
  // The officer's "edit", recorded by hand without a trust store: the writer checks its body and its edit, not its signer.
  const body = join(s.base, 'override.json');
  writeFileSync(
    body,
    JSON.stringify({
      type: 'reprise.judgement/v1',
      decision: 'note',
      rationale: OVERRIDE,
      pointer: '',
      supersedes: reviewerNote,
    }),
  );
  reprise([
    'journal',
    'record',
    s.journal,
    '--kind',
    'review-rationale',
    '--claim',
    s.artifact,
    '--artifact',
    s.artifact,
    '--body-file',
    body,
    '--key',
    join(s.base, 'officer.pem'),
  ]);
  // `journal notes` with the store: the officer's does not count, the reviewer's note is not superseded.
  const cli = reprise(['journal', 'notes', s.journal, '--artifact', s.artifact, '--trust-store', s.store]);
  expect(cli).toContain('does not count');
  expect(cli).toMatch(/#0 .* \(latest\)/);

  await openNotes(page, s.dir);
  const notes = page.getByTestId('case-notes');
  // Both listed, once each: the journal worked in is also a journal of the case.
  await expect(notes).toContainText('Notes on this artifact (2)', { timeout: 30_000 });
  const mine = notes.locator('li.note').filter({ hasText: REVIEWER });
  const override = notes.locator('li.note').filter({ hasText: 'OFFICER OVERRIDE' });
  await expect(mine.getByTestId('note-state')).toContainText('Latest version');
  await expect(mine.getByTestId('note-state')).not.toContainText('Superseded');
  await expect(mine.getByTestId('note-proof')).toContainText('inclusion proven');
  await expect(override.getByTestId('note-problem')).toContainText('Does not count');
  await expect(override.getByTestId('note-problem')).toContainText('quarantine-officer');
  await expect(override.getByTestId('note-state')).not.toContainText('Latest version');
  await expect(override.getByTestId('note-edit-refused')).toContainText('which it does not replace');
  await expect(override).not.toContainText('edits an earlier version');
  await expect(notes).not.toContainText('role and label not read');
  await expect(page.getByTestId('note-edit-0')).toHaveCount(1);
  await expect(page.getByTestId('note-edit-1')).toHaveCount(0);
  await axeBothThemes(page, "an officer's note that does not count beside the reviewer's latest");
});

test("a tampered journal's notes are not proven, saying why; one whose tree no longer matches lists them without proofs", async ({
  workbench: page,
  served,
}) => {
  const s = await setup(page, served, 'reprise-e2e-notes-tampered-');
  await signNote(page, REVIEWER, 1);
  // A zero-width space the text carries shows as its escape.
  await signNote(page, `${SECOND.slice(0, 8)}\u200b${SECOND.slice(8)}`, 2);
  const notes = page.getByTestId('case-notes');
  await expect(notes.locator('li.note').filter({ hasText: 'A second\\u200b note' })).toHaveCount(1);
  await expect(page.getByTestId('note-proof').filter({ hasText: 'inclusion proven' })).toHaveCount(2);

  // One character of the first checkpoint's signed note flipped: `journal verify` FAILS.
  const path = join(s.journal, 'notes.jsonl');
  const lines = readFileSync(path, 'utf8').split('\n');
  const sig = /([A-Za-z0-9+/]{40,}=*)\\n"$/.exec(lines[0]!)![1]!;
  const i = sig.length - 10;
  lines[0] = lines[0]!.replace(sig, `${sig.slice(0, i)}${sig[i] === 'A' ? 'B' : 'A'}${sig.slice(i + 1)}`);
  writeFileSync(path, lines.join('\n'));
  const verify = spawnSync(
    process.execPath,
    [join(ROOT, 'bin', 'reprise.js'), 'journal', 'verify', s.journal, '--trust-store', s.store],
    {
      encoding: 'utf8',
    },
  );
  expect(verify.status).toBe(1);

  await openNotes(page, s.dir);
  await expect(notes).toContainText('Notes on this artifact (2)', { timeout: 30_000 });
  await expect(page.getByTestId('note-unproven')).toHaveCount(2);
  for (const u of await page.getByTestId('note-unproven').all()) {
    await expect(u).toContainText('Not proven: the journal worked in FAILS verification');
    await expect(u).toContainText('RPR-JOURNAL-');
  }
  await expect(page.getByTestId('note-proof').filter({ hasText: 'inclusion proven' })).toHaveCount(0);
  await expect(page.getByTestId('note-edit-1')).toHaveCount(0);
  await axeBothThemes(page, "a failing journal's notes, not proven");

  // An entry's signature flipped too: its tree no longer matches, no inclusion proof can be
  // built. The notes are still listed, each not proven, in the engine's words.
  const entries = join(s.journal, 'entries.jsonl');
  const e = readFileSync(entries, 'utf8').split('\n');
  const esig = (JSON.parse(e[0]!) as { sig: string }).sig;
  e[0] = e[0]!.replace(esig, `${esig.slice(0, 5)}${esig[5] === 'A' ? 'B' : 'A'}${esig.slice(6)}`);
  writeFileSync(entries, e.join('\n'));
  await openNotes(page, s.dir);
  await expect(notes).toContainText('Notes on this artifact (2)', { timeout: 30_000 });
  await expect(page.getByTestId('notes-list-error')).toHaveCount(0);
  await expect(page.getByTestId('note-unproven')).toHaveCount(2);
  for (const u of await page.getByTestId('note-unproven').all()) {
    await expect(u).toContainText('Not proven: the journal worked in FAILS verification');
    await expect(u).toContainText('no inclusion proof could be built');
    await expect(u).toContainText('does not match the journal');
  }
  await expect(page.getByTestId('note-proof').filter({ hasText: 'inclusion proven' })).toHaveCount(0);
  await expect(page.getByTestId('note-edit-1')).toHaveCount(0);
  await axeBothThemes(page, "a journal's notes whose tree no longer matches, not proven");

  // Its entries gone: the folder is no journal, the engine cannot list it, and its words are shown (never "No note yet").
  renameSync(entries, `${entries}.gone`);
  await openNotes(page, s.dir);
  await expect(page.getByTestId('notes-list-error')).toContainText('could not be listed', { timeout: 30_000 });
  await expect(page.getByTestId('notes-list-error')).toContainText('is not a journal');
  await expect(notes).not.toContainText('No note yet');
  await axeBothThemes(page, 'the journal worked in cannot be listed');
});

/**
 * Reviewer notes on an artifact of a case (web target, through the UI only): a note signed
 * after a confirmation of exactly what is signed, then an edit, which supersedes it: the old
 * text stays listed, marked superseded, each version with its verified proof, and both are
 * listed again when the case is opened anew (read back from the journal worked in). A journal
 * tampered with after the window verified it signs nothing (the engine's refusal is shown,
 * entries.jsonl unchanged), and once verified again the window disables signing, saying why.
 * Axe on every state, light and dark.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { axe, axeBothThemes, expect, openWorkJournal, ROOT, test, type Served } from './fixtures.js';
import { forgeEntry } from './forge.js';

test.describe.configure({ timeout: 240_000 });

const FIRST = 'The dump names the claim 2026-11-0104 that the manifest of this case holds too.';
const EDITED = 'The dump names the claim 2026-11-0104 that the manifest holds; its signer was checked as well.';

/**
 * A case folder holding the intact dump, a work journal opened in the header, the case
 * opened and the dump's notes shown: what every test here starts from.
 */
async function dumpNotes(page: Page, served: Served, prefix: string): Promise<{ dir: string; journal: string }> {
  const dir = join(mkdtempSync(join(tmpdir(), prefix)), 'case');
  mkdirSync(dir);
  copyFileSync(join(served.examples, 'dumps', 'intact.dump.json'), join(dir, 'dump.json'));
  const journal = await openWorkJournal(page, served, `${prefix}j-`);
  await page.getByTestId('tab-case').click();
  await page.locator('#case-path').fill(dir);
  await page.getByTestId('case-open').click();
  await expect(page.getByTestId('case-verdict')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Notes on dump.json' }).click();
  return { dir, journal };
}

test('a note on a case artifact, its edit superseding it, and nothing signed onto a journal that fails', async ({
  workbench: page,
  served,
}) => {
  const { journal } = await dumpNotes(page, served, 'reprise-e2e-notes-');
  const notes = page.getByTestId('case-notes');
  await expect(notes).toContainText('Notes on this artifact (0)');

  // A new note: the rule first, the confirmation shows what is signed, then the receipt.
  await page.getByTestId('note-add').click();
  await page.getByTestId('note-text-input').fill('too short');
  await page.getByTestId('note-review').click();
  await expect(page.getByTestId('note-text-err')).toContainText('at least 20');
  await page.getByTestId('note-text-input').fill(FIRST);
  await page.getByTestId('note-review').click();
  const fields = page.getByTestId('note-confirm-fields');
  await expect(fields).toContainText(FIRST);
  await expect(fields).toContainText('nothing (a new note)');
  await expect(fields).toContainText(served.reviewerKeyId);
  await axe(page, 'note confirmation'); // a modal dialog: the theme button behind it cannot be pressed
  await page.getByTestId('note-confirm-sign').click();
  await expect(page.getByTestId('note-receipt')).toContainText('proof verified', { timeout: 30_000 });
  await expect(notes).toContainText('Notes on this artifact (1)');
  await expect(page.getByTestId('note-proof')).toContainText('inclusion proven');

  // The edit supersedes: both versions listed, the old one marked, each proven.
  await page.getByTestId('note-edit-0').click();
  await page.getByTestId('note-text-input').fill(EDITED);
  await page.getByTestId('note-review').click();
  await expect(page.getByTestId('note-confirm-fields')).toContainText('sha256:');
  await page.getByTestId('note-confirm-sign').click();
  await expect(notes).toContainText('Notes on this artifact (2)', { timeout: 30_000 });
  await expect(page.getByTestId('note-0').getByTestId('note-text')).toHaveText(FIRST);
  await expect(page.getByTestId('note-0').getByTestId('note-state')).toContainText('Superseded');
  await expect(page.getByTestId('note-1').getByTestId('note-text')).toHaveText(EDITED);
  await expect(page.getByTestId('note-1').getByTestId('note-state')).toContainText('Latest version');
  await expect(page.getByTestId('note-edit-0')).toHaveCount(0);
  await expect(page.getByTestId('note-proof').filter({ hasText: 'inclusion proven' })).toHaveCount(2);
  await axeBothThemes(page, 'a note and its edit');

  // The case opened again, its notes closed and shown anew (a later session): both versions are
  // read back from the journal worked in, which lies outside the case folder, with their proofs.
  await page.getByTestId('case-open').click();
  await expect(page.getByTestId('case-verdict')).toBeVisible({ timeout: 60_000 });
  const notesButton = page.getByRole('button', { name: 'Notes on dump.json' });
  if ((await notesButton.getAttribute('aria-pressed')) === 'true') await notesButton.click();
  await expect(notes).toHaveCount(0);
  await notesButton.click();
  await expect(notes).toContainText('Notes on this artifact (2)', { timeout: 30_000 });
  await expect(page.getByTestId('note-0').getByTestId('note-state')).toContainText('Superseded');
  await expect(page.getByTestId('note-1').getByTestId('note-text')).toHaveText(EDITED);
  await expect(page.getByTestId('note-1').getByTestId('note-state')).toContainText('Latest version');
  await expect(page.getByTestId('note-edit-0')).toHaveCount(0);
  await expect(page.getByTestId('note-edit-1')).toHaveCount(1);
  await expect(page.getByTestId('note-proof').filter({ hasText: 'inclusion proven' })).toHaveCount(2);

  // The journal is changed on disk behind the window's back: the engine refuses, nothing is written.
  const entries = join(journal, 'entries.jsonl');
  const tampered = readFileSync(entries, 'utf8').replace('2026-11-0104', '2026-11-0105');
  writeFileSync(entries, tampered);
  await page.getByTestId('note-edit-1').click();
  await page.getByTestId('note-text-input').fill(`${EDITED} Once more.`);
  await page.getByTestId('note-review').click();
  await page.getByTestId('note-confirm-sign').click();
  await expect(page.getByTestId('note-error')).toContainText('The note was not signed', { timeout: 30_000 });
  expect(readFileSync(entries, 'utf8')).toBe(tampered);
  await axeBothThemes(page, 'note refused by the engine');

  // Verified again, the journal FAILS: signing is off, and the window says why beside the button.
  await page.getByTestId('work-journal-toggle').click();
  await page.locator('#wj-dir').fill(journal);
  await page.locator('#wj-trust').fill(served.reviewerTrustStore);
  await page.getByTestId('wj-open').click();
  await expect(page.getByTestId('work-journal-status')).toContainText('FAILS verification', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('note-blocked')).toContainText('nothing can be signed onto a journal that fails');
  await expect(page.getByTestId('note-review')).toBeDisabled();
  await axeBothThemes(page, 'notes blocked: journal fails verification');
});

test('a note is signed with the key its confirmation showed: the key file read again as it opens, and held to at signing', async ({
  workbench: page,
  served,
}) => {
  const { dir, journal } = await dumpNotes(page, served, 'reprise-e2e-notes-key-');
  const original = readFileSync(served.reviewerKey);
  const stranger = join(dirname(dir), 'stranger.key.pem');
  const made = spawnSync(
    process.execPath,
    [join(ROOT, 'bin', 'reprise.js'), 'keys', 'generate', '--out', stranger, '--role', 'reviewer', '--json'],
    { encoding: 'utf8' },
  );
  expect(made.status, made.stderr).toBe(0);
  const strangerId = (JSON.parse(made.stdout) as { keyId: string }).keyId;
  try {
    await page.getByTestId('note-add').click();
    await page.getByTestId('note-text-input').fill(FIRST);
    // Another key copied over the chosen key file after the journal was opened: the confirmation shows it.
    writeFileSync(served.reviewerKey, readFileSync(stranger));
    await page.getByTestId('note-review').click();
    const fields = page.getByTestId('note-confirm-fields');
    await expect(fields).toContainText(strangerId);
    await expect(fields).not.toContainText(served.reviewerKeyId);
    await expect(fields).toContainText('not in the trust store');
    await axe(page, 'note confirmation showing the key its file holds now');
    // The file changes again after it was shown: the engine refuses, nothing is written.
    writeFileSync(served.reviewerKey, original);
    const entries = join(journal, 'entries.jsonl');
    const before = existsSync(entries) ? readFileSync(entries) : null;
    await page.getByTestId('note-confirm-sign').click();
    const error = page.getByTestId('note-error');
    await expect(error).toContainText('the key file changed since it was shown', { timeout: 30_000 });
    await expect(error).toContainText(`the confirmation showed ${strangerId}`);
    expect(existsSync(entries) ? readFileSync(entries) : null).toEqual(before);
    await axeBothThemes(page, 'note refused: the key file changed after it was shown');
  } finally {
    writeFileSync(served.reviewerKey, original);
  }
});

test('a note of another journal, one that cannot be verified, claiming to edit a proven note does not retire it', async ({
  workbench: page,
  served,
}) => {
  const { dir, journal } = await dumpNotes(page, served, 'reprise-e2e-notes-rogue-');
  await page.getByTestId('note-add').click();
  await page.getByTestId('note-text-input').fill(FIRST);
  await page.getByTestId('note-review').click();
  await page.getByTestId('note-confirm-sign').click();
  await expect(page.getByTestId('note-receipt')).toContainText('proof verified', { timeout: 30_000 });

  // A journal in the case, signed by a key no trust store names, whose note "edits" the proven one.
  // Its entry is written around the writer (as another tool could write it): the writer refuses a
  // note edit naming no entry of its own journal (RPR-JOURNAL-045), so the rogue note must be forged.
  const dist = (p: string) => pathToFileURL(join(ROOT, 'dist', p)).href;
  const { entryHash } = (await import(dist('app/journal/index.js'))) as typeof import('../app/journal/index.js');
  const { generateSigner } = (await import(dist('app/core/keys.js'))) as typeof import('../app/core/keys.js');
  const lines = readFileSync(join(journal, 'entries.jsonl'), 'utf8').trimEnd().split('\n');
  const proven = entryHash(JSON.parse(lines.at(-1)!) as Parameters<typeof entryHash>[0]);
  const dump = `sha256:${createHash('sha256')
    .update(readFileSync(join(dir, 'dump.json')))
    .digest('hex')}`;
  const ROGUE = 'This replaces the reviewer’s finding: the dump was never checked.';
  await forgeEntry(
    join(dir, 'rogue'),
    {
      kind: 'review-rationale',
      subject: { claimRef: 'claim:rogue', artifact: dump },
      body: { type: 'reprise.judgement/v1', decision: 'note', rationale: ROGUE, supersedes: proven },
    },
    generateSigner(),
  );

  await page.getByTestId('case-open').click();
  await expect(page.getByTestId('case-verdict')).toContainText('2 artifacts', { timeout: 60_000 });
  const notes = page.getByTestId('case-notes');
  const notesButton = page.getByRole('button', { name: 'Notes on dump.json' });
  if ((await notesButton.getAttribute('aria-pressed')) !== 'true') await notesButton.click();
  await expect(notes).toContainText('Notes on this artifact (2)', { timeout: 30_000 });
  const mine = notes.locator('li.note').filter({ hasText: FIRST });
  const rogue = notes.locator('li.note').filter({ hasText: ROGUE });
  await expect(mine.getByTestId('note-state')).toContainText('Latest version');
  await expect(mine.getByTestId('note-state')).not.toContainText('Superseded');
  await expect(rogue.getByTestId('note-unproven')).toContainText('its journal rogue');
  await expect(rogue.getByTestId('note-edit-refused')).toContainText('which it does not replace');
  await expect(rogue).not.toContainText('edits an earlier version');
  await axeBothThemes(page, 'a proven note and an unproven note claiming to edit it');
});

test('an edit refused because the note was edited elsewhere reads the notes again: the stale Edit is gone', async ({
  workbench: page,
  served,
}) => {
  const { dir, journal } = await dumpNotes(page, served, 'reprise-e2e-notes-stale-');
  const notes = page.getByTestId('case-notes');
  await page.getByTestId('note-add').click();
  await page.getByTestId('note-text-input').fill(FIRST);
  await page.getByTestId('note-review').click();
  await page.getByTestId('note-confirm-sign').click();
  await expect(notes).toContainText('Notes on this artifact (1)', { timeout: 30_000 });
  // Another tab (here the CLI) edits the note after this one listed it.
  const artifact = `sha256:${createHash('sha256')
    .update(readFileSync(join(dir, 'dump.json')))
    .digest('hex')}`;
  const cliOf = (args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), ...args]);
  const listed = cliOf([
    'journal',
    'notes',
    journal,
    '--artifact',
    artifact,
    '--trust-store',
    served.reviewerTrustStore,
    '--json',
  ]);
  const firstHash = (JSON.parse(String(listed.stdout)) as { notes: { entryHash: string }[] }).notes[0]!.entryHash;
  const body = join(dirname(journal), 'elsewhere.txt');
  writeFileSync(body, EDITED);
  const cli = cliOf([
    ...['journal', 'note', journal, '--artifact', artifact, '--body-file', body],
    ...['--key', served.reviewerKey, '--trust-store', served.reviewerTrustStore, '--supersedes', firstHash],
  ]);
  expect(cli.status, String(cli.stderr)).toBe(0);
  // This tab still offers to edit the first version: the engine refuses, and the list is read again.
  await page.getByTestId('note-edit-0').click();
  await page.getByTestId('note-text-input').fill(`${EDITED} From the stale tab.`);
  await page.getByTestId('note-review').click();
  await page.getByTestId('note-confirm-sign').click();
  await expect(page.getByTestId('note-error')).toContainText('already edited', { timeout: 30_000 });
  await expect(notes).toContainText('Notes on this artifact (2)', { timeout: 30_000 });
  await expect(page.getByTestId('note-0').getByTestId('note-state')).toContainText('Superseded');
  await expect(page.getByTestId('note-1').getByTestId('note-text')).toHaveText(EDITED);
  await expect(page.getByTestId('note-edit-0')).toHaveCount(0);
  await axeBothThemes(page, 'an edit refused as stale, the notes read again');
});

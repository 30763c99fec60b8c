/**
 * A case sent from the window (web target): a folder or a drop that holds no file is said
 * so; sending is part of the case in progress (its own progress and Cancel, no second open
 * meanwhile), and an earlier send never replaces a case opened after it (a link followed
 * while files are sent cancels them); a reload of a sent case's link says its files must be
 * sent again. axe on every state, light and dark.
 */
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { axeBothThemes, expect, test, type Served } from './fixtures.js';

test.describe.configure({ timeout: 240_000 });

const hash = (page: Page) => new URLSearchParams(new URL(page.url()).hash.slice(1));

/** A new folder named `name` under the granted temp folder, filled by `fill`. */
function folder(name: string, fill: (dir: string) => void): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-send-')), name);
  mkdirSync(dir);
  fill(dir);
  return dir;
}

/** `n` small files, none an artifact of a known kind. */
const manyFiles = (n: number, name: string): string =>
  folder(name, (dir) => {
    for (let i = 0; i < n; i++) writeFileSync(join(dir, `n${i}.json`), `{"note": ${i}}\n`);
  });

/** One policy bundle, which passes alone. */
const onePolicy = (served: Served, name: string): string =>
  folder(name, (dir) => cpSync(join(served.examples, 'tg/bundle.json'), join(dir, 'policy.json')));

test('a folder or a drop that holds no file says so, as a folder by path does', async ({ workbench: page }) => {
  const empty = folder('empty', (dir) => mkdirSync(join(dir, 'only-a-subfolder')));
  await page.getByTestId('tab-case').click();
  await page.locator('#case-folder-input').setInputFiles(empty);
  const error = page.getByTestId('case-error');
  await expect(error).toContainText('holds no file: there is nothing in it to check');
  await expect(error).toBeFocused();
  await expect(page.getByTestId('case-verdict')).toHaveCount(0);
  await axeBothThemes(page, 'a sent folder that holds no file');

  // Dropping nothing (an empty drag) is said too, in place of the words before.
  await page.getByTestId('case-choose-files').focus();
  const nothing = await page.evaluateHandle(() => new DataTransfer());
  await page.getByTestId('case-dropzone').dispatchEvent('drop', { dataTransfer: nothing });
  await expect(error).toHaveText('What was dropped holds no file: there is nothing in it to check.');
  await expect(error).toBeFocused();
});

test('sending is part of the case: no second open meanwhile, Cancel stops it, and nothing lands after', async ({
  workbench: page,
}) => {
  const dir = manyFiles(3000, 'many');
  await page.getByTestId('tab-case').click();
  await page.locator('#case-folder-input').setInputFiles(dir);
  const sending = page.getByTestId('case-sending');
  await expect(sending).toContainText(/Sending n\d+\.json to the engine \(\d+ of 3,000\)/);
  await page.locator('#case-path').fill('/somewhere');
  await expect(page.getByTestId('case-open')).toBeDisabled();
  await expect(page.getByTestId('case-choose-folder')).toBeDisabled();
  await expect(page.getByTestId('case-choose-files')).toBeDisabled();
  await expect(page.getByTestId('case-mode-replay')).toBeDisabled();
  await axeBothThemes(page, 'a case being sent');
  // A drop meanwhile is not taken, and says so.
  const drop = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['{"n": 1}'], 'late.json', { type: 'application/json' }));
    return dt;
  });
  await page.getByTestId('case-dropzone').dispatchEvent('drop', { dataTransfer: drop });
  await expect(page.getByTestId('case-note')).toContainText('a case is in progress here. Cancel it first');

  await sending.getByTestId('case-send-cancel').click();
  const note = page.getByTestId('case-note');
  await expect(note).toContainText(/^Cancelled: [\d,]+ of 3,000 files were sent, and nothing was checked\.$/);
  await expect(note).toBeFocused();
  await expect(sending).toHaveCount(0);
  await expect(page.getByTestId('case-open')).toBeEnabled();
  await axeBothThemes(page, 'a case cancelled while its files were sent');
  // Nothing of the cancelled send starts a case later.
  await page.waitForTimeout(3000);
  await expect(page.getByTestId('case-progress')).toHaveCount(0);
  await expect(page.getByTestId('case-verdict')).toHaveCount(0);
});

test('a case opened by a link while files are sent replaces the send, which never lands over it', async ({
  workbench: page,
  served,
}) => {
  const dir = manyFiles(60, 'sixty');
  const one = onePolicy(served, 'case-one');
  await page.getByTestId('tab-case').click();
  await page.locator('#case-folder-input').setInputFiles(dir);
  await expect(page.getByText(/^Sending n\d+\.json to the engine/)).toBeVisible();
  await page.evaluate((h) => (location.hash = h), `token=${served.token}&view=case&case=${encodeURIComponent(one)}`);
  const verdict = page.getByTestId('case-verdict');
  await expect(verdict).toHaveText('Case: PASS · 1 artifact · 0 links · 0 events', { timeout: 60_000 });
  // However long the earlier send would have taken, it ends without a case of its own.
  await expect(page.getByText(/^Sending n\d+\.json to the engine/)).toHaveCount(0, { timeout: 60_000 });
  await page.waitForTimeout(3000);
  await expect(page.getByTestId('case-progress')).toHaveCount(0);
  await expect(verdict).toHaveText('Case: PASS · 1 artifact · 0 links · 0 events');
  await expect(page.locator('#case-h')).toHaveText(`Case: ${one}`);
  expect(hash(page).get('case')).toBe(one);
});

test('a case sent from the window: its link names it, and a reload says its files must be sent again', async ({
  workbench: page,
  served,
}) => {
  const dir = onePolicy(served, 'sent-case');
  await page.getByTestId('tab-case').click();
  await page.locator('#case-folder-input').setInputFiles(dir);
  await expect(page.getByTestId('case-verdict')).toHaveText('Case: PASS · 1 artifact · 0 links · 0 events', {
    timeout: 60_000,
  });
  await expect(page.locator('#case-h')).toHaveText('Case: 1 file sent from this window');
  await expect.poll(() => hash(page).get('sent')).toBe('sent-case');
  expect(hash(page).get('view')).toBe('case');
  await page.reload();
  const note = page.getByTestId('case-note');
  await expect(note).toHaveText(
    "The link was to a case sent from this window (sent-case): a link keeps no file's bytes, so send its files again to reopen it.",
  );
  await expect(note).toBeFocused();
  await expect(page.getByTestId('case-verdict')).toHaveCount(0);
  await axeBothThemes(page, 'a reloaded link to a case sent from the window');
});

test('a file the host refuses by name is left out and said so; the others still make the case', async ({
  workbench: page,
  served,
}) => {
  const dir = folder('named', (d) => {
    cpSync(join(served.examples, 'tg/bundle.json'), join(d, 'policy.json'));
    // Deeper than a sent case may go (64 levels): the host refuses that name.
    const deep = join(d, ...Array.from({ length: 65 }, () => 'd'));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'deep.json'), '{"note": 1}\n');
  });
  await page.getByTestId('tab-case').click();
  await page.locator('#case-folder-input').setInputFiles(dir);
  const verdict = page.getByTestId('case-verdict');
  await expect(verdict).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('case-artifacts').locator('tr[data-artifact="policy.json"]')).toContainText('pass');
  const note = page.getByTestId('case-note');
  await expect(note).toContainText(
    'Not in this case: 1 file(s) sent from the window could not be sent or were refused by name',
  );
  await expect(note).toContainText('levels deep; a sent case goes at most 64 levels deep');
  await expect(page.getByTestId('case-error')).toHaveCount(0);
  await axeBothThemes(page, 'a sent case with a file refused by name');
});

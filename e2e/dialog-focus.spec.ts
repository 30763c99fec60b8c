/**
 * Focus in the confirmations before a signature (web target, through the UI; WAI-ARIA
 * dialog pattern): on opening, focus is on the dialog's heading, so what will be signed is
 * read from its start; Cancel or Escape returns it to the control that opened the dialog;
 * after signing it is on what replaced the form (the receipt). Never left at <body>. The
 * officer's decision, a judgement and a case note; a note names its signer by role and
 * label, as every other list of signers does. Axe on each new state, light and dark.
 */
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { axe, axeBothThemes, expect, openExample, openWorkJournal, test } from './fixtures.js';

test.describe.configure({ timeout: 240_000 });

const RATIONALE = 'Escalating: the score drift needs a second reviewer with the provider registry at hand.';
const NOTE = 'The dump names the claim that the manifest of this case holds too; both were read in full.';

/** The focused element's data-testid or id (or its tag when it has neither), read in the page. */
const focused = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const a = document.activeElement;
    return a?.getAttribute('data-testid') ?? (a?.id || a?.tagName.toLowerCase() || 'none');
  });

/** A dialog just opened: focus on its heading, inside it. */
async function focusOnHeading(page: Page, dialog: string, heading: string): Promise<void> {
  await expect(page.getByTestId(dialog)).toBeVisible();
  await expect(page.locator(`#${heading}`)).toBeFocused();
  await expect.poll(() => focused(page)).toBe(heading);
}

test("an officer's decision: focus on the heading, back on the opening button after Cancel and after Escape", async ({
  workbench: page,
}) => {
  await page.getByTestId('tab-journal').click();
  await page.getByTestId('demo-journal').click();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 2 entries', { timeout: 30_000 });
  await page.getByTestId('case-queue').locator('[data-case="case-0"]').click();
  await page.getByRole('radio', { name: 'escalate' }).check();
  await page.getByTestId('rationale').fill(RATIONALE);
  const open = page.getByTestId('sign-decision');

  await open.click();
  await focusOnHeading(page, 'confirm-decision', 'confirm-decision-h');
  await axe(page, 'a decision confirmation, focus on its heading');
  await page.getByTestId('confirm-decision-cancel').click();
  await expect(page.getByTestId('confirm-decision')).toHaveCount(0);
  await expect(open).toBeFocused();

  await open.click();
  await focusOnHeading(page, 'confirm-decision', 'confirm-decision-h');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('confirm-decision')).toHaveCount(0);
  await expect(open).toBeFocused();
  await axeBothThemes(page, 'a decision confirmation closed');
});

test('a judgement: focus on the heading, back on Review after Escape, on the receipt after signing', async ({
  workbench: page,
  served,
}) => {
  await openWorkJournal(page, served, 'reprise-e2e-df-');
  await openExample(page, 'dumps/intact.dump.json', 60_000);
  await page.getByTestId('judge-report').click();
  await page.getByTestId('decision-accept').check();
  await page.getByTestId('judgement-rationale').fill(RATIONALE.replace('Escalating', 'Accepted'));
  const review = page.getByTestId('judge-review');

  await review.click();
  await focusOnHeading(page, 'confirm-sign', 'confirm-h');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('confirm-sign')).toHaveCount(0);
  await expect(review).toBeFocused();

  await review.click();
  await focusOnHeading(page, 'confirm-sign', 'confirm-h');
  await page.getByTestId('confirm-cancel').click();
  await expect(review).toBeFocused();

  await review.click();
  await page.getByTestId('confirm-sign-button').click();
  await expect(page.getByTestId('judgement-receipt')).toBeFocused({ timeout: 30_000 });
  await axeBothThemes(page, 'a judgement signed, focus on its receipt');
});

test('a case note: focus back on Review after Escape, on the receipt after signing; its signer named by role', async ({
  workbench: page,
  served,
}) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-df-notes-')), 'case');
  mkdirSync(dir);
  copyFileSync(join(served.examples, 'dumps', 'intact.dump.json'), join(dir, 'dump.json'));
  await openWorkJournal(page, served, 'reprise-e2e-df-nj-');
  await page.getByTestId('tab-case').click();
  await page.locator('#case-path').fill(dir);
  await page.getByTestId('case-open').click();
  await expect(page.getByTestId('case-verdict')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Notes on dump.json' }).click();

  // The form's own Cancel: back on the button that adds a note.
  const add = page.getByTestId('note-add');
  await add.click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(add).toBeFocused();

  await add.click();
  await page.getByTestId('note-text-input').fill(NOTE);
  const review = page.getByTestId('note-review');
  await review.click();
  await focusOnHeading(page, 'note-confirm', 'note-confirm-h');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('note-confirm')).toHaveCount(0);
  await expect(review).toBeFocused();

  await review.click();
  await page.getByTestId('note-confirm-sign').click();
  const receipt = page.getByTestId('note-receipt');
  await expect(receipt).toContainText('proof verified', { timeout: 30_000 });
  await expect(receipt).toBeFocused();

  // Who signed: the role (and label) the trust store gives the key, then the key id, as elsewhere.
  const note = page.getByTestId('note-0');
  await expect(note.getByTestId('note-signer-0')).toHaveText(/^reviewer/);
  await expect(note).toContainText(`key ${served.reviewerKeyId}`);
  await axeBothThemes(page, 'a note signed, focus on its receipt');
});

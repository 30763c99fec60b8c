/**
 * Nothing is signed onto a journal that fails verification (web target, through the UI
 * only). The examples' tampered journal, opened with their trust store: the header says
 * FAILS, every sign button (the case decision, "Record judgement") is disabled with the
 * failing rule beside it, referenced by aria-describedby; axe, nothing excluded, light and dark. And a
 * stale window (a journal tampered after it verified) still signs nothing: the engine's
 * refusal is shown and focused, entries.jsonl is byte-identical, and the window verifies
 * again and disables the button.
 */
import { copyFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { axeBothThemes, expect, openExample, test } from './fixtures.js';

test.describe.configure({ timeout: 180_000 });

const RATIONALE = 'Replayed twice under the locked environment; the drift stays within reviewer tolerance.';
const NOTHING_SIGNED = 'nothing can be signed onto a journal that fails verification';

/** The text of the element(s) a control's aria-describedby names (empty when it names none or they are missing). */
async function description(control: Locator): Promise<string> {
  return control.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

/** Opens an existing journal with this trust store through the header's form (left open). */
async function openInHeader(page: Page, dir: string, trustStore: string): Promise<void> {
  await page.getByTestId('work-journal-toggle').click();
  await page.locator('#wj-dir').fill(dir);
  await page.locator('#wj-trust').fill(trustStore);
  await page.getByTestId('wj-open').click();
}

test('the tampered example journal: FAILS in the header, the release and judgement buttons disabled with the failing rule beside them', async ({
  workbench: page,
  served,
}) => {
  const base = mkdtempSync(join(tmpdir(), 'reprise-e2e-unverified-'));
  const dir = join(base, 'journal');
  cpSync(join(served.examples, 'journal', 'tampered'), dir, { recursive: true });
  const trust = join(base, 'trust-store.json');
  copyFileSync(join(served.examples, 'journal', 'trust-store.json'), trust);
  const before = readFileSync(join(dir, 'entries.jsonl'));

  await openInHeader(page, dir, trust);
  await expect(page.getByTestId('work-journal-status')).toHaveText('FAILS verification · 6 entries', {
    timeout: 30_000,
  });
  await page.getByTestId('wj-key').selectOption(served.reviewerKey);
  await page.getByRole('button', { name: 'Done' }).click();

  // The held case, with a decision and a rationale that would be accepted: only the journal stops it.
  await page.getByTestId('tab-journal').click();
  await page.getByTestId('case-queue').locator('[data-case="case-5"]').click();
  await page.getByRole('radio', { name: 'release' }).check();
  await page.getByTestId('rationale').fill(RATIONALE);
  const sign = page.getByTestId('sign-decision');
  await expect(sign).toBeDisabled();
  const why = await description(sign);
  expect(why).toContain('RPR-JOURNAL-007 at line:2');
  expect(why).toContain(NOTHING_SIGNED);
  await expect(page.getByTestId('case-detail').getByTestId('sign-blocked')).toBeVisible();
  await axeBothThemes(page, 'release refused: journal fails verification');

  // Judgements go to the same journal: the buttons that start one are disabled, saying why.
  await openExample(page, 'dumps/fail/altered-artifact.dump.json', 60_000);
  await page.getByTestId('tab-findings').click();
  for (const id of ['judge-report', 'judge-findings-0']) {
    const b = page.getByTestId(id);
    await expect(b).toBeDisabled();
    expect(await description(b)).toContain(NOTHING_SIGNED);
  }
  await expect(page.getByTestId('judgement-panel').getByTestId('sign-blocked')).toContainText('RPR-JOURNAL-007');
  await axeBothThemes(page, 'judgements refused: journal fails verification');
  expect(readFileSync(join(dir, 'entries.jsonl')).equals(before)).toBe(true);
});

test('a journal tampered after the window verified it: the engine refuses the decision, nothing is written, the window verifies again and disables signing', async ({
  workbench: page,
}) => {
  await page.getByTestId('tab-journal').click();
  await page.getByTestId('demo-journal').click();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 2 entries', { timeout: 30_000 });
  const dir = (await page.getByTestId('journal-dir').textContent())!;
  await page.getByTestId('case-queue').locator('[data-case="case-0"]').click();
  await page.getByTestId('rationale').fill(RATIONALE);
  const sign = page.getByTestId('sign-decision');
  await expect(sign).toBeEnabled();

  // Someone edits the newest entry while the window still shows "verified" (same length: only its bytes change).
  const entries = join(dir, 'entries.jsonl');
  const original = readFileSync(entries, 'utf8');
  const tampered = original.replace('second look', 'second hook');
  expect(tampered).not.toBe(original);
  writeFileSync(entries, tampered);
  const checkpoints = readFileSync(join(dir, 'checkpoints.jsonl'));

  await sign.click();
  await page.getByTestId('confirm-decision-sign').click();
  const error = page.getByTestId('journal-error');
  await expect(error).toContainText('does not verify, so nothing can be signed onto it', { timeout: 30_000 });
  await expect(error).toContainText('Nothing was written');
  await expect(error).toBeFocused();
  await expect(page.getByTestId('receipt')).toHaveCount(0);
  expect(readFileSync(entries).equals(Buffer.from(tampered))).toBe(true);
  expect(readFileSync(join(dir, 'checkpoints.jsonl')).equals(checkpoints)).toBe(true);

  // The window no longer shows a stale "verified": it checked again, and signing is off.
  await expect(page.getByTestId('work-journal-status')).toHaveText('FAILS verification · 2 entries', {
    timeout: 30_000,
  });
  await expect(sign).toBeDisabled();
  expect(await description(sign)).toContain(NOTHING_SIGNED);
  await expect(error).toBeVisible();
  await axeBothThemes(page, 'decision refused by the engine');
});

/**
 * Who signed, wherever the journal shows a key (web target, through the UI only): a case's
 * history and a decision's receipt name the signer's role and label from the journal's
 * trust store, with the whole key id and a copy button; receipts copy their entry hash and
 * checkpoint root; focus moves to the receipt after signing (and to the error when the
 * journal refuses); the training journal, created again, lists its officer key once, as
 * its trust store names it. axe, nothing excluded, on each state in light and dark.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { axeBothThemes, expect, openExample, test } from './fixtures.js';

test.describe.configure({ timeout: 180_000 });

const KEY_ID = /^ed25519:[0-9a-f]{64}$/;
const RATIONALE = 'Replayed twice under the locked environment; the drift stays within reviewer tolerance.';

/** Creates a training journal from the Journal view; returns its directory and officer key id (from its trust store). */
async function createTraining(page: Page, previousDir = ''): Promise<{ dir: string; keyId: string }> {
  await page.getByTestId('tab-journal').click();
  await page.getByTestId('demo-journal').click();
  const dirEl = page.getByTestId('journal-dir');
  if (previousDir) await expect(dirEl).not.toHaveText(previousDir, { timeout: 30_000 });
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 2 entries', { timeout: 30_000 });
  const trust = JSON.parse(readFileSync((await page.getByTestId('journal-trust').textContent())!, 'utf8')) as {
    keys: { keyId: string; role: string }[];
  };
  expect(trust.keys.map((k) => k.role)).toEqual(['quarantine-officer']);
  return { dir: (await dirEl.textContent())!, keyId: trust.keys[0]!.keyId };
}

/** Creates an empty journal with this trust store through the header's form (left open). */
async function createInHeader(page: Page, dir: string, trustStore: string): Promise<void> {
  if (!(await page.getByTestId('work-journal').isVisible())) await page.getByTestId('work-journal-toggle').click();
  await page.locator('#wj-dir').fill(dir);
  await page.locator('#wj-trust').fill(trustStore);
  await page.getByTestId('wj-create').check();
  await page.getByTestId('wj-open').click();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 0 entries', { timeout: 30_000 });
}

async function copied(page: Page, button: ReturnType<Page['getByRole']>): Promise<string> {
  await button.click();
  await expect(button).toHaveText('Copied');
  return page.evaluate(() => navigator.clipboard.readText());
}

test('the training journal created twice lists its officer key once, named by its trust store; the case history names each signer', async ({
  workbench: page,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const first = await createTraining(page);
  await axeBothThemes(page, 'journal status and case queue');
  const second = await createTraining(page, first.dir);
  // One officer for the host: the second journal's trust store names the same key.
  expect(second.keyId).toMatch(KEY_ID);
  expect(second.keyId).toBe(first.keyId);

  await page.getByTestId('change-journal').click();
  const options = page.getByTestId('wj-key').locator('option');
  await expect(options.filter({ hasText: 'officer' })).toHaveCount(1);
  await expect(options.filter({ hasText: 'officer' })).toHaveText(/^training officer · quarantine-officer · ed25519:/);
  await expect(options.filter({ hasText: 'officer.key.pem' })).toHaveCount(0);
  await expect(page.getByTestId('wj-key-signer')).toContainText('quarantine-officer: training officer');
  await expect(page.getByTestId('wj-key-signer')).toContainText(second.keyId);
  await axeBothThemes(page, 'journal form with the training key');
  await page.getByRole('button', { name: 'Done' }).click();

  await page.getByTestId('case-queue').locator('[data-case="case-0"]').click();
  const history = page.getByTestId('case-history');
  await expect(history.getByTestId('history-signer')).toHaveText(['quarantine-officer: training officer']);
  // The whole key id, readable as it is (no tooltip, no ellipsis), and copied whole.
  await expect(history.getByTestId('history-key')).toHaveText([second.keyId]);
  expect(await copied(page, history.getByRole('button', { name: 'Copy the key id that signed entry #0' }))).toBe(
    second.keyId,
  );
  await expect(history).not.toContainText('…');
  await axeBothThemes(page, 'case detail with its history');
});

test('signing a case decision: a refusal takes focus; then the receipt names the signer, copies its hashes, and takes focus', async ({
  workbench: page,
  served,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const { keyId } = await createTraining(page);
  await page.getByTestId('case-queue').locator('[data-case="case-0"]').click();

  // The host's reviewer key is not in the training trust store: the view says so, the engine refuses it.
  await page.getByTestId('change-journal').click();
  await page.getByTestId('wj-key').selectOption(served.reviewerKey);
  await expect(page.getByTestId('wj-key-signer')).toContainText('a key not in the trust store');
  await expect(page.getByTestId('wj-key-signer')).toContainText(served.reviewerKeyId);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('decision-key')).toContainText('reviewer.key.pem · not in the trust store');
  await page.getByTestId('rationale').fill(RATIONALE);
  await page.getByTestId('sign-decision').click();
  await page.getByTestId('confirm-decision-sign').click();
  const error = page.getByTestId('journal-error');
  await expect(error).toBeVisible({ timeout: 30_000 });
  await expect(error).toBeFocused();
  await expect(page.getByTestId('receipt')).toHaveCount(0);
  await axeBothThemes(page, 'decision refused');

  await page.getByTestId('change-journal').click();
  await page
    .getByTestId('wj-key')
    .selectOption({ label: `training officer · quarantine-officer · ${keyId.slice(0, 19)}…` });
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByTestId('sign-decision').click();
  await page.getByTestId('confirm-decision-sign').click();
  const receipt = page.getByTestId('receipt');
  await expect(receipt).toContainText('case-0 is now released', { timeout: 30_000 });
  await expect(receipt).toBeFocused();
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('decision-receipt');
  await expect(page.getByTestId('journal-error')).toHaveCount(0);

  await expect(page.getByTestId('receipt-signer-role')).toHaveText('quarantine-officer: training officer');
  await expect(page.getByTestId('receipt-signer-key')).toHaveText(keyId);
  const entryHash = (await page.getByTestId('receipt-entry-hash').textContent())!;
  const root = (await page.getByTestId('receipt-checkpoint-root').textContent())!;
  expect(entryHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect(root).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect(await copied(page, receipt.getByRole('button', { name: 'Copy the entry hash' }))).toBe(entryHash);
  expect(await copied(page, receipt.getByRole('button', { name: 'Copy the checkpoint root' }))).toBe(root);
  expect(await copied(page, receipt.getByRole('button', { name: 'Copy the key id that signed the decision' }))).toBe(
    keyId,
  );
  // The decision joins the history, its signer named like the opening's.
  await expect(page.getByTestId('case-history').getByTestId('history-signer')).toHaveText([
    'quarantine-officer: training officer',
    'quarantine-officer: training officer',
  ]);
  await axeBothThemes(page, 'decision receipt');
});

test('a journal that no longer verifies: "Verify again" shows why and focuses it, with no case chosen', async ({
  workbench: page,
  served,
}) => {
  const base = mkdtempSync(join(tmpdir(), 'reprise-e2e-signers-'));
  const trust = join(base, 'trust-store.json');
  copyFileSync(served.reviewerTrustStore, trust);
  await page.getByTestId('tab-journal').click();
  await createInHeader(page, join(base, 'journal'), trust);
  await page.getByRole('button', { name: 'Done' }).click();
  rmSync(trust);
  await page.getByTestId('load-journal').click();
  const error = page.getByTestId('journal-error');
  await expect(error).toContainText('trust-store.json');
  await expect(error).toBeFocused();
  await axeBothThemes(page, 'journal error');
});

test('recording a judgement: the receipt names the signer, copies its key id and hashes, and takes focus', async ({
  workbench: page,
  served,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await createInHeader(
    page,
    join(mkdtempSync(join(tmpdir(), 'reprise-e2e-signers-')), 'journal'),
    served.reviewerTrustStore,
  );
  await page.getByTestId('wj-key').selectOption(served.reviewerKey);
  await page.getByRole('button', { name: 'Done' }).click();
  await openExample(page, 'dumps/fail/altered-artifact.dump.json', 60_000);
  await page.getByTestId('tab-findings').click();
  await page.getByTestId('judge-findings-0').click();
  await page.getByTestId('decision-reject').check();
  await page
    .getByTestId('judgement-rationale')
    .fill('The artifact hash differs from the recorded one: the dump was altered after signing.');
  await page.getByTestId('judge-review').click();
  await expect(
    page.getByTestId('confirm-fields').getByRole('button', { name: 'Copy the key id that signs' }),
  ).toBeVisible();
  await page.getByTestId('confirm-sign-button').click();

  const receipt = page.getByTestId('judgement-receipt');
  await expect(receipt).toBeVisible({ timeout: 30_000 });
  await expect(receipt).toBeFocused();
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('judgement-receipt');
  await expect(receipt.getByTestId('judgement-receipt-signer')).toContainText('reviewer');
  await expect(receipt.getByTestId('judgement-receipt-key')).toHaveText(served.reviewerKeyId);
  expect(await copied(page, receipt.getByRole('button', { name: 'Copy the key id that signed the judgement' }))).toBe(
    served.reviewerKeyId,
  );
  expect(await copied(page, receipt.getByRole('button', { name: 'Copy the entry hash' }))).toMatch(
    /^sha256:[0-9a-f]{64}$/,
  );
  expect(await copied(page, receipt.getByRole('button', { name: 'Copy the checkpoint root' }))).toMatch(
    /^sha256:[0-9a-f]{64}$/,
  );
  // The list names the signer the same way, with the whole key id.
  await expect(
    page.getByTestId('judgements').getByRole('button', { name: 'Copy the key id that signed entry #0' }),
  ).toBeVisible();
  await expect(page.getByTestId('judgements')).toContainText('reviewer: reviewer key');
  await expect(page.getByTestId('judgements')).toContainText(served.reviewerKeyId);
  await axeBothThemes(page, 'judgement receipt');
});

/**
 * The reviewer's judgement through the UI only (web target): open a journal to work in,
 * record a judgement on a finding (the rule shown first, errors beside the field, a
 * confirmation whose Cancel writes nothing, the receipt after the write), see it again
 * after a reload, route a drifting TG replay through the journal, see a refused replay
 * explained, and export the evidence bundle that `reprise verify` then accepts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { axe, openExample, expect, ROOT, test, type Served } from './fixtures.js';

test.describe.configure({ timeout: 180_000 });

/** Creates a fresh journal through the header's form and chooses the serve --key reviewer key. */
async function openJournal(page: Page, served: Served): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-judge-')), 'journal');
  await page.getByTestId('work-journal-toggle').click();
  await page.locator('#wj-dir').fill(dir);
  await page.locator('#wj-trust').fill(served.reviewerTrustStore);
  await page.getByTestId('wj-create').check();
  await page.getByTestId('wj-open').click();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 0 entries', { timeout: 30_000 });
  await page.getByTestId('wj-key').selectOption(served.reviewerKey);
  return dir;
}

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('record a judgement on a finding: rule first, confirmation, cancel writes nothing, receipt, listed after reload, exported bundle verifies', async ({
  workbench: page,
  served,
}) => {
  const dir = await openJournal(page, served);
  await axe(page, 'journal form open');
  await page.getByRole('button', { name: 'Done' }).click();
  await openExample(page, 'dumps/fail/altered-artifact.dump.json', 60_000);
  await page.getByTestId('tab-findings').click();
  await page.getByTestId('judge-findings-0').click();
  const form = page.getByTestId('judgement-form');
  await expect(form).toBeVisible();
  // Nothing pre-selected; the engine's rule shown before anything is submitted.
  for (const d of ['accept', 'reject', 'needs-review', 'note'])
    await expect(page.getByTestId(`decision-${d}`)).not.toBeChecked();
  await expect(page.getByTestId('judgement-rule')).toContainText('at least 20 characters, 3 words');
  await page.getByTestId('judgement-rationale').fill('looks fine to me ok');
  await page.getByTestId('judge-review').click();
  await expect(form.getByText('Choose a decision.')).toBeVisible();
  await expect(page.getByTestId('judgement-rationale-err')).toHaveText(/19 characters; at least 20/);
  await expect(page.getByTestId('confirm-sign')).toHaveCount(0);
  await axe(page, 'judgement form with errors');

  const rationale = 'The artifact hash differs from the recorded one: the dump was altered after signing.';
  await page.getByTestId('decision-reject').check();
  await page.getByTestId('judgement-rationale').fill(rationale);
  await page.getByTestId('judge-review').click();
  const confirm = page.getByTestId('confirm-sign');
  await expect(confirm).toBeVisible();
  const fields = page.getByTestId('confirm-fields');
  await expect(fields).toContainText(/sha256:[0-9a-f]{64}/);
  await expect(fields).toContainText('/findings/0');
  await expect(fields).toContainText(rationale);
  await expect(fields).toContainText(served.reviewerKeyId);
  await expect(fields).toContainText('reviewer');
  await expect(fields).toContainText(dir);
  await expect(page.getByTestId('confirm-decision')).toHaveText('reject');
  await axe(page, 'confirmation');
  // Cancel writes nothing: the journal still has 0 entries (the engine re-verifies it).
  await page.getByTestId('confirm-cancel').click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByTestId('judgement-receipt')).toHaveCount(0);
  expect(readFileSync(join(dir, 'entries.jsonl'), 'utf8')).toBe('');

  await page.getByTestId('judge-review').click();
  await page.getByTestId('confirm-sign-button').click();
  const receipt = page.getByTestId('judgement-receipt');
  await expect(receipt).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('receipt-proof')).toHaveText('✓ verified against the signed checkpoint');
  await expect(receipt).toContainText('Entry#0');
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 1 entry');
  await expect(page.getByTestId('judgements').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('judgement-proof')).toHaveText('verified');
  // The new state: "reject" is in force, the form offers the others.
  await page.getByTestId('judge-findings-0').click();
  await expect(page.getByTestId('judge-latest')).toContainText('reject');
  await expect(page.getByTestId('decision-reject')).toHaveCount(0);
  await expect(page.getByTestId('decision-accept')).toBeVisible();
  await axe(page, 'receipt and judgements');

  // Reload: the journal is still open (verified again) and the judgement is listed with the artifact.
  await page.reload();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 1 entry', { timeout: 30_000 });
  await openExample(page, 'dumps/fail/altered-artifact.dump.json', 60_000);
  await expect(page.getByTestId('judgements').locator('tbody tr')).toHaveCount(1, { timeout: 30_000 });

  // Export the bundle, verify it from the CLI, open it in the workbench again.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-bundle').click()]);
  const bundle = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-bundle-')), download.suggestedFilename());
  await download.saveAs(bundle);
  await expect(page.getByTestId('bundle-status')).toContainText('1 judgement(s)');
  await axe(page, 'bundle exported');
  // The bundle is intact, and carries a failing report: its verdict is FAIL (RPR-EVB-016, docs/evidence-bundle.md).
  const v = cli(['verify', bundle, '--trust-store', served.reviewerTrustStore, '--json']);
  expect(v.status, v.stdout + v.stderr).toBe(1);
  expect((JSON.parse(v.stdout) as { details: { integrity: { verdict: string } } }).details.integrity.verdict).toBe(
    'pass',
  );
  await page.getByTestId('tab-open').click();
  await page
    .locator('#file-input')
    .setInputFiles({ name: 'bundle.zip', mimeType: 'application/zip', buffer: readFileSync(bundle) });
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.locator('#verdict-h')).toBeVisible();
  await expect(page.getByTestId('verdict')).toContainText(/evidence-bundle/i);
});

test('a drifting TG replay with a journal open anchors the drift and opens the Human Review case', async ({
  workbench: page,
  served,
}) => {
  await openJournal(page, served);
  await page.getByRole('button', { name: 'Done' }).click();
  await openExample(page, 'tg/banded-drift-material/manifest.json', 60_000);
  await page.getByTestId('tab-replay').click();
  const note = page.getByTestId('replay-anchored');
  await expect(note).toContainText(/Human Review case case-\d+ opened for claim:2026-11-0104/);
  await expect(page.getByText('nothing was anchored: no --journal')).toHaveCount(0);
  await expect(
    page
      .getByTestId('drift-events')
      .getByRole('button', { name: /Record judgement/ })
      .first(),
  ).toBeVisible();
  await axe(page, 'replay anchored');
  await page.getByTestId('replay-show-cases').click();
  await expect(page.getByText('claim:2026-11-0104').first()).toBeVisible({ timeout: 30_000 });
  await axe(page, 'journal view with the opened case');
});

test('a refused replay says why and links the decisive finding', async ({ workbench: page }) => {
  await openExample(page, 'dumps/fail/altered-artifact.dump.json', 60_000);
  await page.getByTestId('tab-replay').click();
  await page.getByTestId('run-replay').click();
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 60_000 });
  const refused = page.getByTestId('replay-refused');
  await expect(refused).toContainText('Replay was refused');
  await expect(refused).toContainText('RDS-F001');
  await axe(page, 'replay refused');
  await page.getByTestId('replay-refused-finding').click();
  await expect(page.locator('#selected-finding')).toBeFocused();
});

test('a V3 Nemosyne package reaches PASS with the profile registry and kernel adapter chosen in the Open view', async ({
  workbench: page,
  served,
}) => {
  // The examples the server was started with: their adapter is the one --kernel-adapter named.
  const ex = served.examples;
  const pkg = join(ex, 'packages', 'intact', 'v3.nemosyne');
  await page.getByTestId('tab-open').click();
  await page.getByTestId('open-path').fill(pkg);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId('verdict')).toContainText(/unavailable/i);
  await page.getByTestId('tab-findings').click();
  // The message names the control that fixes it (and the CLI's flag: the report is the same bytes as the CLI's).
  await expect(page.getByTestId('findings')).toContainText(
    "in the workbench, the Profile registry field of the Open view's engine options",
  );
  await page.getByTestId('tab-open').click();
  await page.locator('details.options summary').click();
  await page.locator('#opt-profiles').fill(join(ex, 'packages', 'profiles.json'));
  await page.locator('#opt-adapter').fill(join(ex, 'packages', 'kernel-adapter.mjs'));
  await axe(page, 'package options');
  // Remembered until changed: a reload keeps them.
  await page.reload();
  await expect(page.getByTestId('engine')).toContainText(/engine \d/);
  await page.getByTestId('tab-open').click();
  await page.getByTestId('open-path').fill(pkg);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId('verdict')).toHaveClass(/\bpass\b/);
});

/**
 * Everyday affordances through the UI (web target): no console error on load or when a
 * report replaces one showing a diff, focus follows each action, the chain tree is one Tab
 * stop driven by arrow keys, deep links restore what was open, copy buttons, a truncated
 * file says so.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { axe, openExample, expect, ROOT, test } from './fixtures.js';

test.describe.configure({ timeout: 120_000 });

function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

test('no console error on load (favicon) nor when a report replaces one showing a diff', async ({
  workbench: page,
  served,
}) => {
  const errors = consoleErrors(page);
  await page.goto(served.url);
  await expect(page.getByTestId('engine')).toContainText(/engine \d/);
  await openExample(page, 'dumps/whatif/drift.dump.json');
  await page.getByTestId('tab-replay').click();
  await expect(page.getByTestId('diff-editor').locator('.monaco-diff-editor')).toBeVisible({ timeout: 30_000 });
  await openExample(page, 'unknown/not-an-artifact.json');
  await page.getByTestId('tab-replay').click();
  await expect(page.getByTestId('diff-editor')).toHaveCount(0);
  await page.waitForTimeout(500);
  expect(errors).toEqual([]);
});

test('focus moves to the result of each action; the chain tree is one Tab stop with arrow keys', async ({
  workbench: page,
}) => {
  await openExample(page, 'dumps/fail/altered-artifact.dump.json');
  await expect(page.locator('#verdict-h')).toBeFocused();
  await page.getByTestId('findings').locator('tbody tr', { hasText: 'RDS-F001' }).first().press('Enter');
  await expect(page.locator('#selected-finding')).toBeFocused();
  const tree = page.getByTestId('chain-tree');
  const items = tree.locator('[role="treeitem"]');
  await expect(items).toHaveCount(12);
  await expect(tree.locator('[tabindex="0"]')).toHaveCount(1);
  await tree.locator('[tabindex="0"]').focus();
  const focusedLabel = () => page.evaluate(() => document.activeElement?.getAttribute('data-node'));
  await page.keyboard.press('Home');
  const first = await focusedLabel();
  expect(first).toBe('trust');
  await page.keyboard.press('ArrowDown');
  expect(await focusedLabel()).toBe('signature');
  await page.keyboard.press('ArrowUp');
  expect(await focusedLabel()).toBe('trust');
  // Left on an open node closes it; Right opens it again and then enters it.
  await page.keyboard.press('ArrowLeft');
  await expect(tree.locator('[data-node="trust"]')).toHaveAttribute('aria-expanded', 'false');
  await expect(items).toHaveCount(1);
  await page.keyboard.press('ArrowRight');
  await expect(items).toHaveCount(12);
  await page.keyboard.press('ArrowRight');
  expect(await focusedLabel()).toBe('signature');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  expect(await focusedLabel()).toBe('trust');
  await page.keyboard.press('End');
  const last = await focusedLabel();
  expect(last).not.toBe('trust');
  await page.keyboard.press('Enter');
  await expect(tree.locator(`[data-node="${last}"]`)).toHaveAttribute('aria-selected', 'true');
  await expect(tree.locator('[tabindex="0"]')).toHaveCount(1);
  // Tab leaves the tree at once (one Tab stop, not one per node).
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('[role="tree"]') === null)).toBe(true);
  // Every hash of the chain node and the finding's pointer has a copy button.
  await expect(
    page
      .getByTestId('node-detail')
      .getByRole('button', { name: /^Copy / })
      .first(),
  ).toBeVisible();
});

test('the hidden file inputs are not Tab stops; the visible button opens the picker', async ({ workbench: page }) => {
  await page.getByTestId('tab-open').click();
  await expect(page.locator('#file-input')).toHaveAttribute('tabindex', '-1');
  await expect(page.locator('#report-input')).toHaveAttribute('tabindex', '-1');
  const seen: string[] = [];
  await page.getByTestId('tab-open').focus();
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    seen.push(
      await page.evaluate(
        () =>
          document.activeElement?.id ||
          document.activeElement?.getAttribute('data-testid') ||
          document.activeElement?.tagName ||
          '',
      ),
    );
  }
  expect(seen).not.toContain('file-input');
  expect(seen).not.toContain('report-input');
  expect(seen).toContain('choose-file');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('choose-file').click()]);
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-pick-'));
  const f = join(dir, 'picked.json');
  writeFileSync(f, '{"type":"something.else"}');
  await chooser.setFiles(f);
  await expect(page.getByTestId('decisive')).toContainText('RPR-KIND-001');
});

test('deep links: the address names the view and the example, and a reload restores them', async ({
  workbench: page,
}) => {
  await openExample(page, 'dumps/fail/altered-artifact.dump.json');
  await page.getByTestId('tab-chain').click();
  const url = page.url();
  expect(url).toContain('view=chain');
  expect(url).toContain('example=dumps%2Ffail%2Faltered-artifact.dump.json');
  // The address carries the artifact's name, never its content.
  expect(url.length).toBeLessThan(400);
  await page.reload();
  await expect(page.getByTestId('tab-chain')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('verdict').locator('.verdict-word')).toHaveText('FAIL', { timeout: 30_000 });
  await expect(page.getByTestId('verdict')).toContainText('altered-artifact.dump.json');
  await expect(page.getByTestId('chain-tree')).toBeVisible();
});

test('a file opened by path is in the link too; a truncated file says "truncated" in the banner; copy buttons', async ({
  workbench: page,
  served,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-cut-'));
  const ex = mkdtempSync(join(tmpdir(), 'reprise-e2e-ex-'));
  const { spawnSync } = await import('node:child_process');
  expect(spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), 'examples', ex]).status).toBe(0);
  const cut = join(dir, 'cut.dump.json');
  writeFileSync(cut, readFileSync(join(ex, 'dumps', 'intact.dump.json')).subarray(0, 3000));
  // A shared link: only the fragment differs from the open page, so load it afresh.
  await page.goto(`${served.url}&view=findings&path=${encodeURIComponent(cut)}`);
  await page.reload();
  await expect(page.getByTestId('decisive')).toContainText('RPR-KIND-001', { timeout: 30_000 });
  await expect(page.getByTestId('decisive')).toContainText('truncated');
  await expect(page.getByTestId('tab-findings')).toHaveAttribute('aria-selected', 'true');
  expect(page.url()).toContain(`path=${encodeURIComponent(cut)}`);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const copy = page.getByTestId('verdict').getByRole('button', { name: "Copy the artifact's SHA-256" });
  await copy.click();
  await expect(copy).toHaveText('Copied');
  const sha = await page.evaluate(() => navigator.clipboard.readText());
  expect(sha).toMatch(/^sha256:[0-9a-f]{64}$/);
});

test('a link keeps how the artifact was run: a what-if example replayed as recorded reloads as recorded', async ({
  workbench: page,
}) => {
  await openExample(page, 'dumps/whatif/drift.dump.json');
  await expect(page.getByTestId('verdict')).toContainText('DEMONSTRATION');
  // The link is written when the run's state settles, which may follow the verdict's paint.
  await expect.poll(() => decodeURIComponent(page.url())).toContain('whatif=model=ref-2');
  await page.getByTestId('tab-trainer').click();
  await page.getByRole('button', { name: 'Replay as recorded' }).click();
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('verdict').locator('.verdict-word')).toHaveText('PASS');
  await expect(page.getByTestId('verdict')).not.toContainText('DEMONSTRATION');
  await expect.poll(() => new URL(page.url()).hash).toMatch(/[#&]whatif=(&|$)/);
  await page.reload();
  await expect(page.getByTestId('verdict').locator('.verdict-word')).toHaveText('PASS', { timeout: 30_000 });
  await expect(page.getByTestId('verdict')).not.toContainText('DEMONSTRATION');
  await expect(page.getByTestId('tab-trainer')).toHaveAttribute('aria-selected', 'true');
});

test('a picked file: the previous verdict goes at the pick; a reload says to pick it again, with focus on that note', async ({
  workbench: page,
}) => {
  await openExample(page, 'dumps/intact.dump.json');
  await expect(page.getByTestId('verdict')).toContainText('intact');
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-repick-'));
  const f = join(dir, 'claim-bundle.json');
  writeFileSync(f, JSON.stringify({ type: 'not-a-kind', pad: 'x'.repeat(16 * 1024 * 1024) }));
  await page.getByTestId('tab-open').click();
  await page.locator('#file-input').setInputFiles(f);
  // Nothing on screen may look like the new file's verdict while it is on its way.
  await expect(page.getByTestId('verdict').filter({ hasText: 'intact' })).toHaveCount(0, { timeout: 2_000 });
  await expect(page.getByTestId('decisive')).toContainText('RPR-KIND-001', { timeout: 60_000 });
  await expect.poll(() => new URL(page.url()).hash).toContain('picked=claim-bundle.json');
  expect(page.url()).not.toContain('xxxx');
  await page.reload();
  const note = page.getByTestId('job-note');
  await expect(note).toContainText('claim-bundle.json, a file picked in this window');
  await expect(note).toContainText('pick it again');
  await expect(note).toBeFocused();
  await expect(page.getByTestId('verdict')).toHaveCount(0);
  await axe(page, 'a reloaded link to a picked file');
});

test('a saved report: refused when its verdict was edited; else shown as stated, focus on its verdict, Replay says why it cannot run, a reload says to open it again', async ({
  workbench: page,
}) => {
  await openExample(page, 'dumps/intact.dump.json');
  await expect(page.getByTestId('verdict')).toContainText('intact');
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-saved-'));
  const saved = join(dir, 'case-17.report.json');
  // A report as the CLI writes it (--json), of a built-in example.
  const cli = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), ...args]);
  expect(cli('examples', join(dir, 'ex')).status).toBe(0);
  const out = cli('verify', join(dir, 'ex', 'dumps', 'intact.dump.json'), '--json');
  writeFileSync(saved, out.stdout);
  // The same report with its verdict word edited to PASS (its findings make UNAVAILABLE: no trust store given).
  const edited = join(dir, 'edited.report.json');
  writeFileSync(edited, JSON.stringify({ ...JSON.parse(out.stdout.toString()), verdict: 'pass' }));
  await page.getByTestId('tab-open').click();
  await page.locator('#report-input').setInputFiles(edited);
  const error = page.getByTestId('error');
  await expect(error).toContainText('The saved report edited.report.json is refused');
  await expect(error).toContainText('its stated verdict is PASS, but its findings make UNAVAILABLE (RPR-RPT-002');
  await expect(error).toContainText('open it with Open');
  await expect(error).toBeFocused();
  // What was open before goes: the refusal must not read as under the intact dump's verdict.
  await expect(page.getByTestId('verdict')).toHaveCount(0);
  await axe(page, 'a saved report refused');
  await page.locator('#report-input').setInputFiles(saved);
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toHaveAttribute('data-stated', 'true');
  await expect(error).toHaveCount(0);
  // Its verdict is its own claim: said so in the heading, in no verdict's colour.
  await expect(page.locator('#verdict-h')).toContainText('UNAVAILABLE as stated (not re-verified)');
  await expect(verdict).toHaveClass(/verdict-banner stated/);
  await expect(page.getByTestId('saved-note')).toContainText('a saved report, shown as it states itself');
  await expect(page.getByTestId('authenticity')).toContainText('as the saved report states it, not checked here');
  await expect(page.locator('#verdict-h')).toBeFocused();
  await axe(page, 'a saved report, as stated');
  await page.getByTestId('tab-replay').click();
  await expect(page.getByTestId('run-replay')).toBeDisabled();
  await expect(page.getByText('A saved report is shown as saved: open its artifact to replay it.')).toBeVisible();
  await expect.poll(() => new URL(page.url()).hash).toContain('report=case-17.report.json');
  await page.reload();
  const note = page.getByTestId('job-note');
  await expect(note).toContainText('the saved report case-17.report.json');
  await expect(note).toBeFocused();
  await axe(page, 'a reloaded link to a saved report');
});

test('focus goes to the note or the error an action ends with, never to <body>', async ({
  workbench: page,
  served,
}) => {
  // A link naming an example this engine does not have: the error takes focus.
  await page.goto(`${served.url}&view=findings&example=dumps%2Fno-such.dump.json`);
  await page.reload();
  const error = page.getByTestId('error');
  await expect(error).toContainText('which this engine does not have');
  await expect(error).toBeFocused();
  // A cancelled job: the note that says so takes focus.
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-cancel-'));
  const big = join(dir, 'big.jsonl');
  const { generateTrace } = (await import(join(ROOT, 'dist/app/kinds/acgp/generate.js'))) as {
    generateTrace(o: { count: number; seed: number; traceId: string }): unknown[];
  };
  writeFileSync(
    big,
    generateTrace({ count: 15_000, seed: 7, traceId: 'trace-cancel' })
      .map((e) => JSON.stringify(e))
      .join('\n') + '\n',
  );
  await page.getByTestId('tab-open').click();
  await page.getByTestId('open-path').fill(big);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await page.getByTestId('cancel').click();
  const note = page.getByTestId('job-note');
  await expect(note).toContainText('Cancelled');
  await expect(note).toBeFocused();
  await axe(page, 'a cancelled job');
});

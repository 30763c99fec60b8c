import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, SCREENSHOTS, test } from './fixtures.js';

test('opens a file and shows the engine verdict and findings', async ({ workbench: page }, testInfo) => {
  await expect(page.getByTestId('engine')).toContainText(/engine \d+\.\d+\.\d+/);
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-'));
  const f = join(dir, 'mystery.dump.json');
  writeFileSync(f, '{"type":"something.else","n":1}');
  await page.locator('#file-input').setInputFiles(f);
  await expect(page.getByTestId('verdict')).toContainText('FAIL');
  await expect(page.getByTestId('decisive')).toContainText('RPR-KIND-001');
  await expect(page.getByTestId('findings')).toContainText('does not guess from file names');
  // The window hashed the same bytes the engine checked (@noble/hashes vs node:crypto).
  await expect(page.getByTestId('verdict')).toContainText('matches the hash computed in this window');
  const axe = await new AxeBuilder({ page }).analyze();
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  if (SCREENSHOTS && testInfo.project.name === 'web')
    await page.screenshot({ path: 'docs/screenshots/foundation-verdict.png', fullPage: true });
});

test('a duplicate member is refused with its pointer, never repaired', async ({ workbench: page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-'));
  const f = join(dir, 'dup.json');
  writeFileSync(f, '{"a":1,"a":2}');
  await page.locator('#file-input').setInputFiles(f);
  await expect(page.getByTestId('verdict')).toContainText('FAIL');
});

test('the web host refuses a page without the token', async ({ browser, served }, testInfo) => {
  testInfo.skip(testInfo.project.name !== 'web', 'web host only');
  const page = await browser.newPage();
  await page.goto(served.origin + '/');
  await expect(page.getByRole('alert')).toContainText('No access token');
  await page.close();
});

/**
 * A case whose artifacts are UNAVAILABLE for want of an option (web target): a replay dump
 * opened without a trust store, a Nemosyne V4 package without a kernel adapter or a profile
 * registry. The Case view says which option would decide each, how many artifacts, and where
 * it is given; its button opens the Open view at the field; the case opened again with the
 * trust store given no longer names it. axe on that state, light and dark, nothing excluded.
 */
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { axeBothThemes, expect, test } from './fixtures.js';

test.describe.configure({ timeout: 240_000 });

async function openCase(page: Page, dir: string): Promise<void> {
  await page.getByTestId('tab-case').click();
  await page.locator('#case-path').fill(dir);
  await page.getByTestId('case-open').click();
  await expect(page.getByTestId('case-verdict')).toContainText('3 artifacts', { timeout: 120_000 });
}

test('a case says which option would decide its UNAVAILABLE artifacts, and where it is given', async ({
  workbench: page,
  served,
}) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-case-')), 'needs');
  mkdirSync(dir);
  const copy = (from: string, to: string): void => cpSync(join(served.examples, from), join(dir, to));
  copy('dumps/intact.dump.json', 'dump.json');
  copy('packages/intact/v4.nemosyne', 'dataset.nemosyne');
  copy('acgp/trace-clean.jsonl', 'trace.jsonl');

  await openCase(page, dir);
  const note = page.getByTestId('case-needs');
  await expect(note).toHaveAttribute('role', 'note');
  await expect(note).toContainText(
    '2 UNAVAILABLE artifacts have findings that an option the case ran without would decide',
  );
  const trust = note.locator('[data-option="trustStore"]');
  await expect(trust).toContainText(
    '--trust-store (Trust store) would decide findings (RDS-007) of 1 artifact: dump.json.',
  );
  await expect(trust).toContainText("Give it in the Trust store field of the Open view's engine options");
  await expect(note.locator('[data-option="kernelAdapter"]')).toContainText(
    '--kernel-adapter (Kernel adapter) would decide findings (KERNEL_MISMATCH) of 1 artifact: dataset.nemosyne.',
  );
  await expect(note.locator('[data-option="profiles"]')).toContainText('dataset.nemosyne');
  await expect(note).not.toContainText('trace.jsonl');
  await axeBothThemes(page, 'case with artifacts undecided for want of an option');

  // Its button opens the Open view at the field, its engine options unfolded.
  await trust.getByRole('button', { name: 'Go to the Trust store field' }).click();
  await expect(page.getByTestId('tab-open')).toHaveAttribute('aria-selected', 'true');
  const field = page.locator('#opt-trust');
  await expect(field).toBeFocused();
  await expect(field).toBeVisible();
  await field.fill(join(served.examples, 'dumps/trust-store.json'));

  // Opened again, the case ran with the trust store: the dump is decided, the package still is not.
  await openCase(page, dir);
  await expect(page.locator('tr[data-artifact="dump.json"]')).toContainText('pass');
  await expect(note.locator('[data-option="trustStore"]')).toHaveCount(0);
  await expect(note).toContainText('1 UNAVAILABLE artifact has findings');
  await expect(note.locator('[data-option="kernelAdapter"]')).toBeVisible();
  await axeBothThemes(page, 'case with one artifact undecided for want of an option');
});

/**
 * The evidence bundle of a TG replay holds its attestation (web target, through the UI):
 * replay a drifting manifest with a journal open (the drift is anchored, so the journal
 * has a checkpoint), export the bundle, see that it carries the attestation signed with
 * the chosen reviewer key, and `reprise verify` it offline.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, ROOT, test } from './fixtures.js';

test.describe.configure({ timeout: 180_000 });

test("a TG replay exported as an evidence bundle holds the attestation; the bundle is intact and carries the replay's FAIL", async ({
  workbench: page,
  served,
}) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-tgb-')), 'journal');
  await page.getByTestId('work-journal-toggle').click();
  await page.locator('#wj-dir').fill(dir);
  await page.locator('#wj-trust').fill(served.reviewerTrustStore);
  await page.getByTestId('wj-create').check();
  await page.getByTestId('wj-open').click();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 0 entries', { timeout: 30_000 });
  await page.getByTestId('wj-key').selectOption(served.reviewerKey);
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByTestId('tab-open').click();
  await page.locator('[data-example="tg/banded-drift-material/manifest.json"]').click();
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 60_000 });
  await page.getByTestId('tab-replay').click();
  await expect(page.getByTestId('replay-anchored')).toContainText(/Human Review case/, { timeout: 60_000 });

  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 90_000 }),
    page.getByTestId('export-bundle').click(),
  ]);
  const bundle = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-tgb-out-')), download.suggestedFilename());
  await download.saveAs(bundle);
  await expect(page.getByTestId('bundle-attestation')).toContainText(served.reviewerKeyId);
  const r = await new AxeBuilder({ page }).analyze();
  expect(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  const v = spawnSync(
    process.execPath,
    [join(ROOT, 'bin', 'reprise.js'), 'verify', bundle, '--trust-store', served.reviewerTrustStore, '--json'],
    { encoding: 'utf8' },
  );
  // The bundle itself is intact and holds the attestation; the replay it carries drifted
  // beyond ε (decision-material), so its verdict, and the bundle's, is FAIL (exit 1).
  expect(v.status, v.stdout + v.stderr).toBe(1);
  const details = (
    JSON.parse(v.stdout) as {
      details: {
        bundle: { attestation: boolean };
        integrity: { verdict: string };
        carried: { verdict: string; decisive: { rule: string } };
      };
    }
  ).details;
  expect(details.bundle.attestation).toBe(true);
  expect(details.integrity.verdict).toBe('pass');
  expect(details.carried.verdict).toBe('fail');
  expect(details.carried.decisive.rule).toBe('RPR-TG-031');
});

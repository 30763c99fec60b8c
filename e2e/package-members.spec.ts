/**
 * A Nemosyne package's members through the UI only (web target): open the V3 example
 * package, see each member with its recorded and recomputed digest, open the manifest,
 * envelope and command log as JSON (raw and canonical) and the dataset as a table; axe
 * on each state, nothing excluded.
 */
import { join } from 'node:path';
import { axe, expect, test } from './fixtures.js';

test.describe.configure({ timeout: 180_000 });

const HASH = /sha256:[0-9a-f]{64}/;

test('the V3 package: every member with its recorded and recomputed digest, JSON raw and canonical, the dataset as a table', async ({
  workbench: page,
  served,
}) => {
  const pkg = join(served.examples, 'packages', 'intact', 'v3.nemosyne');
  await page.getByTestId('tab-open').click();
  await page.getByTestId('open-path').fill(pkg);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 60_000 });
  await page.getByTestId('tab-chain').click();
  const members = page.getByTestId('members');
  await expect(members).toBeVisible({ timeout: 30_000 });
  const row = (path: string) => members.locator(`[data-member="${path}"]`);
  // The two members the manifest records a digest for: recorded and recomputed, and they match.
  for (const path of ['investigation/evidence-receipts.json', 'data/dataset.raw']) {
    await expect(row(path).getByTestId('member-status')).toHaveText('match');
    const cells = row(path).locator('td');
    await expect(cells.nth(3)).toContainText(HASH);
    await expect(cells.nth(4)).toContainText(HASH);
  }
  await expect(row('manifest.json').getByTestId('member-recomputed')).toContainText(HASH);
  await axe(page, 'package members');

  for (const path of ['manifest.json', 'investigation/evidence-receipts.json', 'investigation/commands.log']) {
    await row(path).getByTestId('open-member').click();
    const content = page.locator(`[data-testid="member-content"][data-member="${path}"]`);
    await expect(content.getByTestId('artifact-editor')).toBeVisible({ timeout: 30_000 });
    await expect(content.locator('.view-lines')).toContainText(/[[{]/);
    await content.getByTestId('member-canonical').click();
    await expect(content.getByTestId('member-canonical')).toHaveAttribute('aria-pressed', 'true');
    await expect(content.getByTestId('artifact-editor')).toHaveAttribute('aria-label', `${path} (canonical)`);
    await axe(page, `member ${path}`);
  }

  await row('data/dataset.raw').getByTestId('open-member').click();
  const table = page.getByTestId('dataset-table');
  await expect(table).toBeVisible();
  await expect(table.locator('thead th')).toContainText(['species', 'petalLength']);
  expect(await table.locator('tbody tr').count()).toBeGreaterThan(0);
  await axe(page, 'dataset table');
});

/**
 * A case's link reproduces it (web target): the Case view's link names the case folder and
 * the trust store it was verified with, so a reload verifies the same folder again with the
 * same verdicts (a signed dump stays PASS, not UNAVAILABLE). axe on the reloaded case.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axe, expect, ROOT, test } from './fixtures.js';

test.describe.configure({ timeout: 180_000 });

test("a case's link keeps its folder and its trust store: a reload gives the same verdicts", async ({
  workbench: page,
}) => {
  const ex = mkdtempSync(join(tmpdir(), 'reprise-e2e-case-link-'));
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), 'examples', ex], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const dir = join(ex, 'case');
  cpSync(join(ex, 'dumps/intact.dump.json'), join(dir, 'dump.json'));
  cpSync(join(ex, 'tg/bundle.json'), join(dir, 'policy.json'));
  const trust = join(ex, 'dumps/trust-store.json');

  // The trust store is one of the Open view's engine options, which a case takes too.
  await page.getByTestId('tab-open').click();
  await page.getByText('Engine options for the files you open').click();
  await page.locator('#opt-trust').fill(trust);
  await page.getByTestId('open-case-view').click();
  await page.locator('#case-path').fill(dir);
  await page.getByTestId('case-open').click();
  const verdict = page.getByTestId('case-verdict');
  await expect(verdict).toBeVisible({ timeout: 60_000 });
  await expect(verdict).toContainText('PASS');
  const dump = page.getByTestId('case-artifacts').locator('tr[data-artifact="dump.json"]');
  await expect(dump).toContainText('pass');

  const hash = async () => new URLSearchParams(new URL(page.url()).hash.slice(1));
  await expect.poll(async () => (await hash()).get('case')).toBe(dir);
  expect((await hash()).get('trustStore')).toBe(trust);
  expect((await hash()).get('view')).toBe('case');
  expect((await hash()).has('key')).toBe(false);

  await page.reload();
  await expect(page.getByTestId('tab-case')).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
  await expect(verdict).toBeVisible({ timeout: 60_000 });
  await expect(verdict).toContainText('PASS');
  await expect(dump).toContainText('pass');
  await axe(page, 'a case reopened from its link');
});

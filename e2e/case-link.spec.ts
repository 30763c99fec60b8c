/**
 * A case's link reproduces it (web target): the Case view's link names the case folder, the
 * trust store it was run with and, for a replayed case, its mode, so a reload runs the same
 * folder again as it was run, with the same verdicts (a signed dump stays PASS, not
 * UNAVAILABLE). axe on the reloaded case and on a replayed one.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { axe, expect, ROOT, test } from './fixtures.js';

test.describe.configure({ timeout: 180_000 });

/**
 * A case folder of a signed dump and a policy bundle, opened by its path in the Case view,
 * verified or replayed, with the examples' trust store as the Open view's engine option
 * (which a case takes too).
 */
async function openCase(page: Page, how: 'verified' | 'replayed'): Promise<{ dir: string; trust: string }> {
  const ex = mkdtempSync(join(tmpdir(), 'reprise-e2e-case-link-'));
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), 'examples', ex], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const dir = join(ex, 'case');
  cpSync(join(ex, 'dumps/intact.dump.json'), join(dir, 'dump.json'));
  cpSync(join(ex, 'tg/bundle.json'), join(dir, 'policy.json'));
  const trust = join(ex, 'dumps/trust-store.json');
  await page.getByTestId('tab-open').click();
  await page.getByText('Engine options for the files you open').click();
  await page.locator('#opt-trust').fill(trust);
  await page.getByTestId('open-case-view').click();
  await page.getByRole('radio', { name: new RegExp(`^${how}`) }).check();
  await page.locator('#case-path').fill(dir);
  await page.getByTestId('case-open').click();
  return { dir, trust };
}

test("a case's link keeps its folder and its trust store: a reload gives the same verdicts", async ({
  workbench: page,
}) => {
  const { dir, trust } = await openCase(page, 'verified');
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

test('a replayed case: chosen before it opens, said on screen and in its link, replayed again on reload; its artifacts open replayed', async ({
  workbench: page,
}) => {
  const { dir, trust } = await openCase(page, 'replayed');
  const verdict = page.getByTestId('case-verdict');
  await expect(verdict).toBeVisible({ timeout: 60_000 });
  // The policy bundle has nothing to re-execute: verified, with a note, never failed for it.
  await expect(verdict).toContainText('PASS');
  const policy = page.getByTestId('case-artifacts').locator('tr[data-artifact="policy.json"]');
  await expect(policy).toContainText('pass');
  await expect(policy).toContainText('1 info');
  await expect(page.getByTestId('case-run-mode')).toContainText('Replayed');
  await axe(page, 'a replayed case');

  const hash = async () => new URLSearchParams(new URL(page.url()).hash.slice(1));
  await expect.poll(async () => (await hash()).get('case')).toBe(dir);
  expect((await hash()).get('mode')).toBe('replay');
  expect((await hash()).get('trustStore')).toBe(trust);

  await page.reload();
  await expect(page.getByTestId('tab-case')).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
  await expect(verdict).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('case-run-mode')).toContainText('Replayed');
  await expect(policy).toContainText('1 info');
  await expect(page.getByRole('radio', { name: /replayed/ })).toBeChecked();

  // An artifact opened from the case runs as the case did: replayed, with the case's trust store.
  await page.getByTestId('case-artifacts').locator('tr[data-artifact="dump.json"]').getByRole('button').first().click();
  await expect(page.getByTestId('tab-chain')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('verdict')).toContainText('PASS', { timeout: 60_000 });
  await expect.poll(async () => (await hash()).get('path')).toBe(join(dir, 'dump.json'));
  // The address gains the run's options when its job is sent, after the path it opened: polled.
  await expect.poll(async () => (await hash()).get('trustStore')).toBe(trust);
  expect((await hash()).get('mode')).toBe('replay');
});

test("an artifact opened from a case takes the case's options alone, not a trust store the Open view still holds", async ({
  workbench: page,
}) => {
  // The Open view's trust store is filled (as a link to a file fills it); then a link to the
  // same case without one is followed in this tab: the case runs without it.
  const { dir } = await openCase(page, 'verified');
  const verdict = page.getByTestId('case-verdict');
  await expect(verdict).toContainText('PASS', { timeout: 60_000 });
  const token = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('token') ?? '';
  await page.evaluate((h) => (location.hash = h), new URLSearchParams({ token, view: 'case', case: dir }).toString());
  const dump = page.getByTestId('case-artifacts').locator('tr[data-artifact="dump.json"]');
  await expect(dump).toContainText('unavailable', { timeout: 60_000 });
  await expect(verdict).toContainText('UNAVAILABLE');

  // Opened from the case, the dump is decided as the case decided it: no trust store was added.
  await dump.getByRole('button').first().click();
  await expect(page.getByTestId('tab-chain')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('verdict')).toContainText('UNAVAILABLE', { timeout: 60_000 });
  const hash = async () => new URLSearchParams(new URL(page.url()).hash.slice(1));
  await expect.poll(async () => (await hash()).get('path')).toBe(join(dir, 'dump.json'));
  expect((await hash()).has('trustStore')).toBe(false);
  await axe(page, 'an artifact opened from a case run without a trust store');
});

/**
 * A case's evidence values in the officer's view are exact decimals in plain digits (web
 * target, through the UI): a comparison of 1e-7 with 2e-7, or of 1e21 with 1.5e21, reads
 * 0.0000001 and 1500000000000000000000 in every column, as the exact |Δ| beside them does,
 * never in exponent notation, which beside 0.0000001 reads as another value. Axe on it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { axeBothThemes, expect, ROOT, test } from './fixtures.js';

test.describe.configure({ timeout: 120_000 });

/** A journal with one case whose evidence holds very small and very large numbers, opened by an officer key made here. */
async function journalWithEvidence(): Promise<{ dir: string; trust: string }> {
  const root = mkdtempSync(join(tmpdir(), 'reprise-e2e-decimals-'));
  const trust = join(root, 'trust-store.json');
  const key = join(root, 'officer.key.pem');
  const args = ['keys', 'generate', '--out', key, '--role', 'quarantine-officer', '--trust-store', trust];
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), ...args], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  // The CLI opens a case without evidence: the built engine's own call writes one with it.
  const built = (p: string): string => pathToFileURL(join(ROOT, 'dist', 'app', p)).href;
  const { openCase } = (await import(built('journal/index.js'))) as {
    openCase: (dir: string, input: unknown, signer: unknown) => Promise<unknown>;
  };
  const { loadSigner } = (await import(built('core/keys.js'))) as { loadSigner: (p: string) => Promise<unknown> };
  const dir = join(root, 'journal');
  const details = {
    tiny: { output: 'tiny', original: 1e-7, replayed: 2e-7, delta: 1e-7 },
    big: { output: 'big', original: 1e21, replayed: 1.5e21, delta: 5e20, epsilon: 1e-9 },
  };
  const input = { claimRef: 'claim:decimals', reason: 'very small and very large numbers', source: 'routing', details };
  await openCase(dir, input, await loadSigner(key));
  return { dir, trust };
}

test("a case's evidence in plain exact decimals: 0.0000001, not 1e-7; 1500000000000000000000, not 1.5e+21", async ({
  workbench: page,
}) => {
  const { dir, trust } = await journalWithEvidence();
  await page.getByTestId('work-journal-toggle').click();
  await page.locator('#wj-dir').fill(dir);
  await page.locator('#wj-trust').fill(trust);
  await page.getByTestId('wj-open').click();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 1 entry', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByTestId('tab-journal').click();
  await page.getByTestId('case-queue').locator('[data-case="case-0"]').click();

  const rows = page.getByTestId('evidence-deltas').locator('tbody tr');
  await expect(rows).toHaveCount(2);
  const cells = async (i: number): Promise<string[]> => rows.nth(i).locator('td').allInnerTexts();
  // In the order of the entry's canonical JSON (RFC 8785: keys sorted), big before tiny.
  const big = ['1000000000000000000000', '1500000000000000000000', '500000000000000000000'];
  expect(await cells(0)).toEqual(['big', ...big, big[2], '0.000000001']);
  expect(await cells(1)).toEqual(['tiny', '0.0000001', '0.0000002', '0.0000001', '0.0000001', '—']);
  await expect(page.getByTestId('evidence-deltas')).not.toContainText(/\de[+-]?\d/);
  await axeBothThemes(page, 'evidence of very small and very large numbers');
});

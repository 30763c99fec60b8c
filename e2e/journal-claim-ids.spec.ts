/**
 * The journal view gives the journal-level claim id warning `journal verify` gives
 * (RPR-QUAR-008, docs/workbench.md "The officer's queue"): a journal written around the writer
 * names `claim:A ` on a replay-drift entry and on a case; the view lists one warning for the id,
 * at its first entry, in the engine's words, among the journal's findings, the journal still
 * verified; the case is shown escaped. axe on that state in both themes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axeBothThemes, expect, ROOT, test } from './fixtures.js';
import { forgeEntry } from './forge.js';

test.describe.configure({ timeout: 180_000 });

function cli(args: string[]): void {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), ...args], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

test("a journal holding a claim id that may draw as another's: the view gives journal verify's warning, once", async ({
  workbench: page,
}) => {
  const root = mkdtempSync(join(tmpdir(), 'reprise-e2e-claim-ids-'));
  const trust = join(root, 'trust-store.json');
  const key = join(root, 'officer.key.pem');
  cli(['keys', 'generate', '--out', key, '--role', 'quarantine-officer', '--trust-store', trust]);
  const dir = join(root, 'journal');
  // The writer refuses `claim:A ` for a new entry (RPR-QUAR-008); another tool wrote these two.
  await forgeEntry(dir, { kind: 'replay-drift', subject: { claimRef: 'claim:A ' }, body: { n: 1 } }, key);
  await forgeEntry(
    dir,
    {
      kind: 'quarantine-open',
      subject: { claimRef: 'claim:A ' },
      body: { reason: 'decision-material drift on the replayed score', source: 'manual' },
    },
    key,
  );
  cli(['quarantine', 'open', dir, '--claim', 'claim:A', '--reason', 'drift held for review on claim:A', '--key', key]);

  await page.getByTestId('work-journal-toggle').click();
  await page.locator('#wj-dir').fill(dir);
  await page.locator('#wj-trust').fill(trust);
  await page.getByTestId('wj-open').click();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 3 entries', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByTestId('tab-journal').click();

  const view = page.getByRole('region', { name: 'Journal and quarantine' });
  await expect(view.getByTestId('journal-verification')).toContainText('Journal verified: 3 entries');
  const warned = view.locator('[data-testid="journal-finding"][data-rule="RPR-QUAR-008"]');
  await expect(warned).toHaveCount(1);
  await expect(warned).toContainText('warning');
  // The engine's words, as `journal verify` prints them (a backslash of an escape doubled).
  await expect(warned).toContainText(
    String.raw`entry at line 1 (replay-drift): the claim id "claim:A\\x20" begins or ends with whitespace, so it may draw as another claim's (2 entries name it, this one first): read it as shown here, escaped.`,
  );
  await expect(warned).toContainText('at line:1');
  // The case is shown escaped in the queue, apart from `claim:A`.
  const queue = page.getByTestId('case-queue');
  await expect(queue.locator('[data-case="case-1"] td').nth(2)).toHaveText('claim:A\\x20');
  await expect(queue.locator('[data-case="case-2"] td').nth(2)).toHaveText('claim:A');
  await axeBothThemes(page, "the journal view warning of a claim id that may draw as another's");
});

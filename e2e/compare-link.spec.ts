/**
 * The Compare view's permalink (web target): after comparing, the address names both sides
 * (an example's id, a path under the granted folders) with how each ran and its options,
 * never a key; a reload runs both sides again and shows the comparison, with no artifact's
 * banner above it; a side whose trust store is outside the granted folders is said, naming
 * the side and the option, nothing compared, and a reload says the same; a side picked in
 * the window is said to need picking again. Once compared, the address says what each side's
 * run saw: a recipient whose file at a side's path holds other bytes is told which side, what
 * the sharer saw and what this run read. axe on each state.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { axe, axeBothThemes, expect, openExample, ROOT, test, type Served } from './fixtures.js';

test.describe.configure({ timeout: 180_000 });

const hash = (page: Page) => new URLSearchParams(new URL(page.url()).hash.slice(1));

/** Follows a link in this tab: only the fragment changes. */
async function follow(page: Page, served: Served, link: URLSearchParams): Promise<void> {
  await page.evaluate((h) => (location.hash = h), `token=${served.token}&${link.toString()}`);
}

/** Chooses a built-in example and an action for one side of the Compare view. */
async function side(page: Page, which: 'left' | 'right', example: string, run: 'verify' | 'replay' = 'verify') {
  const box = page.getByTestId(`diff-side-${which}`);
  await box.getByLabel(/: compare$/).selectOption('example');
  await box.getByLabel(/: example$/).selectOption(example);
  await box.getByLabel(/: run$/).selectOption(run);
}

/** A folder outside every folder the server grants (its --root is the temp folder). */
function outside(): string {
  const dir = join(ROOT, 'test-results', `compare-link-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

test('a comparison is in the address: a reload runs both sides again and shows it, with no banner above it', async ({
  workbench: page,
}) => {
  // An artifact open: its banner is not the comparison's, and the address names the comparison.
  await openExample(page, 'dumps/intact.dump.json');
  await page.getByTestId('tab-compare').click();
  await side(page, 'left', 'dumps/intact.dump.json');
  await side(page, 'right', 'dumps/whatif/drift.dump.json', 'replay');
  await page
    .getByTestId('diff-side-right')
    .getByLabel(/: what-if \(training\)$/)
    .fill('model=ref-2');
  await page.getByTestId('diff-run').click();
  const view = page.getByTestId('diff-view');
  await expect(view).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('verdict')).toHaveCount(0);
  await expect.poll(() => hash(page).get('left.example')).toBe('dumps/intact.dump.json');
  expect(hash(page).get('view')).toBe('compare');
  expect(hash(page).get('left.mode')).toBe('verify');
  expect(hash(page).get('right.example')).toBe('dumps/whatif/drift.dump.json');
  expect(hash(page).get('right.mode')).toBe('replay');
  expect(hash(page).get('right.whatif')).toBe('model=ref-2');
  expect(hash(page).has('example')).toBe(false);
  expect([...hash(page).keys()].some((k) => k.endsWith('key'))).toBe(false);
  await axeBothThemes(page, 'a comparison named by the address');

  await page.reload();
  await expect(page.getByTestId('tab-compare')).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
  await expect(view).toBeVisible({ timeout: 60_000 });
  await expect(view).toContainText('drift.dump.json (what-if model=ref-2)');
  await expect(view.locator('tr[data-pointer="/details/whatIf"]')).toContainText('added');
  const right = page.getByTestId('diff-side-right');
  await expect(right.getByLabel(/: example$/)).toHaveValue('dumps/whatif/drift.dump.json');
  await expect(right.getByLabel(/: run$/)).toHaveValue('replay');
  await expect(page.getByTestId('verdict')).toHaveCount(0);
  await axe(page, 'a comparison reloaded from its link');
});

test('a side by its path with its trust store: compared from the link; outside the granted folders, said and nothing compared', async ({
  workbench: page,
  served,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-compare-link-'));
  const dump = join(dir, 'intact.dump.json');
  copyFileSync(join(served.examples, 'dumps/intact.dump.json'), dump);
  const trust = join(served.examples, 'dumps/trust-store.json');
  const link = (trustStore: string) =>
    new URLSearchParams({
      view: 'compare',
      'left.path': dump,
      'left.mode': 'verify',
      'left.trustStore': trustStore,
      'right.example': 'dumps/fail/altered-artifact.dump.json',
      'right.mode': 'verify',
    });
  await follow(page, served, link(trust));
  const view = page.getByTestId('diff-view');
  await expect(view).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('diff-side-left').getByLabel(/: path$/)).toHaveValue(dump);
  await expect(page.getByTestId('diff-side-left').getByTestId('diff-side-linked')).toContainText(
    `From the link, this side runs with trustStore ${trust}`,
  );
  // Its trust store reached the engine: the left side passes, as the example on the right fails.
  const verdict = view.locator('tr[data-pointer="/verdict"]');
  await expect(verdict.locator('td').nth(3)).toHaveText('pass');
  await expect(verdict.locator('td').nth(4)).toHaveText('fail');
  await expect.poll(() => hash(page).get('left.trustStore')).toBe(trust);
  // A link that says nothing of what its sides saw opens with no note.
  await expect(page.getByTestId('diff-seen')).toHaveCount(0);
  await axe(page, 'a comparison with a side by its path, from a link');

  const away = join(outside(), 'trust-store.json');
  copyFileSync(trust, away);
  await follow(page, served, link(away));
  const error = page.getByTestId('diff-error');
  await expect(error).toContainText(`The left side, ${dump}, was not run, so nothing was compared`, {
    timeout: 60_000,
  });
  await expect(error).toContainText('the option trustStore');
  await expect(error).toContainText('outside the folders this workbench may read');
  await expect(error).toBeFocused();
  await expect(view).toHaveCount(0);
  await expect.poll(() => hash(page).get('left.trustStore')).toBe(away);
  await axeBothThemes(page, 'a comparison whose side cannot be granted');
  await page.reload();
  await expect(error).toContainText('the option trustStore', { timeout: 60_000 });
  await expect(view).toHaveCount(0);
});

test('a comparison of a file picked in the window: a link cannot reopen it, said, nothing run', async ({
  workbench: page,
  served,
}) => {
  await follow(
    page,
    served,
    new URLSearchParams({
      view: 'compare',
      'left.picked': 'mine.json',
      'left.mode': 'verify',
      'right.example': 'dumps/intact.dump.json',
      'right.mode': 'verify',
    }),
  );
  const error = page.getByTestId('diff-error');
  await expect(error).toHaveText(
    "This link compared the left side, mine.json, picked in the window: a link keeps no file's bytes, so nothing was compared. Pick it again and compare.",
  );
  await expect(error).toBeFocused();
  await expect(page.getByTestId('diff-side-left').getByLabel(/: compare$/)).toHaveValue('file');
  await expect(page.getByTestId('diff-view')).toHaveCount(0);
  await expect(page.getByTestId('job')).toHaveCount(0);
  await axe(page, 'a comparison of a picked file, from a link');
});

/** Compares a file by its path (with its trust store) against an example, from a link; the link the window then writes. */
async function shareComparison(page: Page, served: Served, dump: string): Promise<string> {
  await follow(
    page,
    served,
    new URLSearchParams({
      view: 'compare',
      'left.path': dump,
      'left.mode': 'verify',
      'left.trustStore': join(served.examples, 'dumps/trust-store.json'),
      'right.example': 'dumps/intact.dump.json',
      'right.mode': 'verify',
    }),
  );
  await expect(page.getByTestId('diff-view')).toBeVisible({ timeout: 60_000 });
  // Once both sides ran, the address says what each saw: that is the link shared.
  await expect.poll(() => hash(page).get('left.verdict')).toBe('pass');
  expect(hash(page).get('left.sha256')).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect(hash(page).get('right.verdict')).toBe('pass');
  await expect(page.getByTestId('diff-seen')).toHaveCount(0);
  return page.url();
}

test("a shared comparison whose side's file was replaced since: the recipient is told which side, and what each run read", async ({
  workbench: page,
  served,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-compare-seen-'));
  const recipient = await page.context().newPage();
  try {
    const dump = join(dir, 'intact.dump.json');
    copyFileSync(join(served.examples, 'dumps/intact.dump.json'), dump);
    const shared = await shareComparison(page, served, dump);
    const sharedSha = new URLSearchParams(new URL(shared).hash.slice(1)).get('left.sha256')!;
    // The file at the left side's path is replaced by other bytes; the recipient opens the link.
    copyFileSync(join(served.examples, 'dumps/fail/altered-artifact.dump.json'), dump);
    await recipient.goto(shared);
    await expect(recipient.getByTestId('diff-view')).toBeVisible({ timeout: 60_000 });
    const note = recipient.getByTestId('diff-seen');
    await expect(note).toContainText(
      `The left side: this link was made from a file whose SHA-256 was ${sharedSha} (PASS); the file now at ${dump} is sha256:`,
    );
    await expect(note).toContainText('it is not the file the link was shared from.');
    await expect(note).not.toContainText('The right side');
    await expect(note).toBeFocused();
    await axeBothThemes(recipient, "a shared comparison one of whose sides' files was replaced");
    // The address now says what this run saw, so a reload holds it to that: no note.
    await expect
      .poll(() => new URLSearchParams(new URL(recipient.url()).hash.slice(1)).get('left.sha256'))
      .not.toBe(sharedSha);
    await recipient.reload();
    await expect(recipient.getByTestId('diff-view')).toBeVisible({ timeout: 60_000 });
    await expect(recipient.getByTestId('diff-seen')).toHaveCount(0);
  } finally {
    await recipient.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

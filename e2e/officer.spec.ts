/**
 * The officer's queue through the UI (web target): cases filtered by state and claim and
 * sorted by age; a reviewer key refused for a release before any click, allowed for an
 * uphold; the confirmation showing exactly what will be signed (Cancel writes nothing), then
 * the receipt, still there after a reload of the tab as the receipt of an earlier signing,
 * for that journal only; the training case's evidence in exact decimals. axe on each state.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { axe, expect, ROOT, test, type Served } from './fixtures.js';
import { forgeEntry } from './forge.js';

test.describe.configure({ timeout: 180_000 });

const RATIONALE = 'Replayed under the locked environment twice; the score drift is real and the claim stays held.';

function cli(args: string[]): string {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), ...args], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/**
 * A journal with three open cases, opened by an officer; its trust store also names the
 * server's reviewer key (role reviewer), the only key this server signs with.
 */
function journalWithCases(
  served: Served,
  claims = ['claim:2026-12-0001', 'claim:2026-12-0002', 'claim:2026-12-0003'],
  reviewerStatus = 'active',
): { dir: string; trust: string; root: string } {
  const root = mkdtempSync(join(tmpdir(), 'reprise-e2e-officer-'));
  const trust = join(root, 'trust-store.json');
  const key = join(root, 'officer.key.pem');
  cli([
    'keys',
    'generate',
    '--out',
    key,
    '--role',
    'quarantine-officer',
    '--label',
    'duty officer',
    '--trust-store',
    trust,
  ]);
  const store = JSON.parse(readFileSync(trust, 'utf8')) as { keys: unknown[] };
  const reviewers = JSON.parse(readFileSync(served.reviewerTrustStore, 'utf8')) as { keys: object[] };
  const reviewerKeys = reviewers.keys.map((k) => ({ ...k, status: reviewerStatus }));
  writeFileSync(trust, JSON.stringify({ ...store, keys: [...store.keys, ...reviewerKeys] }, null, 2));
  const dir = join(root, 'journal');
  for (const claim of claims) openThroughCli(dir, claim, key, trust);
  return { dir, trust, root };
}

/** Opens a case on `claim` in the journal `dir` through the CLI, signed with `key`. */
function openThroughCli(dir: string, claim: string, key: string, trust?: string): void {
  cli([
    'quarantine',
    'open',
    dir,
    '--claim',
    claim,
    '--reason',
    `drift held for review on ${claim}`,
    '--key',
    key,
    ...(trust ? ['--trust-store', trust] : []),
  ]);
}

async function openInHeader(page: Page, dir: string, trust: string, key: string): Promise<void> {
  await page.getByTestId('work-journal-toggle').click();
  await page.locator('#wj-dir').fill(dir);
  await page.locator('#wj-trust').fill(trust);
  await page.getByTestId('wj-open').click();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 3 entries', { timeout: 30_000 });
  await page.getByTestId('wj-key').selectOption(key);
  await page.getByRole('button', { name: 'Done' }).click();
  // The form is gone with its Done button: focus returns to the toggle that opened it, not to <body>.
  await expect(page.getByTestId('work-journal')).toHaveCount(0);
  await expect(page.getByTestId('work-journal-toggle')).toBeFocused();
  await expect(page.getByTestId('work-journal-toggle')).toHaveAttribute('aria-expanded', 'false');
}

test("the officer's queue: filters and sort, a reviewer key refused before the click, the confirmation of what is signed", async ({
  workbench: page,
  served,
}) => {
  const { dir, trust } = journalWithCases(served);
  await openInHeader(page, dir, trust, served.reviewerKey);
  await page.getByTestId('tab-journal').click();
  const queue = page.getByTestId('case-queue');
  await expect(queue.locator('tbody tr')).toHaveCount(3);
  // Filter by claim, by state; sort by age (oldest first, then newest first).
  await page.getByTestId('queue-claim').fill('0002');
  await expect(queue.locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('queue-count')).toHaveText('1 of 3 cases shown');
  await page.getByTestId('queue-claim').fill('');
  await page.getByTestId('queue-state').selectOption('released');
  await expect(queue.locator('tbody tr')).toHaveCount(0);
  await page.getByTestId('queue-state').selectOption('open');
  await page.getByTestId('queue-sort-age').click();
  await expect(queue.locator('tbody tr').first()).toHaveAttribute('data-case', 'case-0');
  await page.getByTestId('queue-sort-age').click();
  await expect(queue.locator('tbody tr').first()).toHaveAttribute('data-case', 'case-2');
  await expect(page.getByTestId('queue-sort-age').locator('..')).toHaveAttribute('aria-sort', 'descending');
  await axe(page, 'the queue filtered and sorted');

  // A release is an officer's: the reviewer key is refused before anything is clicked.
  await queue.locator('[data-case="case-1"]').click();
  await expect(page.getByTestId('decision-key')).toContainText('reviewer');
  await expect(page.getByTestId('decision-key')).toContainText(served.reviewerKeyId);
  await page.getByRole('radio', { name: 'release' }).check();
  const sign = page.getByTestId('sign-decision');
  const refusal = page.getByTestId('decision-key-refused');
  await expect(refusal).toContainText('is a reviewer key');
  await expect(refusal).toContainText('a release is signed only with a quarantine-officer key');
  await expect(sign).toBeDisabled();
  await expect(sign).toHaveAttribute('aria-describedby', 'decision-key-refused');
  await axe(page, 'a reviewer key refused for a release');

  // An uphold a reviewer may sign: the confirmation shows exactly what will be signed.
  await page.getByRole('radio', { name: 'uphold' }).check();
  await expect(refusal).toHaveCount(0);
  await page.getByTestId('rationale').fill(RATIONALE);
  const entries = join(dir, 'entries.jsonl');
  const before = readFileSync(entries);
  await sign.click();
  const dialog = page.getByTestId('confirm-decision');
  await expect(dialog).toBeVisible();
  const fields = page.getByTestId('confirm-decision-fields');
  await expect(fields).toContainText('quarantine-uphold');
  await expect(fields).toContainText('claim:2026-12-0002');
  await expect(fields).toContainText('case-1 (open → upheld)');
  await expect(fields).toContainText(RATIONALE);
  await expect(page.getByTestId('confirm-decision-key')).toContainText(served.reviewerKeyId);
  await expect(page.getByTestId('confirm-decision-key')).toContainText('reviewer');
  await expect(fields).toContainText(dir);
  await axe(page, 'the confirmation of a decision');
  await page.getByTestId('confirm-decision-cancel').click();
  await expect(dialog).toHaveCount(0);
  expect(readFileSync(entries).equals(before)).toBe(true);

  await sign.click();
  await page.getByTestId('confirm-decision-sign').click();
  const receipt = page.getByTestId('receipt');
  await expect(receipt).toContainText('case-1 is now upheld', { timeout: 30_000 });
  await expect(receipt).toBeFocused();
  await expect(page.getByTestId('receipt-signer-key')).toHaveText(served.reviewerKeyId);
  await page.getByTestId('queue-state').selectOption('upheld');
  await expect(queue.locator('tbody tr')).toHaveCount(1);
  await axe(page, 'a decision signed after its confirmation');
});

test("the training case's evidence in exact decimals: Δ 0.1, not 0.09999999999999998", async ({ workbench: page }) => {
  await page.getByTestId('tab-journal').click();
  await page.getByTestId('demo-journal').click();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 2 entries', { timeout: 30_000 });
  await page.getByTestId('case-queue').locator('[data-case="case-0"]').click();
  const deltas = page.getByTestId('evidence-deltas');
  await expect(deltas).toContainText('CONFIDENCE-SCORE');
  await expect(page.getByTestId('evidence-delta-exact')).toHaveText('0.1');
  await expect(deltas).toContainText('0.7193599213366195');
  await expect(deltas).not.toContainText('0.09999999999999998');
  await expect(page.getByTestId('case-evidence')).not.toContainText('0.09999999999999998');
  await expect(page.getByTestId('decision-key')).toContainText('training officer · quarantine-officer');
  await axe(page, 'evidence in exact decimals');
});

const RELEASE = 'Replayed twice under the locked environment; the drift stays within reviewer tolerance.';

test('a release signed with the officer key: focus moves to its receipt once it is shown, never to <body>', async ({
  workbench: page,
}) => {
  await page.getByTestId('tab-journal').click();
  await page.getByTestId('demo-journal').click();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 2 entries', { timeout: 30_000 });
  await page.getByTestId('case-queue').locator('[data-case="case-0"]').click();
  await expect(page.getByTestId('decision-key')).toContainText('training officer · quarantine-officer');
  await page.getByRole('radio', { name: 'release' }).check();
  await page.getByTestId('rationale').fill(RELEASE);
  await page.getByTestId('sign-decision').click();
  await page.getByTestId('confirm-decision-sign').click();
  const receipt = page.getByTestId('receipt');
  await expect(receipt).toContainText('case-0 is now released', { timeout: 30_000 });
  await expect(receipt).toBeFocused();
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('decision-receipt');
  // The released case drops its decision form; focus stays on the receipt once the journal is verified again.
  await expect(page.getByTestId('sign-decision')).toHaveCount(0);
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 3 entries');
  await expect(receipt).toBeFocused();
  await axe(page, 'a release signed, its receipt focused');
});

test("a reload keeps the officer's receipt, said to be an earlier signing's, and only for the journal it was signed into", async ({
  workbench: page,
}) => {
  // Connected: the window writes its address (the view a reload shows) once the engine has answered.
  await expect(page.getByTestId('engine')).toContainText(/engine \d/, { timeout: 30_000 });
  await page.getByTestId('tab-journal').click();
  await page.getByTestId('demo-journal').click();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 2 entries', { timeout: 30_000 });
  const dir = (await page.getByTestId('journal-dir').textContent())!;
  await page.getByTestId('case-queue').locator('[data-case="case-0"]').click();
  await page.getByRole('radio', { name: 'release' }).check();
  await page.getByTestId('rationale').fill(RELEASE);
  await page.getByTestId('sign-decision').click();
  await page.getByTestId('confirm-decision-sign').click();
  await expect(page.getByTestId('receipt')).toContainText('case-0 is now released', { timeout: 30_000 });
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 3 entries');
  const entryHash = (await page.getByTestId('receipt-entry-hash').textContent())!;
  await expect.poll(() => new URL(page.url()).hash).toContain('view=journal');

  await page.reload();
  await expect(page.getByTestId('engine')).toContainText(/engine \d/, { timeout: 30_000 });
  // The header opens the journal again and verifies it: the receipt is shown once it holds its entry.
  await expect(page.getByTestId('tab-journal')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('journal-dir')).toHaveText(dir, { timeout: 30_000 });
  const earlier = page.getByTestId('earlier-receipt');
  await expect(earlier).toContainText('Anchor receipt of an earlier signing', { timeout: 30_000 });
  await expect(page.getByTestId('earlier-receipt-note')).toContainText(
    'This decision was signed in this tab before the page was reloaded',
  );
  await expect(earlier).toContainText('case-0 is now released');
  await expect(page.getByTestId('receipt-entry-hash')).toHaveText(entryHash);
  await expect(page.getByTestId('receipt')).toHaveCount(0);
  await axe(page, "the officer's receipt after a reload, as an earlier signing's");

  // Another journal opened: the receipt is not its, it goes, and a reload does not bring it back.
  await page.getByTestId('demo-journal').click();
  await expect(page.getByTestId('journal-dir')).not.toHaveText(dir, { timeout: 30_000 });
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 2 entries', { timeout: 30_000 });
  await expect(earlier).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 2 entries', { timeout: 30_000 });
  await page.waitForTimeout(1_000);
  await expect(earlier).toHaveCount(0);
});

const BIDI_CLAIM = 'claim:\u202egnp.exe';
const BIDI_SHOWN = 'claim:\\u202egnp.exe';

test('what the confirmation shows is what is signed: the case by its opening entry, the key its file holds now, a bidi claim escaped; Space chooses a row', async ({
  workbench: page,
  served,
}) => {
  const { dir, trust, root } = journalWithCases(served, ['claim:2026-12-0001']);
  const officerKey = join(root, 'officer.key.pem');
  // The writer refuses a bidi claim id for a new case (RPR-QUAR-008); a journal written before the
  // rule, or by another tool, may hold one: its case-1 is opened around the writer.
  await forgeEntry(
    dir,
    {
      kind: 'quarantine-open',
      subject: { claimRef: BIDI_CLAIM },
      body: { reason: `drift held for review on ${BIDI_CLAIM}`, source: 'manual' },
    },
    officerKey,
  );
  openThroughCli(dir, 'claim:exe.png', officerKey, trust);
  // Another journal by the same officer with cases under the same numbers: it will be put in the folder's place.
  const other = { dir: join(root, 'other') };
  for (const claim of ['claim:OTHER-0', 'claim:OTHER-1', 'claim:OTHER-2']) openThroughCli(other.dir, claim, officerKey);
  await openInHeader(page, dir, trust, served.reviewerKey);
  await page.getByTestId('tab-journal').click();
  const queue = page.getByTestId('case-queue');

  // A claim with a bidi override reads as its escape, never as the claim it looks like.
  await expect(queue.locator('[data-case="case-1"] td').nth(2)).toHaveText(BIDI_SHOWN);
  await page.getByTestId('queue-claim').fill('exe.png');
  await expect(queue.locator('tbody tr')).toHaveCount(1);
  await expect(queue.locator('tbody tr')).toHaveAttribute('data-case', 'case-2');
  await page.getByTestId('queue-claim').fill('\\u202e');
  await expect(queue.locator('tbody tr')).toHaveAttribute('data-case', 'case-1');
  await page.getByTestId('queue-claim').fill('');

  // Space chooses the focused row, as Enter does; the chosen row says so (aria-current), not by colour alone.
  const row = queue.locator('[data-case="case-1"]');
  await row.focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('case-detail')).toContainText('case-1');
  await expect(row).toHaveAttribute('aria-current', 'true');
  await expect(queue.locator('[aria-current]')).toHaveCount(1);
  await expect(page.getByTestId('case-claim')).toHaveText(BIDI_SHOWN);
  // As `quarantine list` warns: such an id may draw as another claim's.
  await expect(page.getByTestId('case-claim-warning')).toContainText(
    "this claim id holds the control character U+202E, so it may draw as another claim's",
  );
  await axe(page, 'a case with a bidi claim chosen with Space');

  // The confirmation: the claim escaped and said so, the case's opening entry.
  await page.getByRole('radio', { name: 'uphold' }).check();
  await page.getByTestId('rationale').fill(RATIONALE);
  await page.getByTestId('sign-decision').click();
  const claim = page.getByTestId('confirm-decision-claim');
  await expect(claim).toContainText(BIDI_SHOWN);
  // One warning, in one sentence: the escape and the rule it breaks (RPR-QUAR-008).
  await expect(page.getByTestId('confirm-decision-claim-warning')).toHaveCount(1);
  await expect(claim).toContainText(
    "holds the control character U+202E, so it may draw as another claim's: read it as shown, escaped; the signed claim is these code points (RPR-QUAR-008",
  );
  await axe(page, 'the confirmation of a decision on a bidi claim');

  // The folder now holds the other journal (a restored backup): its case-1 is not the case shown.
  const otherEntries = readFileSync(join(other.dir, 'entries.jsonl'));
  rmSync(dir, { recursive: true });
  cpSync(other.dir, dir, { recursive: true });
  await page.getByTestId('confirm-decision-sign').click();
  const error = page.getByTestId('journal-error');
  await expect(error).toContainText('case-1 is not the case shown', { timeout: 30_000 });
  await expect(error).toContainText('nothing was signed');
  await expect(error).toBeFocused();
  expect(readFileSync(join(dir, 'entries.jsonl')).equals(otherEntries)).toBe(true);
  await axe(page, 'a decision refused: the journal holds another case under the number');

  // The key: read again as the confirmation opens, and held to at signing.
  const original = readFileSync(served.reviewerKey);
  const stranger = join(root, 'stranger.key.pem');
  const made = JSON.parse(cli(['keys', 'generate', '--out', stranger, '--role', 'reviewer', '--json'])) as {
    keyId: string;
  };
  try {
    await queue.locator('[data-case="case-1"]').click();
    await page.getByRole('radio', { name: 'uphold' }).check();
    await page.getByTestId('rationale').fill(RATIONALE);
    writeFileSync(served.reviewerKey, readFileSync(stranger));
    await page.getByTestId('sign-decision').click();
    const key = page.getByTestId('confirm-decision-key');
    await expect(key).toContainText(made.keyId);
    await expect(key).not.toContainText(served.reviewerKeyId);
    await expect(key).toContainText('not in the trust store');
    await expect(page.getByTestId('decision-key')).toContainText(made.keyId);
    await axe(page, 'the confirmation showing the key its file holds now');
    // The file changes again after it was shown: the engine refuses, nothing is written.
    writeFileSync(served.reviewerKey, original);
    const before = readFileSync(join(dir, 'entries.jsonl'));
    await page.getByTestId('confirm-decision-sign').click();
    await expect(error).toContainText('the key file changed since it was shown', { timeout: 30_000 });
    await expect(error).toContainText(`the confirmation showed ${made.keyId}`);
    expect(readFileSync(join(dir, 'entries.jsonl')).equals(before)).toBe(true);
    await axe(page, 'a decision refused: the key file changed after it was shown');
  } finally {
    writeFileSync(served.reviewerKey, original);
  }
});

test('a revoked key is named revoked in the key list, the form and refused before the click', async ({
  workbench: page,
  served,
}) => {
  const { dir, trust } = journalWithCases(served, undefined, 'revoked');
  await page.getByTestId('work-journal-toggle').click();
  await page.locator('#wj-dir').fill(dir);
  await page.locator('#wj-trust').fill(trust);
  await page.getByTestId('wj-open').click();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 3 entries', { timeout: 30_000 });
  await expect(page.getByTestId('wj-key').locator('option', { hasText: 'reviewer, REVOKED' })).toHaveCount(1);
  await page.getByTestId('wj-key').selectOption(served.reviewerKey);
  await expect(page.getByTestId('wj-key-signer')).toContainText('reviewer, REVOKED');
  await axe(page, 'a revoked key in the key list');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('work-journal-toggle')).toBeFocused();
  await page.getByTestId('tab-journal').click();
  await page.getByTestId('case-queue').locator('[data-case="case-0"]').click();
  await page.getByRole('radio', { name: 'uphold' }).check();
  await expect(page.getByTestId('decision-key')).toContainText('reviewer, REVOKED');
  const refusal = page.getByTestId('decision-key-refused');
  await expect(refusal).toContainText("is revoked in the journal's trust store: only an active key signs");
  const sign = page.getByTestId('sign-decision');
  await expect(sign).toBeDisabled();
  await expect(sign).toHaveAttribute('aria-describedby', 'decision-key-refused');
  await axe(page, 'a revoked key refused before the click');
});

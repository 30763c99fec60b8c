/**
 * The workbench end to end, on both targets (web host in Chromium; Electron when its
 * binary exists): every example kind's verdict and decisive finding, the chain, a finding
 * in the editor, a replay with its diff, a cancelled long job, a signed release verified
 * from the CLI, axe on every view, and the screenshots under docs/screenshots/.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { axe, axeBothThemes, openExample, expect, ROOT, SCREENSHOTS, test } from './fixtures.js';

// Nothing is excluded: Monaco's editors and uPlot's charts are part of what a person uses.
// docs/screenshots/ is refreshed only by `npm run screenshots` (which sets this variable):
// a normal run of the suite leaves the tracked tree as it found it.
async function shot(page: Page, info: TestInfo, name: string): Promise<void> {
  if (SCREENSHOTS && info.project.name === 'web')
    await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', `${name}.png`), fullPage: true });
}

test.describe.configure({ timeout: 180_000 });

// A normal run leaves docs/screenshots/ as it found it (only `npm run screenshots` writes there).
const SHOT_DIR = join(ROOT, 'docs', 'screenshots');
const shotTimes = () => readdirSync(SHOT_DIR).map((f) => `${f} ${statSync(join(SHOT_DIR, f)).mtimeMs}`);
const shotsBefore = shotTimes();
test.afterAll(() => {
  if (!SCREENSHOTS) expect(shotTimes()).toEqual(shotsBefore);
});

const KINDS: { path: string; verdict: string; rule: string | null; kind: string; auth?: RegExp }[] = [
  { path: 'dumps/intact.dump.json', verdict: 'PASS', rule: null, kind: 'replay-dump', auth: /Trusted signer/ },
  {
    path: 'dumps/fail/altered-artifact.dump.json',
    verdict: 'FAIL',
    rule: 'RDS-F001',
    kind: 'replay-dump',
    auth: /^Authenticity: Signature not accepted/,
  },
  {
    path: 'dumps/unavailable/unknown-key.rom.md',
    verdict: 'UNAVAILABLE',
    rule: 'RDS-007',
    kind: 'replay-dump',
    auth: /Unknown signer/,
  },
  {
    path: 'tg/missing-pin/manifest.json',
    verdict: 'FAIL',
    rule: 'RPR-TG-015',
    kind: 'tg-replay-manifest',
    auth: /TG replay manifest carries no signature/,
  },
  { path: 'tg/bundle.json', verdict: 'PASS', rule: null, kind: 'tg-policy-bundle' },
  { path: 'acgp/seed-eval.json', verdict: 'FAIL', rule: 'RPR-ACGP-005', kind: 'acgp-eval' },
  {
    path: 'acgp/trace-missing-timestamp.jsonl',
    verdict: 'UNAVAILABLE',
    rule: 'RPR-ACGP-024',
    kind: 'acgp-trace',
    auth: /ACGP traces carry no signature/,
  },
  { path: 'packages/zip/043-dotdot.nemosyne', verdict: 'FAIL', rule: 'RPR-ZIP-043', kind: 'nemosyne-package' },
  {
    path: 'packages/intact/v2-no-digest.nemosyne',
    verdict: 'PASS',
    rule: null,
    kind: 'nemosyne-package',
    auth: /origin not established/,
  },
  {
    path: 'unknown/not-an-artifact.json',
    verdict: 'FAIL',
    rule: 'RPR-KIND-001',
    kind: 'unknown',
    auth: /makes no authenticity statement/,
  },
];

test('opens each example kind: verdict, kind, decisive finding, authenticity', async ({ workbench: page }, info) => {
  await expect(page.getByTestId('engine')).toContainText(/engine \d+\.\d+\.\d+/);
  await axe(page, 'open');
  await shot(page, info, 'open');
  for (const k of KINDS) {
    await openExample(page, k.path);
    const banner = page.getByTestId('verdict');
    await expect(banner.locator('.verdict-word')).toHaveText(k.verdict);
    await expect(banner.locator('.kind')).toHaveText(k.kind);
    if (k.rule) await expect(page.getByTestId('decisive')).toContainText(k.rule);
    else await expect(page.getByTestId('decisive')).toContainText('Every check passed');
    if (k.auth) await expect(page.getByTestId('authenticity')).toContainText(k.auth);
  }
});

test('browse the chain, open a finding in the editor at its region', async ({ workbench: page }, info) => {
  await openExample(page, 'dumps/fail/altered-artifact.dump.json');
  await expect(page.getByTestId('findings')).toContainText('RDS-F001');
  await axe(page, 'findings');
  await shot(page, info, 'findings');
  // The findings table sorts and filters.
  await page.getByRole('button', { name: /^Rule/ }).click();
  await expect(page.locator('th[aria-sort="ascending"]')).toHaveCount(1);
  await page.getByTestId('findings-search').fill('zzzz-no-such-message');
  await expect(page.getByTestId('findings').locator('tbody tr')).toHaveCount(0);
  await page.getByTestId('findings-search').fill('');

  // The altered artifact's own finding (the sorted table lists RDS-006 before it).
  await page.getByTestId('findings').locator('tbody tr', { hasText: 'RDS-F001' }).first().click();
  await expect(page.getByTestId('tab-chain')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('selected-finding')).toContainText('RDS-F001');
  const editor = page.getByTestId('artifact-editor');
  await expect(editor.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
  await expect(editor).toHaveAttribute('data-pointer', /^\//);
  await expect(editor.locator('.finding-region-inline').first()).toBeVisible();
  // The finding's region over the selection, in both themes (strings, numbers, keys).
  await axeBothThemes(page, "a finding's region in the editor");

  // The chain as a tree: status in text as well as colour; a mismatched node is shown.
  const tree = page.getByTestId('chain-tree');
  await expect(tree.locator('[role="treeitem"]').first()).toBeVisible();
  await expect(tree).toContainText(/✗ mismatch|\? missing/);
  // Each node once (12 nodes, 12 tree items), and one Tab stop.
  await expect(tree.locator('[role="treeitem"]')).toHaveCount(12);
  await expect(tree.locator('[role="treeitem"][tabindex="0"]')).toHaveCount(1);
  await tree.locator('.tree-row.mismatch, .tree-row.missing').first().click();
  await expect(page.getByTestId('node-detail')).toContainText('Recomputed');
  await page.getByRole('button', { name: 'Canonical (RFC 8785)' }).click();
  await expect(editor.locator('.monaco-editor')).toBeVisible();
  await axeBothThemes(page, 'chain');
  await shot(page, info, 'chain');
  await page.getByRole('button', { name: 'Table', exact: true }).click();
  await expect(page.getByTestId('chain').locator('tbody tr').first()).toBeVisible();
});

test('replay, what-if demonstration, the expression diff and the trainer charts', async ({ workbench: page }, info) => {
  // The what-if example is badged with what it shows: it opens under its own substitution.
  await page.getByTestId('tab-open').click();
  const item = page.locator('li', { has: page.locator('[data-example="dumps/whatif/drift.dump.json"]') });
  await expect(item.locator('.tag.fail')).toHaveText('fail');
  await expect(item.locator('.tag.demo')).toHaveText('what-if model=ref-2');
  await openExample(page, 'dumps/whatif/drift.dump.json');
  await expect(page.getByTestId('verdict').locator('.verdict-word')).toHaveText('FAIL');
  await expect(page.getByTestId('verdict')).toContainText('DEMONSTRATION (what-if)');
  await page.getByTestId('tab-trainer').click();
  await expect(page.getByTestId('demo-banner')).toContainText('DEMONSTRATION');
  await page.getByTestId('whatif-model').selectOption('ref-2');
  await page.getByTestId('run-whatif').click();
  await expect(page.getByTestId('verdict').locator('.verdict-word')).toHaveText('FAIL', { timeout: 30_000 });
  await expect(page.getByTestId('verdict')).toContainText('DEMONSTRATION (what-if)');
  await expect(page.getByTestId('decisive')).toContainText('RDS-F005');
  await axe(page, 'trainer');
  await page.getByTestId('tab-replay').click();
  await expect(page.getByTestId('comparisons')).toContainText('expression');
  const diff = page.getByTestId('diff-editor');
  await expect(diff.locator('.monaco-diff-editor')).toBeVisible({ timeout: 30_000 });
  // The diff editor computed the differences (it needs its worker to do so).
  await expect(diff.locator('.line-insert, .char-insert, .line-delete, .char-delete').first()).toBeAttached({
    timeout: 30_000,
  });
  await axe(page, 'replay');
  await shot(page, info, 'replay');
  // Shown again after another view, both sides of the diff keep their names.
  await page.getByTestId('tab-findings').click();
  await page.getByTestId('tab-replay').click();
  await expect(diff.locator('.monaco-diff-editor')).toBeVisible();
  await page.waitForTimeout(300);
  await expect(diff.getByRole('textbox', { name: 'Original expression (recorded)' })).toBeAttached();
  await expect(diff.getByRole('textbox', { name: 'Replayed expression' })).toBeAttached();
  await axe(page, 'replay-revisited');

  // A TG manifest: drift events with their routing, comparisons filtered by mode and status.
  await openExample(page, 'tg/banded-drift-material/manifest.json');
  await page.getByTestId('tab-replay').click();
  // One drift event (x3) and one routing decision, each drawn as what it is: no blank drift row. The
  // trust score's delta is exactly ε (0.02 in exact decimal), so it passes and is no drift.
  await expect(page.getByTestId('drift-events').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('drift-events').locator('tbody tr').filter({ hasText: 'x3' })).toContainText(
    'HUMAN_REVIEW',
  );
  await expect(page.getByTestId('routing-events').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('routing-events')).toContainText('HUMAN_REVIEW');
  await expect(page.getByTestId('routing-events')).toContainText(
    'decision-material drift of comp.TG.OUTPUT.CONFIDENCE-SCORE.v1_0 (x3)',
  );
  await axe(page, 'replay-tg');
  await page.getByTestId('filter-mode').selectOption('BANDED');
  await page.getByTestId('filter-status').selectOption('fail');
  await expect(page.getByTestId('comparison-count')).toContainText(/^\d+ of \d+ comparisons/);
  await expect(page.getByTestId('comparisons').locator('.vbody [role="row"]').first()).toContainText('fail');
  await page.getByTestId('tab-trainer').click();
  // Not a what-if report: no DEMONSTRATION banner.
  await expect(page.getByTestId('demo-banner')).toHaveCount(0);
  await expect(page.getByTestId('chart-delta').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('chart-drift').locator('canvas')).toBeVisible();
  // The engine's drift rate per model version against the bundle's governed maximum, in words.
  await expect(page.getByTestId('drift-governed')).toContainText(
    'Governed maximum drift rate 10% over the last 50 BANDED replays of a version.',
  );
  await expect(page.getByTestId('drift-governed')).toContainText(
    'Exceeding it: reprise.reference@ref-1 (1 of 1 = 100%).',
  );
  await expect(page.getByTestId('chart-drift')).toContainText('governed max');
  await shot(page, info, 'trainer-tg');

  await openExample(page, 'acgp/trace-clean.jsonl');
  await page.getByTestId('tab-trainer').click();
  await expect(page.getByTestId('chart-debt').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('chart-debt')).toContainText('threshold restricted_mode');
  await expect(page.getByTestId('debt-disagreements')).toContainText('agrees');
  await axe(page, 'trainer-acgp');
  await shot(page, info, 'trainer');

  // A tampered EVAL 8: recorded 8.6 against recomputed 7.6, marked, with its Δ.
  await openExample(page, 'acgp/trace-tampered-post.jsonl');
  await page.getByTestId('tab-trainer').click();
  await expect(page.getByTestId('chart-debt')).toContainText('recomputed trust debt');
  const row = page.getByTestId('debt-disagreements').locator('tbody tr');
  await expect(row).toHaveCount(1);
  await expect(row).toHaveText(/^EVAL 8\s*8\.6\s*7\.6\s*1$/);
  // No what-if pickers for a trace: they would run a replay that substitutes nothing.
  await expect(page.getByTestId('whatif-not-applicable')).toContainText(
    'this artifact (acgp-trace) is replayed as recorded',
  );
  await expect(page.getByTestId('whatif-model')).toHaveCount(0);
  await axe(page, 'trainer-acgp-tampered');
});

test('during a job the examples cannot start another; after it they can', async ({ workbench: page }) => {
  // A picked file sent at 2 MB/s: its job follows the arriving bytes for seconds.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 2_000_000,
  });
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-busy-'));
  const f = join(dir, 'slow.json');
  writeFileSync(f, JSON.stringify({ type: 'not-a-kind', pad: 'x'.repeat(16 * 1024 * 1024) }));
  await page.locator('#file-input').setInputFiles(f);
  await expect(page.getByTestId('job')).toBeVisible({ timeout: 10_000 });
  // One disabled fieldset holds them all.
  const anExample = page.locator('[data-example="unknown/not-an-artifact.json"]');
  await expect(anExample).toBeDisabled();
  // Muted by colour, not faded: fading (opacity) made Chromium lay the whole list out again as the job started.
  await expect(anExample).toHaveCSS('opacity', '1');
  await page.getByTestId('cancel').click();
  await expect(page.getByTestId('job')).toHaveCount(0);
  await expect(anExample).toBeEnabled();
});

test('cancel a long job: the worker stops and the window stays usable', async ({ workbench: page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-'));
  const big = join(dir, 'big.json');
  writeFileSync(big, '[' + '"0123456789abcdef0123456789abcdef0123456789abcdef",'.repeat(2_400_000) + '0]');
  await page.getByTestId('open-path').fill(big);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('job')).toBeVisible();
  await page.getByTestId('cancel').click();
  await expect(page.getByTestId('job-note')).toContainText('Cancelled');
  await expect(page.getByTestId('job')).toHaveCount(0);
  // The replaced worker answers the next job.
  await openExample(page, 'unknown/not-an-artifact.json');
  await expect(page.getByTestId('decisive')).toContainText('RPR-KIND-001');
});

test('record a rationale, release a case, see the receipt, verify the journal from the CLI', async ({
  workbench: page,
}, info) => {
  // One journal in the window: the header names it, and the Journal view shows its cases.
  await expect(page.getByTestId('work-journal-status')).toHaveText('no journal open');
  await page.getByTestId('tab-journal').click();
  await page.getByTestId('demo-journal').click();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 2 entries');
  const queue = page.getByTestId('case-queue');
  await expect(queue.locator('tbody tr')).toHaveCount(2);
  await queue.locator('[data-case="case-0"]').click();
  await expect(page.getByTestId('case-evidence')).toContainText('ACCEPT_WITH_CONDITIONS');
  await expect(page.getByTestId('decision-key')).toContainText('officer');
  // A thin rationale is refused before anything is signed; no receipt appears.
  await page.getByTestId('rationale').fill('ok');
  await page.getByTestId('sign-decision').click();
  await expect(page.locator('#rationale-help')).toContainText('at least 20 characters');
  await expect(page.getByTestId('receipt')).toHaveCount(0);
  await axe(page, 'journal');
  await page
    .getByTestId('rationale')
    .fill('Replayed twice under the locked environment; the drift stays within reviewer tolerance.');
  // Cancel signs nothing and returns focus to the button that opened the confirmation (lib/focus.ts).
  const open = page.getByTestId('sign-decision');
  await open.click();
  await expect(page.locator('#confirm-decision-h')).toBeFocused();
  await page.getByTestId('confirm-decision-cancel').click();
  await expect(page.getByTestId('confirm-decision')).toHaveCount(0);
  await expect(open).toBeFocused();
  await expect(page.getByTestId('receipt')).toHaveCount(0);
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 2 entries');
  await open.click();
  await page.getByTestId('confirm-decision-sign').click();
  const receipt = page.getByTestId('receipt');
  await expect(receipt).toContainText('case-0 is now released');
  // The release is signed: focus is on its receipt, never left at <body>.
  await expect(receipt).toBeFocused();
  await expect(receipt).toContainText('verified against the signed checkpoint');
  await expect(receipt).toContainText(/sha256:[0-9a-f]{64}/);
  await expect(queue.locator('[data-case="case-0"]')).toContainText('released');
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 3 entries');
  await shot(page, info, 'journal');
  const dir = (await page.getByTestId('journal-dir').textContent())!;
  const trust = (await page.getByTestId('journal-trust').textContent())!;
  const cli = spawnSync(
    process.execPath,
    [join(ROOT, 'bin', 'reprise.js'), 'journal', 'verify', dir, '--trust-store', trust, '--json'],
    { encoding: 'utf8' },
  );
  expect(cli.status, cli.stderr).toBe(0);
  expect(cli.stdout).toContain('"verdict": "pass"');
});

test('export view, dark theme, keyboard navigation of the views', async ({ workbench: page }, info) => {
  await openExample(page, 'dumps/fail/outcome-mismatch.dump.json');
  await page.getByTestId('tab-export').click();
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-html').click()]);
  const html = await (await dl.createReadStream()).toArray().then((c) => Buffer.concat(c).toString('utf8'));
  expect(html).toContain('RDS-F005');
  expect(html).not.toMatch(/<script|src=|href=/);
  const [dj] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  const json = JSON.parse(
    await (await dj.createReadStream()).toArray().then((c) => Buffer.concat(c).toString('utf8')),
  ) as { verdict: string };
  expect(json.verdict).toBe('fail');
  await axe(page, 'export');
  await shot(page, info, 'export');
  await page.getByTestId('theme').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByTestId('tab-export').focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('tab-journal')).toBeFocused();
  await page.keyboard.press('Alt+3');
  await expect(page.getByTestId('tab-findings')).toHaveAttribute('aria-selected', 'true');
  await axe(page, 'findings-dark');
  await shot(page, info, 'findings-dark');
  await page.keyboard.press('Alt+2');
  await axe(page, 'chain-dark');
});

test('attestation export: the engine signs a TG replay with the reviewer key, the CLI verifies the saved envelope', async ({
  workbench: page,
  served,
}, info) => {
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-attest-'));
  // The server signs only with keys named on its command line (--key): the fixture made this one.
  const key = served.reviewerKey;
  const trust = served.reviewerTrustStore;
  const keyId = served.reviewerKeyId;
  // Not offered for a dump.
  await openExample(page, 'dumps/intact.dump.json');
  await page.getByTestId('tab-export').click();
  await expect(page.getByTestId('export-attestation')).toHaveCount(0);
  await openExample(page, 'tg/exact-intact/manifest.json');
  await page.getByTestId('tab-export').click();
  await page.locator('#reviewer-key').fill(key);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-attestation').click()]);
  const file = join(dir, dl.suggestedFilename());
  await dl.saveAs(file);
  expect(dl.suggestedFilename()).toBe('manifest.json.attestation.dsse.json');
  await expect(page.getByTestId('attestation-key')).toHaveText(keyId);
  const digest = 'sha256:' + createHash('sha256').update(readFileSync(file)).digest('hex');
  await expect(page.getByTestId('attestation-digest')).toHaveText(digest);
  // Verified against the manifest it names (without one an attestation is never a PASS).
  const exDir = mkdtempSync(join(tmpdir(), 'reprise-e2e-att-'));
  expect(spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), 'examples', exDir]).status).toBe(0);
  const manifest = join(exDir, 'tg', 'exact-intact', 'manifest.json');
  const v = spawnSync(
    process.execPath,
    [join(ROOT, 'bin', 'reprise.js'), 'attest', '--verify', file, '--trust-store', trust, '--manifest', manifest],
    { encoding: 'utf8' },
  );
  expect(v.status, v.stdout + v.stderr).toBe(0);
  expect(v.stdout).toContain(`signed by ${keyId}`);
  await axe(page, 'export-attestation');
  await shot(page, info, 'export-attestation');
});

test('drag and drop a file onto the drop zone', async ({ workbench: page }) => {
  const dt = await page.evaluateHandle(() => {
    const d = new DataTransfer();
    d.items.add(new File(['{"a":1,"a":2}'], 'dropped.json', { type: 'application/json' }));
    return d;
  });
  await page.getByTestId('dropzone').dispatchEvent('dragover', { dataTransfer: dt });
  await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer: dt });
  await expect(page.getByTestId('verdict').locator('.verdict-word')).toHaveText('FAIL');
  await expect(page.getByTestId('verdict')).toContainText('dropped.json');
  await expect(page.getByTestId('verdict')).toContainText('matches the hash computed in this window');
});

test('open by path with a trust store: the signer is trusted only when the store names it; a field the kind does not read is said', async ({
  workbench: page,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-ex-'));
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), 'examples', dir], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const dump = join(dir, 'dumps', 'intact.dump.json');
  await page.getByTestId('open-path').fill(dump);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('verdict').locator('.verdict-word')).not.toHaveText('PASS');
  await page.getByTestId('tab-open').click();
  await page.getByText('Engine options for the files you open').click();
  await page.locator('#opt-trust').fill(join(dir, 'dumps', 'trust-store.json'));
  await page.getByTestId('open-path').fill(dump);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('verdict').locator('.verdict-word')).toHaveText('PASS');
  await expect(page.getByTestId('authenticity')).toContainText('Trusted signer');
  // A dump reads the trust store: nothing is said of it.
  await expect(page.getByTestId('unread-options')).toHaveCount(0);
  // The path is now a recent file, one click away.
  await page.getByTestId('tab-open').click();
  await expect(page.locator('.recent')).toContainText('intact.dump.json');
  // The fields go with every file: a policy bundle reads no providers registry, and the banner says
  // so in words, as a note beside its verdict (the trust store is the engine's own, read for every kind).
  await page.getByText('Engine options for the files you open').click();
  await expect(page.locator('#opt-trust')).toHaveValue(join(dir, 'dumps', 'trust-store.json'));
  await page.locator('#opt-providers').fill(join(dir, 'dumps', 'providers.json'));
  await page.getByTestId('open-path').fill(join(dir, 'tg', 'bundle.json'));
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('verdict').locator('.kind')).toHaveText('tg-policy-bundle');
  await expect(page.getByTestId('verdict').locator('.verdict-word')).toHaveText('PASS');
  const note = page.getByRole('note').filter({ hasText: 'Not read for this artifact' });
  await expect(note).toHaveCount(1);
  await expect(note).toContainText('Not read for this artifact (kind tg-policy-bundle): the option providers (');
  await expect(note).toContainText('This verdict was made without it.');
  await expect(note).not.toContainText('trustStore');
  await axe(page, 'a verdict beside an option not read for its kind');
});

/**
 * Opening a bundle shows what it carries (web target, through the UI only): a tampered
 * example is verified (FAIL), judged "reject" on the whole report with a journal open, and
 * exported; the bundle opened with the trust store shows a FAIL banner (never green), the
 * bundle's own integrity as intact and the carried report as FAIL, and the carried
 * judgement with its rationale and its verified inclusion proof; a case bundle, each judgement
 * on its artifact or on the case as a whole. Axe on each state.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { pathToFileURL } from 'node:url';
import { axe, axeBothThemes, expect, openExample, openWorkJournal, ROOT, test } from './fixtures.js';

/** The built CLI, which must succeed; its output. */
function cli(args: string[]): string {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`reprise ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

test.describe.configure({ timeout: 300_000 });

/** A member of a bundle the engine wrote, as text, read with the engine's own ZIP reader (the built one). */
async function memberText(zip: string, name: string): Promise<string> {
  const dist = (m: string): string => pathToFileURL(join(ROOT, 'dist', 'app', 'zip', m)).href;
  type Entry = { name: string };
  const { readStructure } = (await import(dist('reader.js'))) as {
    readStructure: (b: Buffer, l: unknown) => { ok: boolean; entries: Entry[] };
  };
  const { readEntries } = (await import(dist('parallel.js'))) as {
    readEntries: (b: Buffer, e: Entry[], keep: () => boolean) => Promise<{ bytes: Buffer | null }[]>;
  };
  const { resolveLimits } = (await import(dist('limits.js'))) as { resolveLimits: (l: undefined) => unknown };
  const bytes = readFileSync(zip);
  const zs = readStructure(bytes, resolveLimits(undefined));
  const entry = zs.entries.find((e) => e.name === name);
  if (!zs.ok || !entry) throw new Error(`${zip} has no ${name}`);
  const [read] = await readEntries(bytes, [entry], () => true);
  return read!.bytes!.toString('utf8');
}

/** The page a bundle carries, as a browser shows it (no script: it needs none), checked by axe. */
async function axeOnBundlePage(page: Page, zip: string, name: string): Promise<void> {
  await page.setContent(await memberText(zip, name));
  await expect(page.locator('main h1')).toBeVisible();
  await axe(page, `the bundle's ${name}`);
}

test('a bundle carrying a failing report and its signed reject opens as FAIL, with both verdicts and the judgement', async ({
  workbench: page,
  served,
}) => {
  await openWorkJournal(page, served, 'reprise-e2e-bc-');

  // The tampered example, judged "reject" as a whole.
  await openExample(page, 'dumps/fail/altered-artifact.dump.json', 60_000);
  await expect(page.getByTestId('verdict')).toHaveClass(/\bfail\b/);
  await page.getByTestId('judge-report').click();
  const rationale = 'The artifact hash differs from the recorded one: this dump was altered after it was signed.';
  await page.getByTestId('decision-reject').check();
  await page.getByTestId('judgement-rationale').fill(rationale);
  await page.getByTestId('judge-review').click();
  await page.getByTestId('confirm-sign-button').click();
  await expect(page.getByTestId('judgement-receipt')).toBeVisible({ timeout: 30_000 });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-bundle').click()]);
  const bundle = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-bc-out-')), download.suggestedFilename());
  await download.saveAs(bundle);
  await expect(page.getByTestId('bundle-status')).toContainText('1 judgement(s)');

  // Open the bundle with the trust store that decides its signers.
  await page.getByTestId('tab-open').click();
  await page.getByText('Engine options for the files you open').click();
  await page.locator('#opt-trust').fill(served.reviewerTrustStore);
  await page
    .locator('#file-input')
    .setInputFiles({ name: 'case-bundle.zip', mimeType: 'application/zip', buffer: readFileSync(bundle) });
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 60_000 });
  const banner = page.getByTestId('verdict');
  await expect(banner).toContainText(/evidence-bundle/);
  await expect(banner).toHaveClass(/\bfail\b/);
  await expect(banner).not.toHaveClass(/\bpass\b/);
  await expect(page.locator('#verdict-h .verdict-word')).toHaveText('FAIL');
  await expect(page.getByTestId('decisive')).toContainText('RPR-EVB-016');
  await expect(page.getByTestId('file-integrity')).toHaveAttribute('data-verdict', 'pass');
  await expect(page.getByTestId('file-integrity')).toContainText('intact');
  await expect(page.getByTestId('carried-verdict')).toHaveAttribute('data-verdict', 'fail');
  await expect(page.getByTestId('carried-verdict')).toContainText(/FAIL replay-dump/);

  const rows = page.getByTestId('bundled-judgements').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('reject');
  await expect(rows.first()).toContainText('the whole report');
  await expect(page.getByTestId('bundled-rationale')).toHaveText(rationale);
  await expect(page.getByTestId('bundled-proof')).toHaveAttribute('data-verified', 'true');
  await expect(page.getByTestId('bundled-proof')).toContainText('inclusion verified');
  await expect(rows.first()).toContainText(served.reviewerKeyId);
  await axeBothThemes(page, 'bundle with a failing report opened');

  // Without the trust store nothing is proven: the bundle is not checked, the proof not verified, still never green.
  await page.getByTestId('tab-open').click();
  // The Open view is mounted again: its options are folded away.
  if (!(await page.locator('#opt-trust').isVisible()))
    await page.getByText('Engine options for the files you open').click();
  await page.locator('#opt-trust').fill('');
  await page
    .locator('#file-input')
    .setInputFiles({ name: 'bundle-again.zip', mimeType: 'application/zip', buffer: readFileSync(bundle) });
  await expect(page.getByTestId('verdict')).toContainText('bundle-again.zip', { timeout: 60_000 });
  await expect(page.getByTestId('file-integrity')).toHaveAttribute('data-verdict', 'unavailable');
  await expect(page.getByTestId('bundled-proof')).toHaveAttribute('data-verified', 'false');
  await expect(page.getByTestId('verdict')).toHaveClass(/\bfail\b/);
  await axeBothThemes(page, 'bundle opened without a trust store');
  await axeOnBundlePage(page, bundle, 'report.html');
});

test('a case bundle opens with the case FAIL, the bundle intact, each carried report, each judgement on its artifact and a note with its edit', async ({
  workbench: page,
  served,
}) => {
  const base = mkdtempSync(join(tmpdir(), 'reprise-e2e-cb-'));
  const dir = join(base, 'case');
  mkdirSync(dir);
  copyFileSync(join(served.examples, 'dumps', 'intact.dump.json'), join(dir, 'intact.dump.json'));
  copyFileSync(join(served.examples, 'dumps', 'fail', 'altered-artifact.dump.json'), join(dir, 'altered.dump.json'));
  const journal = join(base, 'journal');
  const body = join(base, 'note.txt');
  writeFileSync(body, 'The altered dump is the one the claim was held for; both dumps are kept in this case.');
  const sha = `sha256:${createHash('sha256')
    .update(readFileSync(join(dir, 'altered.dump.json')))
    .digest('hex')}`;
  const trust = ['--trust-store', served.reviewerTrustStore];
  const noted = cli([
    'journal',
    'note',
    journal,
    '--artifact',
    sha,
    '--body-file',
    body,
    '--key',
    served.reviewerKey,
    ...trust,
  ]);
  const first = /^entry (sha256:[0-9a-f]{64})$/m.exec(noted)![1]!;
  writeFileSync(body, 'The altered dump is the one the claim was held for; the intact one is its signed original.');
  const edit = ['--body-file', body, '--supersedes', first, '--key', served.reviewerKey, ...trust];
  cli(['journal', 'note', journal, '--artifact', sha, ...edit]);
  // A reject on the other artifact: the banner and the table say which artifact it is on.
  const intact = `sha256:${createHash('sha256')
    .update(readFileSync(join(dir, 'intact.dump.json')))
    .digest('hex')}`;
  const reject = join(base, 'reject.json');
  writeFileSync(
    reject,
    JSON.stringify({ decision: 'reject', rationale: 'The intact dump is not the one the claim cites.' }),
  );
  const record = ['--kind', 'review-rationale', '--claim', 'claim:e2e', '--artifact', intact, '--body-file', reject];
  cli(['journal', 'record', journal, ...record, '--key', served.reviewerKey, ...trust]);
  // An accept on the case as a whole, by its digest (docs/evidence-bundle.md): it signs case.json.
  const caseJson = join(base, 'case.json');
  spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), 'verify', dir, '--case', caseJson, ...trust]);
  const digest = cli(['canonicalize', caseJson, '--hash']).trim();
  const whole = join(base, 'whole.json');
  const said = 'The case was read whole: the two dumps and their timeline agree with the claim file.';
  writeFileSync(
    whole,
    JSON.stringify({
      type: 'reprise.judgement/v1',
      decision: 'accept',
      rationale: said,
      reportDigest: digest,
      pointer: '',
    }),
  );
  const onCase = ['--kind', 'review-rationale', '--claim', 'claim:e2e', '--artifact', digest, '--body-file', whole];
  cli(['journal', 'record', journal, ...onCase, '--key', served.reviewerKey, ...trust]);
  const out = join(base, 'case.zip');
  cli(['export', dir, '--journal', journal, '--out', out, ...trust]);

  await page.getByTestId('tab-open').click();
  await page.getByText('Engine options for the files you open').click();
  await page.locator('#opt-trust').fill(served.reviewerTrustStore);
  await page
    .locator('#file-input')
    .setInputFiles({ name: 'case.zip', mimeType: 'application/zip', buffer: readFileSync(out) });
  await expect(page.getByTestId('verdict')).toContainText('case.zip', { timeout: 60_000 });
  await expect(page.getByTestId('verdict')).toHaveClass(/\bfail\b/);
  await expect(page.getByTestId('file-integrity')).toHaveAttribute('data-verdict', 'pass');
  await expect(page.getByTestId('carried-verdict')).toHaveAttribute('data-verdict', 'fail');
  await expect(page.getByTestId('carried-verdict')).toContainText('altered.dump.json');
  await expect(page.getByTestId('case-bundle-reports').locator('tbody tr')).toHaveCount(2);
  const rows = page.getByTestId('bundled-judgements').locator('tbody tr');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText('note');
  await expect(rows.nth(0)).toContainText(`altered.dump.json ${sha}`);
  await expect(rows.nth(0).getByTestId('judgement-superseded')).toHaveText('superseded by its edit, entry #1');
  await expect(rows.nth(1).getByTestId('judgement-edit-of')).toHaveText('edit of entry #0');
  await expect(rows.nth(1).getByTestId('judgement-superseded')).toHaveCount(0);
  await expect(rows.nth(2)).toContainText('reject');
  await expect(rows.nth(2)).toContainText(`intact.dump.json ${intact}`);
  await expect(rows.nth(3)).toContainText('accept');
  await expect(rows.nth(3)).toContainText(`the case as a whole (case.json), ${digest}`);
  await expect(rows.nth(3)).toContainText(': the whole case');
  await expect(page.getByTestId('bundled-proof').first()).toHaveAttribute('data-verified', 'true');
  // The banner names the artifact the reject in force is on, by path and SHA-256.
  const line = page.getByTestId('verdict-rejection');
  await expect(line).toContainText(`entry #2, on the whole report of intact.dump.json ${intact}`);
  await axeBothThemes(page, 'case bundle opened');
  await axeOnBundlePage(page, out, 'case.html');
});

test('an exported report opened with an artifact that is not its own: FAIL, its own PASS kept apart', async ({
  workbench: page,
}) => {
  // The example brings its option (artifact: the foundation's unknown file), as every example does.
  await openExample(page, 'reports/other-artifact.report.json', 60_000);
  await expect(page.getByTestId('verdict')).toContainText('reprise-report');
  await expect(page.getByTestId('verdict')).toHaveClass(/\bfail\b/);
  await expect(page.getByTestId('decisive')).toContainText('RPR-RPT-004');
  await expect(page.getByTestId('file-integrity')).toHaveAttribute('data-verdict', 'fail');
  await expect(page.getByTestId('carried-verdict')).toHaveAttribute('data-verdict', 'pass');
  await expect(page.getByTestId('carried-verdict')).toContainText('acgp-eval');
  await axeBothThemes(page, 'exported report opened');
});

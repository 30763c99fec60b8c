/**
 * The evidence bundle from the Export view (web target, through the UI as a reviewer uses it):
 * the view says where the bundle is exported and moves focus there (the journal header while
 * no journal is open, the judgements bar's "Export evidence bundle" once one is), an export
 * refused while the journal holds nothing to prove, a judgement signed, the bundle exported by
 * keyboard from there: its name, what it carries and its SHA-256 as the window says them, and
 * `reprise verify` accepting it offline (exit 0); after each export focus is on its result (the
 * saved bundle's line, or the refusal), never on <body>. Then what a bundle leaves out, said in the
 * window as the CLI says it: an entry on the artifact signed by a quarantine officer's key (no
 * judgement; the bundle is still complete, exit 0 with an RPR-EVB-020 warning), and a judgement
 * whose write was cut short before its checkpoint (no inclusion proof: the bundle is incomplete,
 * exit 2, RPR-EVB-020 unavailable). The window makes no case bundle (a case is exported with
 * `reprise export DIR`): a report that names no artifact SHA-256 is said to have none. Axe on
 * every state, nothing excluded.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Download, Page } from '@playwright/test';
import { axe, axeBothThemes, expect, openExample, openWorkJournal, ROOT, test } from './fixtures.js';

test.describe.configure({ timeout: 300_000 });

const EXAMPLE = 'dumps/intact.dump.json';
const RATIONALE = 'Read the dump in full: its outcome and score match the replay under the locked environment.';

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The built CLI, which must exit 0; its output. */
function cliOk(args: string[]): string {
  const r = cli(args);
  if (r.status !== 0) throw new Error(`reprise ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const sha256 = (b: Buffer): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** Signs "accept" on the whole open report through the judgement form and its confirmation. */
async function signAccept(page: Page): Promise<void> {
  await page.getByTestId('judge-report').click();
  await page.getByTestId('decision-accept').check();
  await page.getByTestId('judgement-rationale').fill(RATIONALE);
  await page.getByTestId('judge-review').click();
  await page.getByTestId('confirm-sign-button').click();
  await expect(page.getByTestId('judgement-receipt')).toBeVisible({ timeout: 30_000 });
}

/**
 * From the Export view: its "Go to" button moves focus to the judgements bar's export button,
 * and Enter there exports. Returns the download, saved under a temp folder.
 */
async function exportFromExportView(page: Page): Promise<{ download: Download; file: string }> {
  await page.getByTestId('tab-export').click();
  await page.getByTestId('bundle-where-go').click();
  await expect(page.getByTestId('export-bundle')).toBeFocused();
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.keyboard.press('Enter'),
  ]);
  const file = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-eb-out-')), download.suggestedFilename());
  await download.saveAs(file);
  // The button is disabled while the engine writes: focus moves on to the result, never to <body>.
  await expect(page.getByTestId('bundle-status')).toBeFocused();
  return { download, file };
}

interface Verified {
  status: number | null;
  findings: { rule: string; severity: string; message: string }[];
  judgements: { seq: number; decision: string; proof: { verified: boolean } }[];
  checkpoint: number;
  carried: string;
  integrity: string;
}

/** `reprise verify BUNDLE --trust-store FILE --json`, offline, as the bundle's reader runs it. */
function verify(bundle: string, trustStore: string): Verified {
  const v = cli(['verify', bundle, '--trust-store', trustStore, '--json']);
  const r = JSON.parse(v.stdout) as {
    findings: Verified['findings'];
    details: {
      judgements: Verified['judgements'];
      bundle: { checkpoint: { treeSize: number } };
      carried: { verdict: string };
      integrity: { verdict: string };
    };
  };
  return {
    status: v.status,
    findings: r.findings,
    judgements: r.details.judgements,
    checkpoint: r.details.bundle.checkpoint.treeSize,
    carried: r.details.carried.verdict,
    integrity: r.details.integrity.verdict,
  };
}

test('the Export view leads to the bundle; a signed judgement exported by keyboard, named and hashed as saved, verifies offline', async ({
  workbench: page,
  served,
}) => {
  const artifact = sha256(readFileSync(join(served.examples, ...EXAMPLE.split('/'))));
  const name = `evidence-${artifact.slice(7, 19)}.zip`;
  await openExample(page, EXAMPLE, 60_000);
  await expect(page.getByTestId('verdict')).toHaveClass(/\bpass\b/);

  // No journal open: the view says to open one first and goes to the journal header.
  await page.getByTestId('tab-export').click();
  const where = page.getByTestId('bundle-where');
  await expect(where).toContainText('open one in the journal header first');
  await expect(page.getByTestId('export-bundle')).toHaveCount(0);
  await axeBothThemes(page, 'Export view, no journal open');
  await page.getByTestId('bundle-where-go').click();
  await expect(page.getByTestId('work-journal-toggle')).toBeFocused();

  await openWorkJournal(page, served, 'reprise-e2e-eb-');
  await page.getByTestId('tab-export').click();
  await expect(where).toContainText('exported from the judgements bar above the tabs, beside "Record judgement"');
  await expect(where).toContainText(
    'the report, every judgement on it with its inclusion proof and the latest signed checkpoint',
  );
  await expect(page.getByTestId('bundle-where-go')).toHaveText('Go to "Export evidence bundle"');
  await axeBothThemes(page, 'Export view, a journal open');

  // Nothing signed yet: the journal has no checkpoint to prove against, so no bundle; said, and focused.
  await page.getByTestId('bundle-where-go').click();
  await expect(page.getByTestId('export-bundle')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('judgement-error')).toContainText('holds no journal entries');
  await expect(page.getByTestId('bundle-status')).toHaveCount(0);
  await expect(page.getByTestId('judgement-error')).toBeFocused();
  await axe(page, 'export refused: an empty journal');

  await signAccept(page);
  const { download, file } = await exportFromExportView(page);
  const bytes = readFileSync(file);
  expect(download.suggestedFilename()).toBe(name);
  const status = page.getByTestId('bundle-status');
  await expect(status).toContainText(`Saved ${name}: 1 judgement(s), checkpoint size 1,`);
  await expect(page.getByTestId('bundle-sha256')).toContainText(sha256(bytes));
  await expect(page.getByTestId('bundle-attestation')).toHaveCount(0);
  await expect(page.getByTestId('bundle-omitted')).toHaveCount(0);
  await expect(page.getByTestId('judgement-error')).toHaveCount(0);
  await axeBothThemes(page, 'bundle exported, nothing left out');

  // Offline, as its reader checks it: intact, carries the PASS and the signed accept with its proof.
  const v = verify(file, served.reviewerTrustStore);
  expect(v.status, JSON.stringify(v.findings)).toBe(0);
  expect(v.integrity).toBe('pass');
  expect(v.carried).toBe('pass');
  expect(v.checkpoint).toBe(1);
  expect(v.judgements.map((j) => [j.seq, j.decision, j.proof.verified])).toEqual([[0, 'accept', true]]);
  expect(v.findings.filter((f) => f.rule === 'RPR-EVB-020')).toEqual([]);
});

test('what a bundle leaves out is said in the window: an officer-signed entry (complete, exit 0), a judgement with no checkpoint (incomplete, exit 2)', async ({
  workbench: page,
  served,
}) => {
  // The journal's trust store holds the reviewer and a quarantine officer, whose key may not sign a judgement.
  const base = mkdtempSync(join(tmpdir(), 'reprise-e2e-eb-left-'));
  const trust = join(base, 'trust-store.json');
  copyFileSync(served.reviewerTrustStore, trust);
  const officer = join(base, 'officer.key.pem');
  const made = cliOk(['keys', 'generate', '--out', officer, '--role', 'quarantine-officer', '--trust-store', trust]);
  expect(made).toMatch(/ed25519:[0-9a-f]{64}/);
  const officerId = /ed25519:[0-9a-f]{64}/.exec(made)![0];
  const dir = await openWorkJournal(page, served, 'reprise-e2e-eb-', trust);
  await openExample(page, EXAMPLE, 60_000);
  await signAccept(page);
  const artifact = sha256(readFileSync(join(served.examples, ...EXAMPLE.split('/'))));

  // A review-rationale on the artifact signed with the officer's key (journal record without a trust store lets it).
  const body = join(base, 'body.json');
  writeFileSync(
    body,
    JSON.stringify({ decision: 'reject', rationale: 'Held: the officer reads the drift as material.' }),
  );
  const record = ['--kind', 'review-rationale', '--claim', 'claim:e2e-eb', '--artifact', artifact, '--body-file', body];
  cliOk(['journal', 'record', dir, ...record, '--key', officer]);

  const first = await exportFromExportView(page);
  await expect(page.getByTestId('bundle-status')).toContainText('1 judgement(s), checkpoint size 2,');
  const omitted = page.getByTestId('bundle-omitted').getByRole('listitem');
  await expect(omitted).toHaveCount(1);
  await expect(omitted.first()).toContainText(`left out entry seq 1 (sha256:`);
  await expect(omitted.first()).toContainText(`signed by ${officerId}: it is no judgement (`);
  await expect(omitted.first()).toContainText('is a quarantine-officer key');
  await expect(omitted.first()).toContainText('a bundle carrying it would fail its own verification');
  await expect(page.getByTestId('bundle-omitted')).not.toContainText('incomplete');
  await expect(page.getByTestId('bundle-incomplete')).toHaveCount(0);
  await axeBothThemes(page, 'bundle exported, an entry that is no judgement left out');
  const v1 = verify(first.file, trust);
  expect(v1.status, JSON.stringify(v1.findings)).toBe(0);
  expect(v1.judgements.map((j) => j.seq)).toEqual([0]);
  const warned = v1.findings.filter((f) => f.rule === 'RPR-EVB-020');
  expect(warned.map((f) => f.severity)).toEqual(['warning']);
  expect(warned[0]!.message).toContain('it is no judgement');

  // A reviewer's judgement whose write was cut short before its checkpoint (RPR-JOURNAL-020).
  const checkpoints = readFileSync(join(dir, 'checkpoints.jsonl'));
  const notes = readFileSync(join(dir, 'notes.jsonl'));
  writeFileSync(body, JSON.stringify({ decision: 'needs-review', rationale: 'A second reviewer should replay it.' }));
  cliOk(['journal', 'record', dir, ...record, '--key', served.reviewerKey, '--trust-store', trust]);
  writeFileSync(join(dir, 'checkpoints.jsonl'), checkpoints);
  writeFileSync(join(dir, 'notes.jsonl'), notes);

  const second = await exportFromExportView(page);
  await expect(page.getByTestId('bundle-status')).toContainText('1 judgement(s), checkpoint size 2,');
  await expect(omitted).toHaveCount(2);
  await expect(omitted.nth(1)).toContainText(`left out entry seq 2 (sha256:`);
  await expect(omitted.nth(1)).toContainText(`signed by ${served.reviewerKeyId}: no inclusion proof can be built`);
  await expect(omitted.nth(1)).toContainText('the bundle is incomplete without it');
  // Said on the saved line itself, where focus lands, not only in the list below it.
  await expect(page.getByTestId('bundle-status')).toBeFocused();
  await expect(page.getByTestId('bundle-incomplete')).toContainText(
    'incomplete: 1 judgement(s) no checkpoint covers are left out',
  );
  await axeBothThemes(page, 'bundle exported incomplete: a judgement with no checkpoint left out');
  const v2 = verify(second.file, trust);
  expect(v2.status, JSON.stringify(v2.findings)).toBe(2);
  const left = v2.findings.filter((f) => f.rule === 'RPR-EVB-020');
  expect(left.map((f) => f.severity)).toEqual(['warning', 'unavailable']);
  expect(left[1]!.message).toMatch(/^the bundle is incomplete: journal entry seq 2 /);
});

test('a report that names no artifact SHA-256 has no bundle: the Export view says so and offers no control', async ({
  workbench: page,
  served,
}) => {
  const dir = await openWorkJournal(page, served, 'reprise-e2e-eb-');
  await openExample(page, EXAMPLE, 60_000);
  await signAccept(page);
  // A journal folder is a directory artifact: its report names no SHA-256.
  await page.getByTestId('tab-open').click();
  await page.getByTestId('open-path').fill(dir);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId('verdict')).toContainText('journal');
  await page.getByTestId('tab-export').click();
  await expect(page.getByTestId('bundle-where')).toContainText('this report names no artifact SHA-256, so it has none');
  await expect(page.getByTestId('bundle-where-go')).toHaveCount(0);
  await expect(page.getByTestId('export-bundle')).toHaveCount(0);
  await axeBothThemes(page, 'Export view, a report with no artifact SHA-256');
});

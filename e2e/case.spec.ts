/**
 * The reviewer's case through the UI only (web target): a case folder built from
 * `reprise examples` (a replay dump, an ACGP trace and EVAL, a TG manifest with its policy bundle
 * and its journal, a Nemosyne package, the dump's exported report and evidence bundle, a
 * re-judgement record, and a quarantine journal whose cases name the dump and a
 * dump the case does not hold) opened by its path under --root; the progress over the case
 * and each verdict, the links (one found, one missing), the judgements, the timeline with
 * its filters and keyboard, an event opening the chain view; the same case sent from the
 * window as a folder; a large case's progress and its cancel. axe on every state, light and
 * dark, nothing excluded.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { axeBothThemes, expect, openWorkJournal, ROOT, SCREENSHOTS, test, type Served } from './fixtures.js';

test.describe.configure({ timeout: 240_000 });

async function shot(page: Page, info: TestInfo, name: string, fullPage = true): Promise<void> {
  if (SCREENSHOTS && info.project.name === 'web')
    await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', `${name}.png`), fullPage });
}

/** Runs the CLI; exit 1 and 2 are verdicts (fail, unavailable), 3 an error. */
function cli(args: string[]): string {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), ...args], { encoding: 'utf8' });
  if (r.status === null || r.status > 2) throw new Error(`reprise ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const sha256 = (b: Buffer | string): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** A case folder of one artifact of every kind plus a quarantine journal, from the served examples. */
function caseFolder(served: Served): string {
  const ex = served.examples;
  const dir = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-case-')), 'case-17');
  const copy = (from: string, to: string): void => cpSync(join(ex, from), join(dir, to), { recursive: true });
  copy('dumps/intact.dump.json', 'dump.json');
  copy('acgp/trace-clean.jsonl', 'agent/trace.jsonl');
  copy('tg/recorded-anchored/manifest.json', 'tg/manifest.json');
  copy('tg/bundle.json', 'tg/policy.json');
  copy('tg/journal', 'tg/journal');
  copy('packages/intact/v4.nemosyne', 'dataset.nemosyne');
  copy('acgp/seed-eval-corrected.json', 'agent/eval.json');
  const officer = ['--key', join(ex, 'journal/keys/quarantine-officer.pem')];
  const trust = ['--trust-store', join(ex, 'journal/trust-store.json')];
  const review = join(dir, 'review');
  // One case names the dump of this folder (a link found), one a dump it does not hold (a link missing).
  const dump = sha256(readFileSync(join(dir, 'dump.json')));
  cli([
    'quarantine',
    'open',
    review,
    '--claim',
    'claim:e2e-1',
    '--artifact',
    dump,
    '--reason',
    'held for review of the replayed score drift',
    ...officer,
    ...trust,
  ]);
  const absent = sha256('a dump this case does not hold');
  cli([
    'quarantine',
    'open',
    review,
    '--claim',
    'claim:e2e-2',
    '--artifact',
    absent,
    '--reason',
    'held: its dump is elsewhere',
    ...officer,
    ...trust,
  ]);
  // The dump's exported report, its evidence bundle, and a re-judgement record of two dumps.
  writeFileSync(join(dir, 'dump.report.json'), cli(['verify', join(dir, 'dump.json'), '--json']).trimEnd() + '\n');
  cli(['export', join(dir, 'dump.json'), '--journal', review, '--out', join(dir, 'dump-evidence.zip'), ...trust]);
  const archive = mkdtempSync(join(tmpdir(), 'reprise-e2e-archive-'));
  for (const d of ['dumps/intact.dump.json', 'dumps/fail/altered-artifact.dump.json'])
    cpSync(join(ex, d), join(archive, d.split('/').pop()!));
  // Beside the archive, not in it: rejudge never writes into what it judges.
  const shard = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-shard-')), 'shard.json');
  cli(['rejudge', archive, '--out', shard]);
  cli(['rejudge', 'merge', shard, '--key', join(ex, 'journal/keys/reviewer.pem'), '--out', join(dir, 'rejudged.json')]);
  return dir;
}

/** Records (in the page) whether the case's progress bar was ever shown: a small case may end within a frame. */
async function watchProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __caseProgressSeen: boolean };
    w.__caseProgressSeen = false;
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="case-progress"]')) w.__caseProgressSeen = true;
    }).observe(document.body, { childList: true, subtree: true });
  });
}

const progressSeen = (page: Page): Promise<boolean> =>
  page.evaluate(() => (window as unknown as { __caseProgressSeen: boolean }).__caseProgressSeen);

test('a case folder by path: verdicts as they land, links found and missing, judgements, timeline filters and keyboard, an event opens the chain view', async ({
  workbench: page,
  served,
}, info) => {
  const dir = caseFolder(served);
  await page.getByTestId('open-case-view').click();
  await expect(page.getByTestId('tab-case')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'Open a case folder' })).toBeVisible();
  await axeBothThemes(page, 'case view, nothing open');

  await watchProgress(page);
  await page.locator('#case-path').fill(dir);
  await page.getByTestId('case-open').click();
  const verdict = page.getByTestId('case-verdict');
  await expect(verdict).toBeVisible({ timeout: 120_000 });
  expect(await progressSeen(page)).toBe(true);
  await expect(verdict).toContainText('11 artifacts');
  const artifacts = page.getByTestId('case-artifacts');
  for (const [path, kind] of [
    ['dump.json', 'replay-dump'],
    ['agent/trace.jsonl', 'acgp-trace'],
    ['tg/manifest.json', 'tg-replay-manifest'],
    ['tg/policy.json', 'tg-policy-bundle'],
    ['tg/journal', 'journal'],
    ['dataset.nemosyne', 'nemosyne-package'],
    ['review', 'journal'],
    ['agent/eval.json', 'acgp-eval'],
    ['dump.report.json', 'reprise-report'],
    ['dump-evidence.zip', 'evidence-bundle'],
    ['rejudged.json', 'rejudgement'],
  ] as const)
    await expect(artifacts.locator(`tr[data-artifact="${path}"]`)).toContainText(kind);
  await expect(artifacts.getByTestId('case-artifact-verdict')).toHaveCount(11);

  // The links: the review journal's case names the dump (found) and a dump the case lacks (missing).
  const links = page.getByTestId('case-links');
  const found = links.getByTestId('case-link-found').filter({ hasText: 'review' }).filter({ hasText: 'subject' });
  await expect(found).toHaveCount(1);
  await expect(found).toContainText('dump.json');
  const missing = links.getByTestId('case-link-missing').filter({ hasText: sha256('a dump this case does not hold') });
  await expect(missing).toHaveCount(1);
  await expect(missing).toContainText('missing');
  await expect(page.getByTestId('case-judgements')).toContainText('accept');
  // Filtered to the missing links: every row left says missing.
  await page.getByTestId('case-link-filter').selectOption('missing');
  await expect(links.getByTestId('case-link-found')).toHaveCount(0);
  await expect(links.getByTestId('case-link-missing')).not.toHaveCount(0);
  await page.getByTestId('case-link-filter').selectOption('');
  await axeBothThemes(page, 'case verified');
  await shot(page, info, 'case');

  // Notes on an artifact of the case go in the journal the reviewer works in: without one, it says so.
  await page.getByRole('button', { name: 'Notes on dump.json' }).click();
  await expect(page.getByTestId('case-notes-closed')).toContainText('open the journal you work in');
  await openWorkJournal(page, served);
  await expect(page.getByTestId('case-notes')).toContainText('Notes on this artifact');
  await axeBothThemes(page, 'case notes of an artifact');
  await page.getByRole('button', { name: 'Notes on dump.json' }).click();
  await expect(page.getByTestId('case-notes')).toHaveCount(0);

  // The timeline: every event, then filtered by artifact and by severity.
  const count = page.getByTestId('timeline-count');
  const all = Number((await count.textContent())!.split(' of ')[1]!.split(' ')[0]!.replace(/,/g, ''));
  expect(all).toBeGreaterThan(10);
  await page.getByTestId('timeline-artifact').selectOption('agent/trace.jsonl');
  await expect(count).not.toHaveText(`${all} of ${all} events`);
  const rows = page.getByTestId('timeline-scroll').locator('[role="row"]');
  for (const t of await rows.allTextContents()) expect(t).toContain('agent/trace.jsonl');
  await page.getByTestId('timeline-severity').selectOption('fail');
  await expect(page.getByTestId('timeline-empty')).toHaveText('No event matches these filters.');
  await axeBothThemes(page, 'timeline filtered to nothing');
  await page.getByTestId('timeline-severity').selectOption('');
  await shot(page, info, 'case-timeline');

  // Keyboard: Tab reaches the list, the arrow keys move the active row, Enter opens it in the chain view.
  const first = rows.first().getByRole('button');
  await first.focus();
  await page.keyboard.press('ArrowDown');
  const second = rows.nth(1).getByRole('button');
  await expect(second).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tab-chain')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('verdict')).toContainText('acgp-trace', { timeout: 60_000 });
  // A JSON Lines trace has no chain: its EVAL's line is selected in the artifact's text.
  const editor = page.getByTestId('artifact-editor');
  await expect(editor).toHaveAttribute('data-pointer', /^line:[1-9]\d*$/, { timeout: 30_000 });
  const line = Number((await editor.getAttribute('data-pointer'))!.slice('line:'.length));
  // An event's place is marked as a place, not as a failing finding's region, and the panel says what it shows.
  await expect(editor.locator('.place-region-inline').first()).toBeVisible({ timeout: 30_000 });
  await expect(editor).toHaveAttribute('data-highlight', 'place');
  await expect(editor.locator('.finding-region-inline')).toHaveCount(0);
  await expect(page.getByTestId('selected-place')).toContainText("The case event's place in the artifact");
  await expect(page.getByTestId('selected-place')).toContainText(`line:${line}`);
  await expect(page.getByTestId('node-detail')).not.toContainText('Select a node');
  await expect(editor.locator('.line-numbers', { hasText: new RegExp(`^${line}$`) })).toBeVisible();
  await axeBothThemes(page, 'chain view opened from the timeline');

  // An event with a node (the dump's trust decision): the chain view opens at that node.
  await page.getByTestId('tab-case').click();
  await page.getByTestId('timeline-artifact').selectOption('dump.json');
  await page.getByRole('button', { name: 'trust decision: trusted' }).click();
  await expect(page.getByTestId('tab-chain')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('node-detail')).toContainText('trust decision (recorded vs Reprise)', {
    timeout: 60_000,
  });

  // A journal's events open its files in the editor: an older checkpoint's line of checkpoints.jsonl, an entry's of entries.jsonl.
  const journalEvent = async (label: string, file: string, line: number): Promise<void> => {
    await page.getByTestId('tab-case').click();
    await page.getByTestId('timeline-artifact').selectOption('review');
    await page.getByRole('button', { name: label }).click();
    await expect(page.getByTestId('tab-chain')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('directory-file').filter({ hasText: file })).toHaveAttribute('aria-pressed', 'true', {
      timeout: 60_000,
    });
    await expect(page.getByTestId('artifact-editor')).toHaveAttribute('data-pointer', `line:${line}`);
    await expect(page.getByTestId('artifact-editor').locator('.place-region-inline').first()).toBeVisible();
  };
  await journalEvent('checkpoint signed (tree size 1)', 'checkpoints.jsonl', 1);
  await axeBothThemes(page, "a journal's older checkpoint opened from the timeline");
  await journalEvent('quarantine case opened (claim:e2e-2)', 'entries.jsonl', 2);
  // The other file can be chosen; the event's file comes back with the next selection.
  await page.getByTestId('directory-file').filter({ hasText: 'checkpoints.jsonl' }).click();
  await expect(page.getByTestId('artifact-editor')).toHaveAttribute('data-pointer', '');
});

test('a case folder that holds no file: the case says so in one alert, and no verdict is shown', async ({
  workbench: page,
}) => {
  const empty = mkdtempSync(join(tmpdir(), 'reprise-e2e-empty-case-'));
  mkdirSync(join(empty, 'not-copied-yet'));
  await page.getByTestId('open-case-view').click();
  await page.locator('#case-path').fill(empty);
  await page.getByTestId('case-open').click();
  const alert = page.getByTestId('case-error');
  await expect(alert).toContainText(`${empty} holds no file: there is nothing in it to check`);
  await expect(alert).toBeFocused();
  await expect(page.getByTestId('case-verdict')).toHaveCount(0);
  await axeBothThemes(page, 'case view, a folder that holds no file');
});

test('a judgement listed from a journal that fails verification is marked not proven, never shown as standing', async ({
  workbench: page,
  served,
}) => {
  // The TG manifest, its bundle and its journal, whose judgement was edited after it was signed.
  const dir = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-case-')), 'forged-judgement');
  cpSync(join(served.examples, 'tg/recorded-anchored/manifest.json'), join(dir, 'manifest.json'));
  cpSync(join(served.examples, 'tg/bundle.json'), join(dir, 'bundle.json'));
  cpSync(join(served.examples, 'tg/journal'), join(dir, 'journal'), { recursive: true });
  const entries = join(dir, 'journal', 'entries.jsonl');
  writeFileSync(entries, readFileSync(entries, 'utf8').replace('"decision":"accept"', '"decision":"reject"'));
  await page.getByTestId('open-case-view').click();
  await page.locator('#case-path').fill(dir);
  await page.getByTestId('case-open').click();
  await expect(page.getByTestId('case-verdict')).toContainText('3 artifacts', { timeout: 120_000 });
  await expect(page.locator('tr[data-artifact="journal"]')).toContainText('fail');
  const row = page.getByTestId('case-judgements').locator('tbody tr').filter({ hasText: 'reject' });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('case-judgement-unproven')).toHaveText('journal FAILS verification: not proven');
  await axeBothThemes(page, 'case with a judgement from a journal that fails verification');
});

test('a timestamp the timeline cannot place is said in the count and as a finding; a name with a bidi override is shown escaped', async ({
  workbench: page,
  served,
}) => {
  // A trace whose third EVAL's timestamp ends in a lower-case z: its own check fails it, and the timeline cannot place it.
  const dir = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-case-')), 'unplaced');
  mkdirSync(dir);
  const trace = readFileSync(join(served.examples, 'acgp/trace-clean.jsonl'), 'utf8').split('\n');
  writeFileSync(join(dir, 'trace.jsonl'), trace.join('\n'));
  trace[2] = trace[2]!.replace(/Z"/, 'z"');
  writeFileSync(join(dir, 'odd.jsonl'), trace.join('\n'));
  // A file name with a right-to-left override reads as 'exe.png' if shown raw: the case shows its escape.
  cpSync(join(served.examples, 'acgp/trace-clean.jsonl'), join(dir, 'x\u202egnp.exe'));
  await page.getByTestId('open-case-view').click();
  await page.locator('#case-path').fill(dir);
  await page.getByTestId('case-open').click();
  await expect(page.getByTestId('case-verdict')).toContainText('3 artifacts', { timeout: 120_000 });
  const spoof = page.getByTestId('case-artifacts').locator('tr').filter({ hasText: 'gnp.exe' });
  await expect(spoof.locator('.control-escape')).toHaveCount(1);
  expect(await spoof.textContent()).not.toContain('\u202e');
  const events = page.getByTestId('timeline-scroll');
  await expect(events.locator('.control-escape').first()).toBeVisible();
  expect(await events.textContent()).not.toContain('\u202e');
  await expect(page.getByTestId('case-findings')).toContainText('RPR-CASE-004');
  await expect(page.getByTestId('case-findings')).toContainText('a lower-case t or z');
  await expect(page.getByTestId('timeline-count')).toContainText(
    "not every time of odd.jsonl is on it (the case's findings say which and why)",
  );
  await axeBothThemes(page, 'case whose timeline lacks a time');
});

test('a case sent from the window as a folder, and as files dropped; a large case shows its progress and verdicts landing, and stops on Cancel', async ({
  workbench: page,
  served,
}, info) => {
  // Without the TG journal: the manifest's anchor is a link expected and missing, with its finding.
  const dir = caseFolder(served);
  rmSync(join(dir, 'tg', 'journal'), { recursive: true });
  await page.getByTestId('tab-case').click();
  await page.locator('#case-folder-input').setInputFiles(dir);
  const verdict = page.getByTestId('case-verdict');
  await expect(verdict).toBeVisible({ timeout: 120_000 });
  await expect(verdict).toContainText('10 artifacts');
  await expect(page.locator('#case-h')).toContainText('files sent from this window');
  await expect(page.getByTestId('case-links').getByTestId('case-link-found').first()).toBeVisible();
  const anchor = page.getByTestId('case-link-missing').filter({ hasText: '/executions/5/anchor' });
  await expect(anchor).toContainText('missing RPR-CASE-001 (warning)');
  await expect(page.getByTestId('case-findings')).toContainText('RPR-CASE-001');
  await axeBothThemes(page, 'case with a missing link and its finding');

  // Two loose files dropped on the drop zone: a case of two.
  const dump = readFileSync(join(served.examples, 'dumps/intact.dump.json'), 'utf8');
  const drop = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'dropped.dump.json', { type: 'application/json' }));
    dt.items.add(new File(['{"n": 1}'], 'other.json', { type: 'application/json' }));
    return dt;
  }, dump);
  await page.getByTestId('case-dropzone').dispatchEvent('drop', { dataTransfer: drop });
  await expect(verdict).toContainText('2 artifacts', { timeout: 60_000 });
  await expect(page.getByTestId('case-artifacts').locator('tr[data-artifact="dropped.dump.json"]')).toContainText(
    'replay-dump',
  );

  // A case of 60,000 small files (not artifacts of a known kind: each a failing verdict that
  // stops nothing): the one progress bar over it, verdicts landing under it, then Cancel.
  const big = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-bigcase-')), 'many');
  mkdirSync(big);
  for (let i = 0; i < 60_000; i++) writeFileSync(join(big, `n${i}.json`), `{"note": ${i}}\n`);
  const progress = page.getByTestId('case-progress');
  const open = async (): Promise<void> => {
    await page.locator('#case-path').fill(big);
    await page.getByTestId('case-open').click();
    await expect(progress).toContainText(/[1-9][\d,]* of 60,000 artifacts/, { timeout: 60_000 });
  };
  // Cancel at once: the case stops, and says so.
  await open();
  await page.getByTestId('case-cancel').click();
  await expect(page.getByTestId('case-note')).toHaveText('Cancelled: the case was stopped.', { timeout: 60_000 });
  await expect(progress).toHaveCount(0);
  await axeBothThemes(page, 'case cancelled');
  // Again, left to run: verdicts land under the one progress bar, then the whole case is in.
  await open();
  await expect(page.getByTestId('case-artifact-verdict').first()).toHaveText('fail');
  // The window as it stands (the page is 300 rows long): the progress bar over the first verdicts.
  await shot(page, info, 'case-running', false);
  await axeBothThemes(page, 'case running');
  await expect(page.getByTestId('case-verdict')).toContainText('60,000 artifacts', { timeout: 180_000 });
  await expect(page.getByTestId('case-artifacts-cap')).toContainText('Showing the first 300 of 60,000 artifacts');
  await axeBothThemes(page, 'a case of 60,000 artifacts');
});

/**
 * Back and Forward through the window's history (web target; docs/workbench.md "Back and
 * Forward", renderer/src/lib/link-history.ts): a change of view, or another artifact or case
 * opened, is a step of its own. Back to a view of what is still open shows that view again
 * and runs nothing (no job, its verdict kept); Back to an artifact no longer open runs it
 * again, read-only, and Forward returns to the one after it; Back from an artifact opened
 * from a case shows the case with its verdict, nothing run again; Back to the Case view from
 * before any case was opened shows it empty, with its opener, never the case opened later; a
 * second saved case report of the same file name is a step of its own, and Back to the first
 * shows the Case view empty, never the second as the first; a link pasted in the tab that
 * names the open artifact is still followed, and runs it. axe on each state.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { axe, axeBothThemes, expect, openExample, ROOT, test, type Served } from './fixtures.js';

test.describe.configure({ timeout: 240_000 });

const INTACT = 'dumps/intact.dump.json';
const ALTERED = 'dumps/fail/altered-artifact.dump.json';

const hash = (page: Page) => new URLSearchParams(new URL(page.url()).hash.slice(1));

/**
 * Every startJob and startCase call the window sends over its socket (in its transport
 * worker), from a reload on: the socket is opened as the page loads, so it is listened to
 * from the next load.
 */
async function socketCalls(page: Page): Promise<string[]> {
  const sent: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', (f) => {
      const m = /"method":"(startJob|startCase)"/.exec(
        typeof f.payload === 'string' ? f.payload : f.payload.toString(),
      );
      if (m) sent.push(m[1]!);
    }),
  );
  await page.reload();
  await expect(page.getByTestId('engine')).toContainText(/engine \d/, { timeout: 30_000 });
  return sent;
}

/**
 * Counts, from now on, what shows that something ran: a job's progress (`job`), a case's
 * (`case-progress`), the verdict banner going (a run clears it; `banner`: only where it
 * stays shown, as the Case view shows none), and the runs the window asked for (`sent`,
 * from socketCalls). A small run may end within a frame: a MutationObserver sees its bar
 * however briefly it was shown.
 */
async function watchRuns(
  page: Page,
  sent: string[],
  banner = true,
): Promise<() => Promise<{ dom: string[]; sent: string[] }>> {
  const from = sent.length;
  await page.evaluate((banner) => {
    const w = window as unknown as { __runs: string[]; __runsObserver?: MutationObserver };
    w.__runs = [];
    w.__runsObserver?.disconnect();
    const had = { verdict: !!document.querySelector('[data-testid="verdict"]') };
    const o = new MutationObserver(() => {
      for (const id of ['job', 'case-progress'])
        if (document.querySelector(`[data-testid="${id}"]`) && !w.__runs.includes(id)) w.__runs.push(id);
      const v = !!document.querySelector('[data-testid="verdict"]');
      if (banner && had.verdict && !v && !w.__runs.includes('verdict gone')) w.__runs.push('verdict gone');
      had.verdict = v;
    });
    o.observe(document.body, { childList: true, subtree: true });
    w.__runsObserver = o;
  }, banner);
  return async () => ({
    dom: await page.evaluate(() => (window as unknown as { __runs: string[] }).__runs),
    sent: sent.slice(from),
  });
}

/** The tab of `view` is selected. */
const selected = (page: Page, view: string) =>
  expect(page.getByTestId(`tab-${view}`)).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });

/** The address names `view` (written in a task of its own after the view shows: polled). */
const named = (page: Page, view: string) => expect.poll(() => hash(page).get('view'), { timeout: 15_000 }).toBe(view);

test('Back to a view of the artifact still open shows it again, its verdict kept, nothing run; Forward goes on', async ({
  workbench: page,
}) => {
  const sent = await socketCalls(page);
  // The window's own entry for the Open view is written in a task of its own: an example opened
  // before it is, on a loaded machine, writes over the page's load entry, and Back has no Open view.
  await named(page, 'open');
  await openExample(page, INTACT, 60_000);
  const verdict = page.getByTestId('verdict').locator('.verdict-word');
  await expect(verdict).toHaveText('PASS', { timeout: 60_000 });
  // The socket is heard: the example's run was asked for over it.
  expect(sent).toEqual(['startJob']);
  // The verdict's run is in the address before the next step is taken.
  await expect.poll(() => hash(page).get('example')).toBe(INTACT);
  const before = await page.evaluate(() => history.length);

  await page.getByTestId('tab-chain').click();
  await selected(page, 'chain');
  await named(page, 'chain');
  await page.getByTestId('tab-replay').click();
  await selected(page, 'replay');
  await named(page, 'replay');
  // Each change of view was a step of the history.
  expect(await page.evaluate(() => history.length)).toBe(before + 2);
  await axe(page, 'the Replay view of the intact example');

  const runs = await watchRuns(page, sent);
  await page.goBack();
  await selected(page, 'chain');
  await expect(verdict).toHaveText('PASS');
  await named(page, 'chain');
  expect(hash(page).get('example')).toBe(INTACT);
  // Long enough for a run that Back would have started to show.
  await page.waitForTimeout(1_500);
  await expect(page.getByTestId('job')).toHaveCount(0);
  expect(await runs()).toEqual({ dom: [], sent: [] });
  await expect(page.getByTestId('chain-tree')).toBeVisible();
  await axeBothThemes(page, 'the Hash chain view again, by Back');

  await page.goBack();
  await selected(page, 'findings');
  await expect(verdict).toHaveText('PASS');
  await named(page, 'findings');
  await page.waitForTimeout(1_000);
  expect(await runs()).toEqual({ dom: [], sent: [] });
  await axe(page, 'the Findings view again, by Back twice');

  // Before it: the Open view the example was opened from, still in the workbench, nothing run.
  await page.goBack();
  await selected(page, 'open');
  await named(page, 'open');
  expect(hash(page).get('token')).not.toBeNull();
  await expect(verdict).toHaveText('PASS');
  await page.waitForTimeout(1_000);
  expect(await runs()).toEqual({ dom: [], sent: [] });
  await axe(page, 'the Open view again, by Back thrice');

  await page.goForward();
  await selected(page, 'findings');
  await named(page, 'findings');
  await page.goForward();
  await selected(page, 'chain');
  await expect(verdict).toHaveText('PASS');
  await named(page, 'chain');
  await page.goForward();
  await selected(page, 'replay');
  await named(page, 'replay');
  await page.waitForTimeout(1_000);
  expect(await runs()).toEqual({ dom: [], sent: [] });
  await axe(page, 'the Replay view again, by Forward thrice');
});

test('Back to the artifact opened before runs it again and shows its verdict; Forward returns to the one after it', async ({
  workbench: page,
}) => {
  const sent = await socketCalls(page);
  const verdict = page.getByTestId('verdict');
  await openExample(page, INTACT, 60_000);
  await expect(verdict.locator('.verdict-word')).toHaveText('PASS', { timeout: 60_000 });
  await expect.poll(() => hash(page).get('example')).toBe(INTACT);
  await openExample(page, ALTERED, 60_000);
  await expect(verdict.locator('.verdict-word')).toHaveText('FAIL', { timeout: 60_000 });
  await expect.poll(() => hash(page).get('example')).toBe(ALTERED);
  await axe(page, 'the second example open');
  const entries = await page.evaluate(() => history.length);

  const runs = await watchRuns(page, sent);
  await page.goBack();
  // The first example is no longer open: it is run again, as its entry says.
  await expect(verdict).toContainText(INTACT, { timeout: 60_000 });
  await expect(verdict.locator('.verdict-word')).toHaveText('PASS', { timeout: 60_000 });
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 60_000 });
  await expect(verdict).not.toContainText(ALTERED);
  await expect.poll(() => hash(page).get('verdict')).toBe('pass');
  expect(hash(page).get('example')).toBe(INTACT);
  expect((await runs()).sent).toEqual(['startJob']);
  // Its run wrote over the entry returned to: the entries after it are kept.
  expect(await page.evaluate(() => history.length)).toBe(entries);
  await axeBothThemes(page, 'the first example again, by Back');

  await page.goForward();
  await expect(verdict).toContainText(ALTERED, { timeout: 60_000 });
  await expect(verdict.locator('.verdict-word')).toHaveText('FAIL', { timeout: 60_000 });
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 60_000 });
  await expect.poll(() => hash(page).get('example')).toBe(ALTERED);
  await selected(page, 'findings');
  expect((await runs()).sent).toEqual(['startJob', 'startJob']);
  expect(await page.evaluate(() => history.length)).toBe(entries);
  await axe(page, 'the second example again, by Forward');
});

/** A case folder of a signed dump and a policy bundle, from the served examples, opened in the Case view. */
async function openCase(page: Page, served: Served): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-history-')), 'case');
  cpSync(join(served.examples, INTACT), join(dir, 'dump.json'));
  cpSync(join(served.examples, 'tg/bundle.json'), join(dir, 'policy.json'));
  await page.getByTestId('open-case-view').click();
  await page.locator('#case-path').fill(dir);
  await page.getByTestId('case-open').click();
  return dir;
}

test('Back from an artifact opened from a case shows the case, its verdict unchanged, nothing run again', async ({
  workbench: page,
  served,
}) => {
  const sent = await socketCalls(page);
  const dir = await openCase(page, served);
  const caseVerdict = page.getByTestId('case-verdict');
  await expect(caseVerdict).toBeVisible({ timeout: 60_000 });
  const said = (await caseVerdict.textContent())!;
  const dump = page.getByTestId('case-artifacts').locator('tr[data-artifact="dump.json"]');
  const row = (await dump.textContent())!;
  await expect.poll(() => hash(page).get('case')).toBe(dir);
  expect(sent).toEqual(['startCase']);

  await dump.getByRole('button').first().click();
  await selected(page, 'chain');
  await expect(page.getByTestId('verdict')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 60_000 });
  await expect.poll(() => hash(page).get('path')).toBe(join(dir, 'dump.json'));
  expect(hash(page).get('view')).toBe('chain');
  await axe(page, 'an artifact of the case in the chain view');

  // The Case view shows no artifact's banner: its progress, and the runs asked for, say whether it ran.
  const runs = await watchRuns(page, sent, false);
  await page.goBack();
  await selected(page, 'case');
  await expect(caseVerdict).toHaveText(said);
  await expect(dump).toHaveText(row);
  await named(page, 'case');
  expect(hash(page).get('case')).toBe(dir);
  await page.waitForTimeout(1_500);
  await expect(page.getByTestId('case-progress')).toHaveCount(0);
  expect(await runs()).toEqual({ dom: [], sent: [] });
  await axeBothThemes(page, 'the case again, by Back');

  // Forward: the artifact of the case is still the one open, shown again, nothing run.
  await page.goForward();
  await selected(page, 'chain');
  await expect.poll(() => hash(page).get('path')).toBe(join(dir, 'dump.json'));
  await page.waitForTimeout(1_000);
  expect(await runs()).toEqual({ dom: [], sent: [] });
});

test('Back to the Case view from before a case was opened shows it empty, never the case opened later', async ({
  workbench: page,
  served,
}) => {
  const sent = await socketCalls(page);
  // A file opened by its path.
  const file = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-history-')), 'intact.dump.json');
  cpSync(join(served.examples, INTACT), file);
  await page.getByTestId('tab-open').click();
  await page.getByTestId('open-path').fill(file);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('verdict')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 60_000 });
  await expect.poll(() => hash(page).get('verdict')).not.toBeNull();
  expect(hash(page).get('path')).toBe(file);

  // The Case view with no case open: an entry of its own.
  await page.getByTestId('tab-case').click();
  await selected(page, 'case');
  await named(page, 'case');
  await expect(page.locator('#case-path')).toBeVisible();
  const noCase = await page.evaluate(() => history.length);

  // Then the Open view, and a case folder opened from it.
  await page.getByTestId('tab-open').click();
  await selected(page, 'open');
  await named(page, 'open');
  const dir = await openCase(page, served);
  const caseVerdict = page.getByTestId('case-verdict');
  await expect(caseVerdict).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => hash(page).get('case')).toBe(dir);
  expect(sent).toEqual(['startJob', 'startCase']);
  // The Open view and the Case view it opened are steps; the case opened there is none.
  const entries = await page.evaluate(() => history.length);
  expect(entries).toBe(noCase + 2);
  await axe(page, 'a case opened after the Case view was shown without one');

  const runs = await watchRuns(page, sent, false);
  await page.goBack();
  await selected(page, 'open');
  await named(page, 'open');
  await page.goBack();
  await selected(page, 'case');
  // The case opened later is not shown: the Case view is as it was then, its opener ready.
  await expect(page.locator('#case-path')).toBeVisible();
  await page.waitForTimeout(1_500);
  await expect(caseVerdict).toHaveCount(0);
  await expect(page.getByTestId('case-artifacts')).toHaveCount(0);
  await named(page, 'case');
  expect(hash(page).get('case')).toBeNull();
  expect(hash(page).get('path')).toBe(file);
  expect(await runs()).toEqual({ dom: [], sent: [] });
  expect(await page.evaluate(() => history.length)).toBe(entries);
  await axeBothThemes(page, 'the Case view from before a case was opened, by Back');

  // Forward to the case's own entry: no longer open, it is opened again as its link says.
  await page.goForward();
  await selected(page, 'open');
  await page.goForward();
  await selected(page, 'case');
  await expect(caseVerdict).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => hash(page).get('case')).toBe(dir);
  expect((await runs()).sent).toEqual(['startCase']);
});

/**
 * Two saved case reports of the same file name, `case.json`, in two folders: a case of the
 * intact dump (UNAVAILABLE without its trust store) and one of the altered dump (FAIL).
 */
function twoSavedReports(served: Served): [string, string] {
  const root = mkdtempSync(join(tmpdir(), 'reprise-e2e-history-saved-'));
  return (['intact', 'altered'] as const).map((which) => {
    const dir = join(root, which, 'case');
    cpSync(join(served.examples, which === 'intact' ? INTACT : ALTERED), join(dir, 'dump.json'));
    cpSync(join(served.examples, 'tg/bundle.json'), join(dir, 'policy.json'));
    const saved = join(root, which, 'case.json');
    spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), 'verify', dir, '--case', saved]);
    return saved;
  }) as [string, string];
}

test('two saved case reports of one file name are two steps: Back to the first shows the Case view empty', async ({
  workbench: page,
  served,
}) => {
  const [first, second] = twoSavedReports(served);
  await expect(page.getByTestId('engine')).toContainText(/engine \d/, { timeout: 30_000 });
  await page.getByTestId('tab-case').click();
  await selected(page, 'case');
  await named(page, 'case');
  const input = page.locator('#case-report-input');
  const caseVerdict = page.getByTestId('case-verdict');
  await input.setInputFiles(first);
  await expect(caseVerdict).toHaveClass(/unavailable/, { timeout: 30_000 });
  await expect(page.locator('#case-h')).toContainText('case.json');
  // The first report where the Case view showed nothing: its entry is written over, no step.
  await page.waitForTimeout(500);
  const before = await page.evaluate(() => history.length);

  await input.setInputFiles(second);
  await expect(caseVerdict).toHaveClass(/fail/, { timeout: 30_000 });
  await expect(page.locator('#case-h')).toContainText('case.json');
  // Another report of the same name, at the same address: a step of its own.
  await expect.poll(() => page.evaluate(() => history.length), { timeout: 15_000 }).toBe(before + 1);
  await axe(page, 'the second saved case report of the same name');

  // The Open view, then Back: the second report is still what is shown, so it is shown again.
  await page.getByTestId('tab-open').click();
  await selected(page, 'open');
  await named(page, 'open');
  await page.goBack();
  await selected(page, 'case');
  await expect(caseVerdict).toHaveClass(/fail/);

  // Back to the first report's entry: no link reopens it, and the second is not it, so the view is emptied.
  await page.goBack();
  await selected(page, 'case');
  await expect(page.locator('#case-path')).toBeVisible();
  await expect(caseVerdict).toHaveCount(0);
  await expect(page.getByTestId('case-artifacts')).toHaveCount(0);
  await expect(page.locator('#case-h')).toHaveText('Case');
  expect(await page.evaluate(() => history.length)).toBe(before + 2);
  await axeBothThemes(page, "the Case view at the first saved report's entry, by Back");

  // Forward to the second report's entry: no link reopens it either; the view stays empty.
  await page.goForward();
  await selected(page, 'case');
  await page.waitForTimeout(1_000);
  await expect(caseVerdict).toHaveCount(0);
  await expect(page.locator('#case-path')).toBeVisible();
});

test('a link pasted in the tab naming the open artifact, with another option, runs it again as it says', async ({
  workbench: page,
}) => {
  const sent = await socketCalls(page);
  const verdict = page.getByTestId('verdict');
  await openExample(page, INTACT, 60_000);
  await expect(verdict.locator('.verdict-word')).toHaveText('PASS', { timeout: 60_000 });
  await expect.poll(() => hash(page).get('example')).toBe(INTACT);
  await expect.poll(() => hash(page).get('mode')).toBe('verify');

  // The address as it is, its mode changed: a link naming the artifact open.
  const runs = await watchRuns(page, sent);
  const link = hash(page);
  link.set('mode', 'replay');
  await page.evaluate((h) => (location.hash = h), link.toString());
  await expect.poll(async () => (await runs()).sent, { timeout: 60_000 }).toContain('startJob');
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 60_000 });
  await expect(verdict.locator('.verdict-word')).toHaveText('PASS', { timeout: 60_000 });
  await expect(verdict).toContainText(/replay/i);
  expect((await runs()).dom).toContain('verdict gone');
  await expect.poll(() => hash(page).get('mode')).toBe('replay');
  expect(hash(page).get('example')).toBe(INTACT);
  await axeBothThemes(page, 'the open artifact run again by a link pasted in the tab');

  // The same link with its mode as it was (a verify takes no what-if): followed again, run verified.
  const again = hash(page);
  again.set('mode', 'verify');
  again.delete('whatif');
  const before = (await runs()).sent.length;
  await page.evaluate((h) => (location.hash = h), again.toString());
  await expect.poll(async () => (await runs()).sent.length, { timeout: 60_000 }).toBe(before + 1);
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 60_000 });
  await expect(verdict.locator('.verdict-word')).toHaveText('PASS', { timeout: 60_000 });
  await expect.poll(() => hash(page).get('mode')).toBe('verify');
});

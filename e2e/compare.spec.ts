/**
 * Comparing through the UI only (web target): the Compare view's two-artifact diff (the
 * intact dump against a tampered one from the examples), its HTML export (one file, no
 * script, a permalink per difference, itself accessible), two kinds refused, and a dump's
 * replay with its tokens recorded against replayed. axe on every state, nothing excluded.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { axe, axeBothThemes, expect, openExample, ROOT, SCREENSHOTS, test } from './fixtures.js';
import type { Page, TestInfo } from '@playwright/test';

test.describe.configure({ timeout: 180_000 });

/** docs/screenshots/<name>.png, under `npm run screenshots` only. */
async function shot(page: Page, info: TestInfo, name: string): Promise<void> {
  if (SCREENSHOTS && info.project.name === 'web')
    await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', `${name}.png`), fullPage: true });
}

/** Chooses a built-in example and an action for one side of the Compare view. */
async function side(page: Page, which: 'left' | 'right', example: string, run: 'verify' | 'replay' = 'verify') {
  const box = page.getByTestId(`diff-side-${which}`);
  await box.getByLabel(/: compare$/).selectOption('example');
  await box.getByLabel(/: example$/).selectOption(example);
  await box.getByLabel(/: run$/).selectOption(run);
}

/** Picks a file for one side of the Compare view: a path, or a name and its bytes. */
async function pickFile(page: Page, which: 'left' | 'right', file: string | { name: string; buffer: Buffer }) {
  const box = page.getByTestId(`diff-side-${which}`);
  await box.getByLabel(/: compare$/).selectOption('file');
  await box
    .getByLabel(/: file$/)
    .setInputFiles(typeof file === 'string' ? file : { ...file, mimeType: 'application/json' });
}

test('the intact dump against a tampered one: field by field, the changed span marked, exported as one HTML file', async ({
  workbench: page,
}, info) => {
  await page.getByTestId('tab-compare').click();
  await expect(page.getByRole('heading', { name: 'Compare' })).toBeVisible();
  await axe(page, 'compare view, nothing chosen');
  await side(page, 'left', 'dumps/intact.dump.json');
  // The example picker lists artifacts only, as the Open view does: no key, trust store, registry or adapter.
  const picker = page.getByTestId('diff-side-left').getByLabel(/: example$/);
  await expect(picker.locator('option[value$=".pem"]')).toHaveCount(0);
  for (const notArtifact of ['dumps/trust-store.json', 'dumps/providers.json', 'packages/kernel-adapter.mjs'])
    await expect(picker.locator(`option[value="${notArtifact}"]`)).toHaveCount(0);
  await side(page, 'right', 'dumps/fail/altered-artifact.dump.json');
  await page.getByTestId('diff-run').click();
  const view = page.getByTestId('diff-view');
  await expect(view).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('diff-summary')).toHaveText(/^\d+ differences\.$/);
  const text = view.locator('tr[data-pointer$="/text"]');
  await expect(text.locator('del')).toHaveText('one sentence');
  await expect(text.locator('ins')).toHaveText('two sentences');
  const verdict = view.locator('tr[data-pointer="/verdict"]');
  // The examples bring their trust store: the intact dump passes, the altered one fails.
  await expect(verdict.locator('td').nth(3)).toHaveText('pass');
  await expect(verdict.locator('td').nth(4)).toHaveText('fail');
  await axeBothThemes(page, 'two-artifact diff');
  await shot(page, info, 'compare');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('diff-export').click()]);
  expect(download.suggestedFilename()).toBe('reprise.diff.html');
  const html = await readFile((await download.path())!, 'utf8');
  // Each difference's permalink is its change and pointer (shared/diff-html.ts rowIds).
  const id = /<tr id="(d-changed-[^"]+)">/.exec(html)?.[1];
  expect(id).toBeDefined();
  expect(html).toContain(`href="#${id}"`);
  expect(html).toContain('<del>one sentence</del>');
  expect(html).not.toMatch(/<script|<link|src=/i);
  // The exported page read on its own with scripts off: everything is there.
  const reader = await page.context().browser()!.newPage({ javaScriptEnabled: false });
  await reader.setContent(html);
  await expect(reader.getByRole('heading', { level: 1 })).toContainText('two replay-dump artifacts');
  await expect(reader.locator(`tr[id="${id}"]`)).toBeVisible();
  await reader.close();
  // axe runs as a script, so it reads the page in a second tab where scripts may run.
  const checked = await page.context().newPage();
  await checked.setContent(html);
  await axe(checked, 'exported diff page');
  await checked.close();
});

test('two picked files: each sent to the engine, verified and compared', async ({ workbench: page, served }) => {
  await page.getByTestId('tab-compare').click();
  for (const [which, file] of [
    ['left', 'dumps/intact.dump.json'],
    ['right', 'dumps/fail/altered-artifact.dump.json'],
  ] as const)
    await pickFile(page, which, join(served.examples, file));
  await page.getByTestId('diff-run').click();
  const view = page.getByTestId('diff-view');
  await expect(view).toBeVisible({ timeout: 60_000 });
  await expect(view).toContainText('intact.dump.json');
  await expect(view.locator('tr[data-pointer$="/text"] ins')).toHaveText('two sentences');
  await axe(page, 'two picked files compared');
});

test('two picked files whose rows shifted: the inserted row added, a moved row named on each side', async ({
  workbench: page,
}) => {
  const rows = Array.from({ length: 8 }, (_, i) => ({ id: i, score: i / 10 }));
  const moved = structuredClone(rows);
  moved.splice(2, 0, { id: 100, score: 0 });
  moved[6]!.score = 9;
  await page.getByTestId('tab-compare').click();
  for (const [which, value] of [
    ['left', rows],
    ['right', moved],
  ] as const)
    await pickFile(page, which, { name: `rows-${which}.json`, buffer: Buffer.from(JSON.stringify({ rows: value })) });
  await page.getByTestId('diff-run').click();
  const view = page.getByTestId('diff-view');
  await expect(view).toBeVisible({ timeout: 60_000 });
  await expect(view.locator('tr[data-pointer="/content/rows/2"]')).toContainText('added');
  await expect(view.locator('tr[data-pointer="/content/rows/5/score"]')).toContainText(
    '/content/rows/5/score (right: /content/rows/6/score)',
  );
  await expect(view.locator('tr[data-pointer^="/content/rows/"]')).toHaveCount(2);
  await expect(page.getByTestId('diff-lengths')).toContainText('/content/rows: 8 items left, 9 right');
  await axe(page, 'two picked files with shifted rows');
});

test('two picked files differing only beyond double precision: each such number listed by its literal, on the page too', async ({
  workbench: page,
}) => {
  // The canonical text writes 1000000000000000000001 as 1e+21 and 9007199254740993 as
  // 9007199254740992: compared on it, /content/a and /content/e read as unchanged.
  await page.getByTestId('tab-compare').click();
  for (const [which, text] of [
    ['left', '{"a":1e21,"b":0.1,"c":-0,"e":9007199254740993}'],
    ['right', '{"a":1000000000000000000001,"b":0.2,"c":0,"e":9007199254740992}'],
  ] as const)
    await pickFile(page, which, { name: `${which}.json`, buffer: Buffer.from(text) });
  await page.getByTestId('diff-run').click();
  const view = page.getByTestId('diff-view');
  await expect(view).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('diff-summary')).toHaveText('4 differences.');
  await expect(view.locator('tr[data-pointer^="/content/"]')).toHaveCount(3);
  const note = 'as written: beyond double precision, compared by its literal';
  const a = view.locator('tr[data-pointer="/content/a"] td');
  await expect(a.nth(4)).toHaveText(`1000000000000000000001${note}`);
  await expect(a.nth(5)).toHaveText('');
  const e = view.locator('tr[data-pointer="/content/e"] td');
  await expect(e.nth(3)).toHaveText(`9007199254740993${note}`);
  await expect(e.nth(4)).toHaveText('9007199254740992');
  await expect(view.locator('tr[data-pointer="/content/b"] td').nth(5)).toHaveText('0.1');
  await axe(page, 'two files differing beyond double precision');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('diff-export').click()]);
  const html = await readFile((await download.path())!, 'utf8');
  expect(html).toContain('1000000000000000000001');
  expect(html).toContain('9007199254740993');
  expect(html).toContain(note);
  const checked = await page.context().newPage();
  await checked.setContent(html);
  await expect(checked.locator('tr[id^="d-"]')).toHaveCount(4);
  await axe(checked, 'exported diff page with literals');
  await checked.close();
});

test('two picked files past the editor’s 8 MiB: their content compared by the engine, as reprise diff compares it', async ({
  workbench: page,
}) => {
  // The window once read 8 MiB of a side and compared only the reports past it; the engine
  // now reads each side to the CLI's 64 MiB and sends the window only the differences.
  await page.getByTestId('tab-compare').click();
  const pad = 'x'.repeat(9 * 1024 * 1024);
  for (const [which, text] of [
    ['left', `{"n":1,"pad":"${pad}"}`],
    ['right', `{"n":2,"pad":"${pad.slice(0, 4096)}CHANGED${pad.slice(4096)}"}`],
  ] as const)
    await pickFile(page, which, { name: `${which}.json`, buffer: Buffer.from(text) });
  await page.getByTestId('diff-run').click();
  const view = page.getByTestId('diff-view');
  await expect(view).toBeVisible({ timeout: 120_000 });
  await expect(view).toContainText('report and parsed content compared');
  await expect(view).not.toContainText('content not');
  await expect(view.locator('tr[data-pointer="/content/n"]')).toHaveCount(1);
  await expect(view.locator('tr[data-pointer="/content/pad"]')).toContainText('CHANGED');
  await axe(page, 'two files past 8 MiB compared');
});

test('one dump replayed under two model versions: the replays compared, the what-if named', async ({
  workbench: page,
}) => {
  await page.getByTestId('tab-compare').click();
  await side(page, 'left', 'dumps/whatif/drift.dump.json', 'replay');
  await side(page, 'right', 'dumps/whatif/drift.dump.json', 'replay');
  await page
    .getByTestId('diff-side-right')
    .getByLabel(/: what-if \(training\)$/)
    .fill('model=ref-2');
  await page.getByTestId('diff-run').click();
  const view = page.getByTestId('diff-view');
  await expect(view).toBeVisible({ timeout: 60_000 });
  await expect(view).toContainText('drift.dump.json (what-if model=ref-2)');
  await expect(view.locator('tr[data-pointer="/details/whatIf"]')).toContainText('added');
  await expect(view.locator('tr[data-pointer="/details/expression/replayed/score"] td').last()).toHaveText(/^-?\d/);
  await axe(page, 'two replays under two model versions');
});

test('the open result against its own replay', async ({ workbench: page }) => {
  await openExample(page, 'dumps/intact.dump.json', 60_000);
  await page.getByTestId('tab-compare').click();
  for (const [which, run] of [
    ['left', 'verify'],
    ['right', 'replay'],
  ] as const) {
    const box = page.getByTestId(`diff-side-${which}`);
    await box.getByLabel(/: compare$/).selectOption('open');
    await box.getByLabel(/: run$/).selectOption(run);
  }
  await page.getByTestId('diff-run').click();
  const view = page.getByTestId('diff-view');
  await expect(view).toBeVisible({ timeout: 60_000 });
  await expect(view.getByRole('heading')).toHaveText(
    'Differences: a verification and a replay of two replay-dump artifacts',
  );
  // The replay adds its comparison and the expression it re-executed.
  await expect(view.locator('tr[data-pointer="/comparisons"]')).toContainText('added');
  await expect(view.locator('tr[data-pointer="/details/expression"]')).toContainText('added');
  await axe(page, 'a result against its replay');
});

test('two artifacts of different kinds are refused, saying which kinds', async ({ workbench: page }) => {
  await page.getByTestId('tab-compare').click();
  await side(page, 'left', 'dumps/intact.dump.json');
  await side(page, 'right', 'tg/exact-intact/manifest.json');
  await page.getByTestId('diff-run').click();
  const error = page.getByTestId('diff-error');
  await expect(error).toContainText(
    /Cannot compare dumps\/intact\.dump\.json \(replay-dump\) with tg\/exact-intact\/manifest\.json \(tg-replay-manifest\)/,
    {
      timeout: 60_000,
    },
  );
  await expect(page.getByTestId('diff-view')).toHaveCount(0);
  await axe(page, 'two kinds refused');
});

test('a dump whose type was removed (of no kind) against the intact dump: compared, its type shown removed', async ({
  workbench: page,
  served,
}) => {
  await page.getByTestId('tab-compare').click();
  await side(page, 'left', 'dumps/intact.dump.json');
  const text = await readFile(join(served.examples, 'dumps/intact.dump.json'), 'utf8');
  const dump = JSON.parse(text) as Record<string, unknown>;
  delete dump['type'];
  await pickFile(page, 'right', { name: 'no-type.dump.json', buffer: Buffer.from(JSON.stringify(dump)) });
  await page.getByTestId('diff-run').click();
  const view = page.getByTestId('diff-view');
  await expect(view).toBeVisible({ timeout: 60_000 });
  await expect(view.getByRole('heading')).toHaveText('Differences: a replay-dump artifact and an unknown artifact');
  await expect(view.locator('tr[data-pointer="/content/type"]')).toContainText('removed');
  await expect(view.locator('tr[data-pointer="/artifact/kind"]')).toContainText('unknown');
  await axe(page, 'a dump against one of no kind');
});

test("a dump's replay shows the fields behind its hash row: tokens recorded against replayed, lengths said", async ({
  workbench: page,
}, info) => {
  await openExample(page, 'dumps/whatif/drift.dump.json', 60_000);
  await watchUnnamedDiffSides(page);
  await page.getByTestId('tab-replay').click();
  const tokens = page.getByTestId('diff-tokens');
  await expect(tokens).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('token-lengths')).toContainText(
    /The lengths differ: \d+ tokens recorded, \d+ replayed/,
  );
  await expect(tokens.locator('tr.differs').first()).toBeVisible();
  const diff = page.getByTestId('diff-view');
  await expect(diff.locator('tr[data-pointer="/expression/score"] td').last()).toHaveText(/^-?\d+(\.\d+)?$/);
  await tokens.scrollIntoViewIfNeeded();
  await shot(page, info, 'replay-tokens');
  // The expression diff below, shown and both its sides named, before axe reads the page.
  const editor = page.getByTestId('diff-editor');
  await expect(editor).toBeVisible();
  await expect(editor.getByRole('textbox', { name: 'Original expression (recorded)' })).toBeAttached();
  await expect(editor.getByRole('textbox', { name: 'Replayed expression' })).toBeAttached();
  await axeBothThemes(page, 'replay with token rows');
  expect(await page.evaluate(() => (window as unknown as { unnamedSeen: string[] }).unnamedSeen)).toEqual([]);
});

/**
 * Records, at every change of the page, whether the expression diff is shown with a side's
 * text box unnamed: axe sees the page only while it runs, and Monaco leaves both sides
 * unnamed for a moment after it creates them (the frame is hidden and busy until then).
 */
async function watchUnnamedDiffSides(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { unnamedSeen: string[] }).unnamedSeen = seen;
    new MutationObserver(() => {
      const frame = document.querySelector<HTMLElement>('[data-testid="diff-editor"]');
      if (!frame?.checkVisibility({ visibilityProperty: true })) return;
      for (const box of frame.querySelectorAll<HTMLElement>('[role="textbox"]')) {
        if (box.checkVisibility({ visibilityProperty: true }) && !box.getAttribute('aria-label')) {
          seen.push(box.className);
        }
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
}

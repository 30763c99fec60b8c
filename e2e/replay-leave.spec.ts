/**
 * Leaving the Replay view in the same step as its report goes (web target): a link followed
 * in the same tab, Back and Forward out of the Replay entry, unmount the expression's diff
 * editor as its view is hidden. Monaco's diff editor then changed a context key (the hidden
 * editor's width falls past its inline breakpoint) and answered it 50 ms after its disposal,
 * throwing "AbstractContextKeyService has been disposed", uncaught, in three runs of four
 * (components/Editors.tsx DIFF_OPTIONS). No uncaught error across several such transitions;
 * axe on each new state.
 */
import type { Page } from '@playwright/test';
import { axe, expect, test, type Served } from './fixtures.js';

test.describe.configure({ timeout: 240_000 });

const REPLAY = 'view=replay&example=dumps/whatif/drift.dump.json&mode=replay&whatif=';
const FINDINGS = 'view=findings&example=dumps/intact.dump.json';

/** Every uncaught error of the page, from now on. */
function uncaught(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** Follows a link in this tab: only the fragment changes (a history entry of its own). */
async function follow(page: Page, served: Served, link: string): Promise<void> {
  await page.evaluate((h) => (location.hash = h), `token=${served.token}&${link}`);
}

/** The Replay view shown, with its expression diff built (both of Monaco's sides named). */
async function replayShown(page: Page): Promise<void> {
  await expect(page.getByTestId('tab-replay')).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
  const diff = page.getByTestId('diff-editor');
  await expect(diff.locator('.monaco-diff-editor')).toBeVisible({ timeout: 30_000 });
  await expect(diff).not.toHaveAttribute('aria-busy', 'true');
}

/**
 * The Findings view shown with the intact example's PASS, and a moment past the 50 ms after
 * which Monaco's menus answer a context key changed as the editor went.
 */
async function findingsShown(page: Page): Promise<void> {
  await expect(page.getByTestId('tab-findings')).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
  await expect(page.getByTestId('verdict').locator('.verdict-word')).toHaveText('PASS', { timeout: 30_000 });
  await expect(page.getByTestId('diff-editor')).toHaveCount(0);
  await page.waitForTimeout(500);
}

test('a link out of the Replay view, and Back and Forward out of its entry, throw nothing', async ({
  workbench: page,
  served,
}) => {
  const errors = uncaught(page);
  for (let i = 0; i < 4; i++) {
    await follow(page, served, REPLAY);
    await replayShown(page);
    if (i === 0) await axe(page, 'the Replay view opened by a link');
    await follow(page, served, FINDINGS);
    await findingsShown(page);
    if (i === 0) await axe(page, 'the Findings view, followed from the Replay view');
    expect(errors, `run ${i + 1}`).toEqual([]);
  }
  for (let i = 0; i < 2; i++) {
    await page.goBack();
    await replayShown(page);
    if (i === 0) await axe(page, 'the Replay view again, by Back');
    await page.goForward();
    await findingsShown(page);
    if (i === 0) await axe(page, 'the Findings view again, by Forward');
    expect(errors, `back and forward ${i + 1}`).toEqual([]);
  }
  // Back out of the Replay entry to the one before it: the editor goes again.
  await page.goBack();
  await replayShown(page);
  await page.goBack();
  await findingsShown(page);
  expect(errors).toEqual([]);
});

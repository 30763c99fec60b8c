/**
 * A link followed in the same tab, or reloaded, fails closed (web target): whatever it names
 * that the window cannot open (a picked file, a saved report, a case outside the granted
 * folders, an option it may not use, an ambiguous or unreadable link) clears what was open
 * before it, so no verdict of another artifact stands over its note or refusal; the address
 * keeps the link as given (never a key), so a reload says the same; and the Case view never
 * shows the open artifact's verdict banner. axe on every state, light and dark.
 */
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Page } from '@playwright/test';
import { axeBothThemes, expect, openExample, ROOT, test, type Served } from './fixtures.js';

test.describe.configure({ timeout: 180_000 });

const INTACT = 'dumps/intact.dump.json';
const banner = (page: Page) => page.getByTestId('verdict');
const hash = (page: Page) => new URLSearchParams(new URL(page.url()).hash.slice(1));

/** Follows a link in this tab: only the fragment changes (the served token kept first). */
async function follow(page: Page, served: Served, link: string): Promise<void> {
  await page.evaluate((h) => (location.hash = h), `token=${served.token}&${link}`);
}

/** The intact example open and passing: the verdict a link must not leave standing. */
async function passing(page: Page): Promise<void> {
  await openExample(page, INTACT);
  await expect(banner(page).locator('.verdict-word')).toHaveText('PASS');
}

/** A folder outside every folder the server grants (its --root is the temp folder). */
function outside(): string {
  const dir = join(ROOT, 'test-results', `links-hardening-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A case folder under the granted temp folder: one policy bundle, which passes alone. */
function oneArtifactCase(served: Served): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-links-')), 'case-one');
  mkdirSync(dir);
  cpSync(join(served.examples, 'tg/bundle.json'), join(dir, 'policy.json'));
  return dir;
}

test("a link to a picked file or a saved report clears the open artifact's verdict, and keeps the link", async ({
  workbench: page,
  served,
}) => {
  await passing(page);
  await follow(page, served, 'view=chain&picked=x.json');
  const note = page.getByTestId('job-note');
  await expect(note).toContainText('x.json, a file picked in this window');
  await expect(note).toBeFocused();
  await expect(banner(page)).toHaveCount(0);
  await expect(page.getByText('Open an artifact first')).toBeVisible();
  // The address still names the picked file, not the example before it: a reload says the same.
  await expect.poll(() => hash(page).get('picked')).toBe('x.json');
  expect(hash(page).get('example')).toBeNull();
  await axeBothThemes(page, 'a link to a picked file, over an open artifact');
  await page.reload();
  await expect(note).toContainText('x.json, a file picked in this window');
  await expect(banner(page)).toHaveCount(0);

  await passing(page);
  await follow(page, served, 'view=chain&report=saved.json');
  await expect(note).toContainText('the saved report saved.json');
  await expect(banner(page)).toHaveCount(0);
  await expect.poll(() => hash(page).get('report')).toBe('saved.json');
  await page.reload();
  await expect(note).toContainText('the saved report saved.json');
  await expect(banner(page)).toHaveCount(0);
});

test("a case link never shows the open artifact's banner; a refused one keeps naming the case, and a reload refuses again", async ({
  workbench: page,
  served,
}) => {
  const away = outside();
  writeFileSync(join(away, 'policy.json'), '{}');
  await passing(page);
  await follow(page, served, `view=case&case=${encodeURIComponent(away)}`);
  const error = page.getByTestId('case-error');
  await expect(error).toContainText('outside the folders this workbench may read', { timeout: 30_000 });
  await expect(error).toBeFocused();
  await expect(banner(page)).toHaveCount(0);
  await expect.poll(() => hash(page).get('case')).toBe(away);
  expect(hash(page).get('example')).toBeNull();
  await axeBothThemes(page, 'a case link refused, over an open artifact');
  await page.reload();
  await expect(error).toContainText('outside the folders this workbench may read', { timeout: 30_000 });
  await expect(banner(page)).toHaveCount(0);

  // Through `..` from the granted folder: the same refusal, the same link kept.
  await passing(page);
  const dotted = `${tmpdir()}/${relative(tmpdir(), away)}`;
  expect(dotted).toContain('..');
  await follow(page, served, `view=case&case=${encodeURIComponent(dotted)}`);
  await expect(error).toContainText('outside the folders this workbench may read', { timeout: 30_000 });
  await expect(banner(page)).toHaveCount(0);
  await expect.poll(() => hash(page).get('case')).toBe(dotted);

  // A case that opens: its own verdict, never the artifact's banner above it; one artifact is said so.
  await passing(page);
  const dir = oneArtifactCase(served);
  await follow(page, served, `view=case&case=${encodeURIComponent(dir)}`);
  const verdict = page.getByTestId('case-verdict');
  await expect(verdict).toHaveText('Case: PASS · 1 artifact · 0 links · 0 events', { timeout: 60_000 });
  await expect(banner(page)).toHaveCount(0);
  await axeBothThemes(page, 'a case link opened over an open artifact');
  // The artifact is still open in its own views, with its own banner.
  await page.getByTestId('tab-chain').click();
  await expect(banner(page).locator('.verdict-word')).toHaveText('PASS');
});

test('a case link whose option cannot be granted names that option, runs nothing, and keeps the link', async ({
  workbench: page,
  served,
}) => {
  const dir = oneArtifactCase(served);
  const trust = join(outside(), 'trust-store.json');
  cpSync(join(served.examples, 'dumps/trust-store.json'), trust);
  const link = new URLSearchParams({ view: 'case', case: dir, trustStore: trust });
  await follow(page, served, link.toString());
  const error = page.getByTestId('case-error');
  await expect(error).toContainText('This case is opened with the option trustStore', { timeout: 30_000 });
  await expect(error).toContainText(trust);
  await expect(error).toContainText('outside the folders');
  await expect(error).toContainText('It was not run without it');
  await expect(error).toBeFocused();
  await expect(page.getByTestId('case-verdict')).toHaveCount(0);
  await expect.poll(() => hash(page).get('trustStore')).toBe(trust);
  expect(hash(page).get('case')).toBe(dir);
  await axeBothThemes(page, 'a case link whose option is refused');
  await page.reload();
  await expect(error).toContainText('This case is opened with the option trustStore', { timeout: 30_000 });
  await expect(page.getByTestId('case-verdict')).toHaveCount(0);
});

test('a key typed into a link is never kept in the address the window writes', async ({ workbench: page, served }) => {
  await passing(page);
  await follow(page, served, `view=findings&example=${encodeURIComponent(INTACT)}&key=%2Ftmp%2Freviewer.key.pem`);
  await expect.poll(() => hash(page).get('view')).toBe('findings');
  await expect(banner(page).locator('.verdict-word')).toHaveText('PASS', { timeout: 30_000 });
  await expect.poll(() => hash(page).has('key')).toBe(false);
  expect(hash(page).get('example')).toBe(INTACT);
  // A link the window refuses is kept as given, but for its key.
  await follow(page, served, `view=chain&picked=x.json&key=%2Ftmp%2Freviewer.key.pem`);
  await expect(page.getByTestId('job-note')).toContainText('x.json');
  await expect.poll(() => hash(page).has('key')).toBe(false);
  expect(hash(page).get('picked')).toBe('x.json');
});

test('an ambiguous link is refused, naming the conflict, and runs nothing', async ({ workbench: page, served }) => {
  const dump = join(served.examples, INTACT);
  const trust = join(served.examples, 'dumps/trust-store.json');
  const error = page.getByTestId('error');
  await passing(page);
  // Watch for any job from here on: an ambiguous link must start none.
  await page.evaluate(() => {
    const w = window as unknown as { __jobSeen: boolean };
    w.__jobSeen = false;
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="job"]')) w.__jobSeen = true;
    }).observe(document.body, { childList: true, subtree: true });
  });
  await follow(page, served, `view=chain&example=${encodeURIComponent(INTACT)}&path=${encodeURIComponent(dump)}`);
  await expect(error).toContainText(`names "example=${INTACT}" and "path=${dump}": it is ambiguous`);
  await expect(error).toContainText('nothing was opened');
  await expect(error).toBeFocused();
  await expect(banner(page)).toHaveCount(0);
  await axeBothThemes(page, 'an ambiguous link refused');

  const gone = join(outside(), 'trust-store.json');
  const twice = new URLSearchParams({ view: 'chain', path: dump, trustStore: trust });
  twice.append('trustStore', gone);
  await follow(page, served, twice.toString());
  await expect(error).toContainText(`gives trustStore more than once ("trustStore=${trust}", "trustStore=${gone}")`);
  await expect(banner(page)).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __jobSeen: boolean }).__jobSeen)).toBe(false);
  // The link is kept as given: a reload refuses it again.
  await expect.poll(() => hash(page).getAll('trustStore')).toEqual([trust, gone]);
  await page.reload();
  await expect(error).toContainText('gives trustStore more than once');
  await expect(banner(page)).toHaveCount(0);
});

test("a hash that is no link says so, in place of the previous link's error", async ({ workbench: page, served }) => {
  const error = page.getByTestId('error');
  await follow(page, served, 'view=findings&example=dumps%2Fno-such.dump.json');
  await expect(error).toContainText('which this engine does not have');
  await passing(page);
  await expect(error).toHaveCount(0);
  await follow(page, served, encodeURIComponent('{"view":"chain","path":"/tmp/x.json"}'));
  await expect(error).toContainText('This link is not one this workbench understands');
  await expect(error).toContainText('is no part of a link, so nothing was opened');
  await expect(error).toBeFocused();
  await expect(banner(page)).toHaveCount(0);
  await axeBothThemes(page, 'a hash that is no link');
  // The stale error of an earlier link goes, replaced by this one's.
  await follow(page, served, 'view=findings&example=dumps%2Fno-such.dump.json');
  await expect(error).toContainText('which this engine does not have');
  await follow(page, served, 'garbage');
  await expect(error).toContainText('"garbage" is no part of a link');
  await expect(error).not.toContainText('which this engine does not have');
  await follow(page, served, `view=chain&mode=delete&example=${encodeURIComponent(INTACT)}`);
  await expect(error).toContainText('asks for "mode=delete"');
  await expect(banner(page)).toHaveCount(0);
});

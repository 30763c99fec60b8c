/**
 * The address names what is shown, and what it names is shown as it is (web target):
 * - a link that names only a view, or a bare token, followed over a PASS: the PASS stays and
 *   the address is written back to name it, so the address copied into a new tab opens the
 *   same PASS; a link held because it could not be opened goes with its note;
 * - a case's link carries the case's verdict and content: reloaded after the key in its trust
 *   store was revoked, or over other files, the case says so;
 * - a file whose name holds U+202E, and a link's parameter holding it, are shown escaped in the
 *   banner and the refusal, never reversed.
 * axe on each state.
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { axe, axeBothThemes, expect, test, type Served } from './fixtures.js';

test.describe.configure({ timeout: 180_000 });

const RLO = '\u202e';
const word = (page: Page) => page.getByTestId('verdict').locator('.verdict-word');
const hash = (page: Page) => new URLSearchParams(new URL(page.url()).hash.slice(1));

/** Follows a link in this tab: only the fragment changes. */
async function follow(page: Page, served: Served, link: string): Promise<void> {
  await page.evaluate((h) => (location.hash = h), link ? `token=${served.token}&${link}` : `token=${served.token}`);
}

/** A folder of its own under the granted temp folder, holding the examples' intact dump and a trust store to change. */
function ownCopy(served: Served): { dir: string; dump: string; trust: string } {
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-names-'));
  mkdirSync(join(dir, 'case'));
  const dump = join(dir, 'case', 'intact.dump.json');
  const trust = join(dir, 'trust-store.json');
  copyFileSync(join(served.examples, 'dumps/intact.dump.json'), dump);
  copyFileSync(join(served.examples, 'dumps/trust-store.json'), trust);
  return { dir, dump, trust };
}

test('a link naming only a view, or a bare token, over a PASS: the address names the PASS, and opens it in a new tab', async ({
  workbench: page,
  served,
}) => {
  const { dump, trust } = ownCopy(served);
  await follow(page, served, new URLSearchParams({ view: 'findings', path: dump, trustStore: trust }).toString());
  await expect(word(page)).toHaveText('PASS', { timeout: 30_000 });
  for (const bare of ['view=findings', 'view=chain', '']) {
    await follow(page, served, bare);
    await expect.poll(() => hash(page).get('path'), `after "${bare}"`).toBe(dump);
    expect(hash(page).get('trustStore')).toBe(trust);
    expect(hash(page).get('verdict')).toBe('pass');
    await expect(word(page)).toHaveText('PASS');
    await axe(page, `a PASS after a link naming ${bare || 'nothing but the token'}`);
    const copied = await page.context().newPage();
    await copied.goto(page.url());
    await expect(copied.getByTestId('verdict').locator('.verdict-word')).toHaveText('PASS', { timeout: 30_000 });
    await copied.close();
  }

  // A picked file's link is held with its note; a link naming only a view then lets go of both.
  await follow(page, served, 'view=findings&picked=mine.json');
  await expect(page.getByTestId('job-note')).toContainText('mine.json, a file picked in this window');
  await follow(page, served, 'view=chain');
  await expect(page.getByTestId('job-note')).toHaveCount(0);
  await expect.poll(() => hash(page).has('picked')).toBe(false);
  expect(hash(page).get('view')).toBe('chain');
  await axe(page, 'a view alone after a held link');
});

test("a case's link says what its case saw: reloaded over a revoked key, or over other files, the case says so", async ({
  workbench: page,
  served,
}) => {
  const { dir, trust } = ownCopy(served);
  const folder = join(dir, 'case');
  await follow(page, served, new URLSearchParams({ view: 'case', case: folder, trustStore: trust }).toString());
  const verdict = page.getByTestId('case-verdict');
  await expect(verdict).toContainText('Case: PASS', { timeout: 60_000 });
  await expect.poll(() => hash(page).get('verdict')).toBe('pass');
  expect(hash(page).get('content')).toMatch(/^sha256:[0-9a-f]{64}$/);
  const shared = page.url();
  await axe(page, 'a case whose link says what it saw');

  // The key revoked in the link's trust store since: the same files, another verdict, said.
  const ts = JSON.parse(readFileSync(trust, 'utf8')) as { keys: { status: string }[] };
  for (const k of ts.keys) k.status = 'revoked';
  writeFileSync(trust, JSON.stringify(ts));
  await page.reload();
  await expect(verdict).toContainText(/Case: (FAIL|UNAVAILABLE)/, { timeout: 60_000 });
  const note = page.getByTestId('case-note');
  await expect(note).toContainText(`This link was made when the case ${folder} read PASS; the same files now read`);
  await expect(note).toContainText('a file one of them names (a trust store, providers, a policy) is not what it was');
  await axeBothThemes(page, 'a case link reloaded over a revoked key');

  // The keys active again, and another file in the folder: not the case the link was shared from.
  cpSync(join(served.examples, 'dumps/trust-store.json'), trust);
  copyFileSync(join(served.examples, 'dumps/fail/altered-artifact.dump.json'), join(folder, 'altered.dump.json'));
  await page.goto(shared);
  await expect(verdict).toBeVisible({ timeout: 60_000 });
  await expect(note).toContainText(`This link was made when the case ${folder} held other files`);
  await expect(note).toContainText('it is not the case the link was shared from');
  await axe(page, 'a case link reloaded over other files');
});

test('a file named with U+202E, and a link parameter holding it, are shown escaped, never reversed', async ({
  workbench: page,
  served,
}) => {
  const { dir, trust } = ownCopy(served);
  const spoof = join(dir, `${RLO}nosj.pmud.tcatni`);
  copyFileSync(join(served.examples, 'dumps/intact.dump.json'), spoof);
  await follow(page, served, new URLSearchParams({ view: 'findings', path: spoof, trustStore: trust }).toString());
  const banner = page.getByTestId('verdict');
  await expect(word(page)).toHaveText('PASS', { timeout: 30_000 });
  await expect(banner).toContainText(`${dir}/\\u202enosj.pmud.tcatni`);
  expect(await banner.innerText()).not.toContain(RLO);
  await expect(banner.locator('.control-escape')).toHaveText(['\\u202e']);
  await axeBothThemes(page, 'a file named with U+202E');

  await follow(page, served, `view=findings&x${encodeURIComponent(RLO)}yz=1`);
  const error = page.getByTestId('error');
  await expect(error).toContainText('"x\\u202eyz" is no part of a link');
  expect(await error.innerText()).not.toContain(RLO);
  await expect(error).toBeFocused();
  await axe(page, 'a refusal quoting a parameter with U+202E');
});

/**
 * Sharing reproduces the run (web target): the link carries every option that decides the
 * verdict, so a reload keeps a PASS that needs its trust store; a link followed in the same
 * tab opens what it names; a link whose option this workbench can no longer read says so,
 * naming the option, and runs nothing without it. A link asks for one run and gets that run
 * or nothing: an example's own options are not replaced by a link's; what-if substitutions on
 * a verify are refused, not dropped; a refused option is the one whose file failed; and a
 * link followed never writes to the reviewer's journal (a replay from a link runs read-only
 * and says how to anchor it).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { axe, axeBothThemes, expect, openWorkJournal, ROOT, test } from './fixtures.js';

test.describe.configure({ timeout: 120_000 });

/** `reprise examples` in a folder under the temp root the server grants. */
function examples(): string {
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-share-'));
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), 'examples', dir], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return dir;
}

const word = (page: Page) => page.getByTestId('verdict').locator('.verdict-word');

/** Opens a file by path with its trust store from the Open view, as a reviewer does, to PASS. */
async function openPassing(page: Page, dump: string, trust: string): Promise<void> {
  await page.getByTestId('tab-open').click();
  await page.getByText('Engine options for the files you open').click();
  await page.locator('#opt-trust').fill(trust);
  await page.getByTestId('open-path').fill(dump);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(word(page)).toHaveText('PASS', { timeout: 30_000 });
}

test('a reload keeps the verdict: the link carries the trust store it was opened with', async ({ workbench: page }) => {
  const dir = examples();
  const dump = join(dir, 'dumps', 'intact.dump.json');
  const trust = join(dir, 'dumps', 'trust-store.json');
  await openPassing(page, dump, trust);
  await expect.poll(() => new URLSearchParams(new URL(page.url()).hash.slice(1)).get('trustStore')).toBe(trust);
  const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
  expect(hash.get('path')).toBe(dump);
  expect(hash.has('key')).toBe(false);
  await page.reload();
  await expect(word(page)).toHaveText('PASS', { timeout: 30_000 });
  await expect(page.getByTestId('authenticity')).toContainText('Trusted signer');
  // The Open view shows the trust store the link brought.
  await page.getByTestId('tab-open').click();
  await page.getByText('Engine options for the files you open').click();
  await expect(page.locator('#opt-trust')).toHaveValue(trust);
  await axe(page, 'a reloaded link with its trust store');
});

test('a link says what its run saw: reopened over another file, or the same bytes under a changed trust store, it says so', async ({
  workbench: page,
}) => {
  const dir = examples();
  const dump = join(dir, 'dumps', 'intact.dump.json');
  const trust = join(dir, 'dumps', 'trust-store.json');
  await openPassing(page, dump, trust);
  await expect.poll(() => hashOf(page).get('verdict')).toBe('pass');
  const sha = hashOf(page).get('sha256')!;
  expect(sha).toMatch(/^sha256:[0-9a-f]{64}$/);
  const shared = page.url();
  // The same path now holds the tampered dump: the link says it is not the file it was made from.
  copyFileSync(join(dir, 'dumps', 'fail', 'altered-artifact.dump.json'), dump);
  await page.reload();
  await expect(word(page)).toHaveText('FAIL', { timeout: 30_000 });
  const note = page.getByTestId('job-note');
  await expect(note).toContainText(`This link was made from a file whose SHA-256 was ${sha} (PASS)`);
  await expect(note).toContainText('it is not the file the link was shared from');
  await axeBothThemes(page, 'a link reopened over another file');
  // The intact bytes back, under a trust store whose key was revoked since: same bytes, another verdict.
  const ex = examples();
  copyFileSync(join(ex, 'dumps', 'intact.dump.json'), dump);
  const ts = JSON.parse(readFileSync(trust, 'utf8')) as { keys: { status: string }[] };
  for (const k of ts.keys) k.status = 'revoked';
  writeFileSync(trust, JSON.stringify(ts));
  await page.goto(shared);
  await expect(word(page)).not.toHaveText('PASS', { timeout: 30_000 });
  await expect(note).toContainText(`This link was made when ${dump} read PASS; the same bytes now read`);
  await expect(note).toContainText('a file one of them names (a trust store, providers, a policy) is not what it was');
  await axe(page, 'a link reopened under a changed trust store');
});

test('a link followed in the same tab opens what it names, without a reload', async ({ workbench: page }) => {
  const dir = examples();
  await page.getByTestId('tab-open').click();
  await page.locator('[data-example="dumps/intact.dump.json"]').click();
  await expect(word(page)).toHaveText('PASS', { timeout: 30_000 });
  await page.evaluate(() => ((window as unknown as { sameTab: number }).sameTab = 1));
  // A link to a file by path with its trust store, pasted into this tab: only the fragment changes.
  const url = new URL(page.url());
  const p = new URLSearchParams(url.hash.slice(1));
  for (const k of ['example', 'mode', 'whatif']) p.delete(k);
  p.set('view', 'chain');
  p.set('path', join(dir, 'dumps', 'fail', 'altered-artifact.dump.json'));
  p.set('trustStore', join(dir, 'dumps', 'trust-store.json'));
  await page.evaluate((h) => (location.hash = h), p.toString());
  await expect(page.getByTestId('verdict')).toContainText('altered-artifact.dump.json', { timeout: 30_000 });
  await expect(word(page)).toHaveText('FAIL');
  await expect(page.getByTestId('tab-chain')).toHaveAttribute('aria-selected', 'true');
  expect(await page.evaluate(() => (window as unknown as { sameTab?: number }).sameTab)).toBe(1);
  await axe(page, 'a link followed in the same tab');
});

test('a link whose option can no longer be read (outside the granted folders, or gone) names that option and runs nothing without it', async ({
  workbench: page,
  served,
}) => {
  const dir = examples();
  // A trust store outside every folder the server grants (its --root is the temp folder).
  const away = join(ROOT, 'test-results', `share-${Date.now()}`);
  mkdirSync(away, { recursive: true });
  const trust = join(away, 'trust-store.json');
  copyFileSync(join(dir, 'dumps', 'trust-store.json'), trust);
  const link = new URLSearchParams({
    view: 'findings',
    path: join(dir, 'dumps', 'intact.dump.json'),
    trustStore: trust,
  });
  await page.goto(`${served.url}&${link.toString()}`);
  const error = page.getByTestId('error');
  // Refused once opened; the link the window writes then still names the option (a refused
  // run keeps its options), so a reload refuses again rather than running without it.
  await expect(error).toContainText('option trustStore', { timeout: 30_000 });
  await expect.poll(() => new URLSearchParams(new URL(page.url()).hash.slice(1)).get('trustStore')).toBe(trust);
  await page.reload();
  await expect(error).toContainText('option trustStore', { timeout: 30_000 });
  await expect(error).toContainText(trust);
  await expect(error).toContainText('It was not run without it');
  await expect(error).toHaveAttribute('role', 'alert');
  await expect(error).toBeFocused();
  await expect(page.getByTestId('verdict')).toHaveCount(0);
  await axe(page, 'a link whose option is refused');

  // A trust store under a granted folder that is gone: the engine cannot read it, and the error names the option.
  const gone = join(dir, 'dumps', 'gone-trust-store.json');
  const second = new URLSearchParams({
    view: 'findings',
    path: join(dir, 'dumps', 'intact.dump.json'),
    trustStore: gone,
  });
  await page.evaluate((h) => (location.hash = h), `${new URL(served.url).hash.slice(1)}&${second.toString()}`);
  await expect(error).toContainText(`option trustStore`, { timeout: 30_000 });
  await expect(error).toContainText(gone);
  await expect(error).toContainText('It was not run without it');
  await expect(error).toBeFocused();
  await expect(page.getByTestId('verdict')).toHaveCount(0);
});

/** Follows a link in this tab (only the fragment changes, the token kept). */
async function follow(page: Page, link: Record<string, string>): Promise<void> {
  const p = new URLSearchParams(new URL(page.url()).hash.slice(1));
  const next = new URLSearchParams({ token: p.get('token') ?? '', ...link });
  await page.evaluate((h) => (location.hash = h), next.toString());
}

const hashOf = (page: Page) => new URLSearchParams(new URL(page.url()).hash.slice(1));

test("a link naming another trust store for an example that has its own is refused, naming the option; the example's own still decides", async ({
  workbench: page,
}) => {
  const dir = examples();
  // The examples' trust store with every key active: it would pass the revoked-key dump.
  const ts = JSON.parse(readFileSync(join(dir, 'dumps', 'trust-store.json'), 'utf8')) as { keys: { status: string }[] };
  for (const k of ts.keys) k.status = 'active';
  const allActive = join(dir, 'ts-all-active.json');
  writeFileSync(allActive, JSON.stringify(ts));
  await follow(page, { view: 'findings', example: 'dumps/fail/revoked-key.dump.json' });
  await expect(word(page)).toHaveText('FAIL', { timeout: 30_000 });
  await follow(page, { view: 'findings', example: 'dumps/fail/revoked-key.dump.json', trustStore: allActive });
  const error = page.getByTestId('error');
  await expect(error).toContainText('sets its own trustStore', { timeout: 30_000 });
  await expect(error).toContainText(`trustStore=${allActive}`);
  await expect(error).toBeFocused();
  await expect(page.getByTestId('verdict')).toHaveCount(0);
  expect(hashOf(page).get('trustStore')).toBe(allActive);
  await axeBothThemes(page, "a link replacing an example's own option, refused");
});

test('a link with what-if substitutions on a verify is refused, nothing run', async ({ workbench: page }) => {
  const dir = examples();
  await follow(page, {
    view: 'findings',
    path: join(dir, 'dumps', 'intact.dump.json'),
    whatif: 'model=ref-2',
    trustStore: join(dir, 'dumps', 'trust-store.json'),
    providers: join(dir, 'dumps', 'providers.json'),
  });
  const error = page.getByTestId('error');
  await expect(error).toContainText('apply to a replay only (mode=replay)', { timeout: 30_000 });
  await expect(page.getByTestId('verdict')).toHaveCount(0);
  expect(hashOf(page).get('whatif')).toBe('model=ref-2');
  await axe(page, 'a what-if on a verify, refused');
});

test('a refused option is the one whose file failed, and artifact= on a dump is said to apply only to reports', async ({
  workbench: page,
}) => {
  const dir = examples();
  // A trust store whose path begins the missing provider registry's.
  const ts = join(dir, 'ts');
  copyFileSync(join(dir, 'dumps', 'trust-store.json'), ts);
  await follow(page, {
    view: 'findings',
    path: join(dir, 'dumps', 'intact.dump.json'),
    mode: 'replay',
    whatif: '',
    trustStore: ts,
    providers: `${ts}.providers.json`,
  });
  const error = page.getByTestId('error');
  await expect(error).toContainText(`option providers`, { timeout: 30_000 });
  await expect(error).toContainText(`${ts}.providers.json`);
  await expect(error).not.toContainText('option trustStore');
  await expect(page.getByTestId('verdict')).toHaveCount(0);
  await axe(page, 'a missing provider registry, named');
  const dump = join(dir, 'dumps', 'intact.dump.json');
  await follow(page, { view: 'findings', path: dump, artifact: dump });
  await expect(error).toContainText('applies only to exported reports', { timeout: 30_000 });
  await expect(error).not.toContainText('cannot use');
  await expect(page.getByTestId('verdict')).toHaveCount(0);
  await axe(page, 'artifact= on a dump, refused');
});

test('a replay link runs read-only with a journal and key chosen: nothing anchored, the link unchanged; Run replay anchors', async ({
  workbench: page,
  served,
}) => {
  const journal = await openWorkJournal(page, served, 'reprise-e2e-linkreq-wj-');
  const manifest = join(served.examples, 'tg', 'banded-drift-material', 'manifest.json');
  await follow(page, { view: 'findings', path: manifest, mode: 'replay' });
  const note = page.getByTestId('job-note');
  await expect(note).toContainText('Opened from a link, this replay ran read-only', { timeout: 60_000 });
  await expect(note).toContainText(`nothing was anchored in the journal ${journal}`);
  await expect(note).toContainText('Run replay');
  await expect(page.getByTestId('verdict')).toBeVisible();
  // The address names what the link named, no journal or trust store of the window's.
  const h = hashOf(page);
  expect(h.get('path')).toBe(manifest);
  expect(h.has('journal')).toBe(false);
  expect(h.has('trustStore')).toBe(false);
  await axeBothThemes(page, 'a replay link run read-only');
  await page.getByTestId('tab-replay').click();
  await expect(page.getByTestId('replay-anchored')).toHaveCount(0);
  // The user's own replay anchors: the case opens now (none was opened by the link before it).
  await page.getByTestId('run-replay').click();
  await expect(page.getByTestId('replay-anchored')).toContainText(
    /Human Review case case-\d+ opened for claim:2026-11-0104/,
    { timeout: 60_000 },
  );
  await expect(page.getByTestId('job-note')).toHaveCount(0);
});

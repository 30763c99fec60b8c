/**
 * The verdict banner of an evidence bundle never reads as a plain pass over what a reviewer
 * rejected or over a report that cannot be trusted (web target, through the UI):
 * - a bundle whose report passes but which carries a signed reject: the engine's PASS is
 *   kept, beside it the reject and who signed it, in the heading that names the banner, and
 *   the banner is not green;
 * - a bundle whose report.json was edited to pass (its failing findings removed): the
 *   bundle fails RPR-EVB-003, and the report it carries is shown as not trusted, with why,
 *   never as a green PASS;
 * - both banners reflow to a 320 px window (the sha256: ids wrap, WCAG 1.4.10).
 * Axe on each state, light and dark.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { axeBothThemes, expect, openExample, openWorkJournal, ROOT, test } from './fixtures.js';

test.describe.configure({ timeout: 300_000 });

const REJECT = 'Rejected: the claim this dump supports was withdrawn by its provider; do not rely on it.';

/** The built CLI, which must succeed. */
function cli(args: string[]): void {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`reprise ${args.join(' ')}: ${r.stderr}`);
}

/** A module of the built engine. */
const built = async <T>(path: string): Promise<T> =>
  (await import(pathToFileURL(join(ROOT, 'dist', 'app', path)).href)) as T;

/** Every member of a ZIP the engine wrote, in archive order, read with the engine's own reader. */
async function members(zip: Buffer): Promise<{ name: string; data: Buffer }[]> {
  type Entry = { name: string };
  const { readStructure } = await built<{ readStructure: (b: Buffer, l: unknown) => { entries: Entry[] } }>(
    'zip/reader.js',
  );
  const { readEntries } = await built<{
    readEntries: (b: Buffer, e: Entry[], keep: () => boolean) => Promise<{ bytes: Buffer | null }[]>;
  }>('zip/parallel.js');
  const { resolveLimits } = await built<{ resolveLimits: (l: undefined) => unknown }>('zip/limits.js');
  const { entries } = readStructure(zip, resolveLimits(undefined));
  const read = await readEntries(zip, entries, () => true);
  return entries.map((e, i) => ({ name: e.name, data: read[i]!.bytes! }));
}

/** The bundle with its report.json edited to say PASS, its failing findings removed, and nothing else changed. */
async function editedToPass(zip: Buffer): Promise<Buffer> {
  const { writeZip } = await built<{ writeZip: (f: { name: string; data: Uint8Array }[]) => Buffer }>('zip/writer.js');
  const files = await members(zip);
  const report = files.find((f) => f.name === 'report.json')!;
  const r = JSON.parse(report.data.toString('utf8')) as { verdict: string; findings: { severity: string }[] };
  expect(r.verdict).not.toBe('pass');
  r.verdict = 'pass';
  r.findings = r.findings.filter((f) => f.severity !== 'fail' && f.severity !== 'unavailable');
  report.data = Buffer.from(`${JSON.stringify(r)}\n`);
  return writeZip(files);
}

/** Opens a file from the Open view with the trust store given, and waits for its banner. */
async function openWithTrust(page: Page, name: string, bytes: Buffer, trust: string): Promise<void> {
  await page.getByTestId('tab-open').click();
  if (!(await page.locator('#opt-trust').isVisible()))
    await page.getByText('Engine options for the files you open').click();
  await page.locator('#opt-trust').fill(trust);
  await page.locator('#file-input').setInputFiles({ name, mimeType: 'application/zip', buffer: bytes });
  await expect(page.getByTestId('verdict')).toContainText(name, { timeout: 60_000 });
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 60_000 });
}

/**
 * The page's width, and the innermost elements that reach past the window (named, so a
 * failure says which) but those inside a box that scrolls sideways: a table, read in two
 * dimensions, may scroll in its box (WCAG 1.4.10's exception); the page may not.
 */
const overflow = (page: Page): Promise<{ width: number; past: string[] }> =>
  page.evaluate(() => {
    const wide = (e: Element): boolean => e.getBoundingClientRect().right > window.innerWidth + 0.5;
    const scrolls = (e: Element | null): boolean =>
      e !== null && (getComputedStyle(e).overflowX !== 'visible' || scrolls(e.parentElement));
    // The innermost: an element past the edge none of whose children is.
    const past = [...document.querySelectorAll('body *')].filter(
      (e) => wide(e) && ![...e.children].some(wide) && !scrolls(e.parentElement),
    );
    const name = (e: Element): string =>
      `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} "${e.textContent!.slice(0, 30)}"`;
    return { width: document.documentElement.scrollWidth, past: past.slice(0, 5).map(name) };
  });

/** Nothing wider than the window at 1400 px, nor at 320 px (WCAG 1.4.10); the viewport is left at 320 px. */
async function reflows(page: Page): Promise<void> {
  for (const width of [1400, 320]) {
    await page.setViewportSize({ width, height: 900 });
    await expect.poll(() => overflow(page), { message: `at ${width} px` }).toEqual({ width, past: [] });
  }
}

test('a passing bundle that carries a signed reject: the reject and its signer beside the PASS, never green', async ({
  workbench: page,
  served,
}) => {
  await openWorkJournal(page, served, 'reprise-e2e-bb-');
  await openExample(page, 'dumps/intact.dump.json', 60_000);
  await expect(page.getByTestId('verdict')).toHaveClass(/\bpass\b/);
  await page.getByTestId('judge-report').click();
  await page.getByTestId('decision-reject').check();
  await page.getByTestId('judgement-rationale').fill(REJECT);
  await page.getByTestId('judge-review').click();
  await page.getByTestId('confirm-sign-button').click();
  await expect(page.getByTestId('judgement-receipt')).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-bundle').click()]);
  const bundle = readFileSync(await download.path());

  await openWithTrust(page, 'pass-reject.zip', bundle, served.reviewerTrustStore);
  const banner = page.getByTestId('verdict');
  // The engine's verdict is kept (both verdicts pass); what a reviewer signed is said beside it.
  await expect(banner).toHaveAttribute('data-verdict', 'pass');
  await expect(page.locator('#verdict-h .verdict-word')).toHaveText('PASS');
  await expect(page.getByTestId('file-integrity')).toHaveAttribute('data-verdict', 'pass');
  await expect(page.getByTestId('carried-verdict')).toHaveAttribute('data-trust', 'trusted');
  await expect(banner).not.toHaveClass(/\bpass\b/);
  await expect(banner).toHaveClass(/\brejected\b/);
  await expect(page.getByTestId('verdict-caveat')).toHaveText(/signed reject by reviewer/);
  await expect(banner).toHaveAccessibleName(/^PASS · signed reject by reviewer/);
  await expect(banner).toHaveAccessibleDescription(/A reviewer rejected this/);
  const line = page.getByTestId('verdict-rejection');
  await expect(line).toContainText('entry #0, on the whole report');
  await expect(line).toContainText(served.reviewerKeyId);
  await expect(line).toContainText('its inclusion proof verified');
  // Not green: the banner's background is not the colour of a pass.
  const colours = await banner.evaluate((el) => {
    const probe = document.createElement('div');
    probe.className = 'verdict-banner pass';
    document.body.append(probe);
    const pass = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return { banner: getComputedStyle(el).backgroundColor, pass };
  });
  expect(colours.banner).not.toBe(colours.pass);
  await axeBothThemes(page, 'a passing bundle carrying a signed reject');
  await reflows(page);
  await axeBothThemes(page, 'a passing bundle carrying a signed reject, 320 px');
});

test('a bundle whose report.json was edited to pass: FAIL, and the report it carries not trusted, never green', async ({
  workbench: page,
  served,
}) => {
  const base = mkdtempSync(join(tmpdir(), 'reprise-e2e-bb-edit-'));
  const dump = join(served.examples, 'dumps', 'fail', 'altered-artifact.dump.json');
  const sha = `sha256:${createHash('sha256').update(readFileSync(dump)).digest('hex')}`;
  const note = join(base, 'note.txt');
  writeFileSync(note, 'The altered dump, kept as the evidence of what was recorded for the claim.');
  const trust = ['--trust-store', served.reviewerTrustStore];
  const journal = join(base, 'journal');
  cli(['journal', 'note', journal, '--artifact', sha, '--body-file', note, '--key', served.reviewerKey, ...trust]);
  const out = join(base, 'bundle.zip');
  cli(['export', dump, '--journal', journal, '--out', out, ...trust]);

  await openWithTrust(page, 'edited.zip', await editedToPass(readFileSync(out)), served.reviewerTrustStore);
  const banner = page.getByTestId('verdict');
  await expect(banner).toHaveClass(/\bfail\b/);
  await expect(page.getByTestId('decisive')).toContainText('RPR-EVB-003');
  await expect(page.getByTestId('file-integrity')).toHaveAttribute('data-verdict', 'fail');
  const carried = page.getByTestId('carried-verdict');
  // What the edited report states is pass; it is shown as not trusted, with why, and in no pass colour.
  await expect(carried).toHaveAttribute('data-verdict', 'pass');
  await expect(carried).toHaveAttribute('data-trust', 'untrusted');
  await expect(carried).toContainText('NOT TRUSTED');
  await expect(carried).toContainText('the verdict it states cannot be trusted');
  await expect(carried).toContainText("report.json: its SHA-256 or size differs from the manifest's");
  await expect(carried).not.toContainText('PASS');
  await expect(carried).not.toContainText('every check of the carried report passed');
  await expect(carried.locator('.tag.pass')).toHaveCount(0);
  await expect(banner.locator('.tag.pass')).toHaveCount(0);
  await axeBothThemes(page, 'a bundle whose report was edited to pass');
  await reflows(page);
  await axeBothThemes(page, 'a bundle whose report was edited to pass, 320 px');
});

/**
 * The workbench under test, from either target: `web` starts `reprise serve` (the built
 * CLI and renderer) and opens its tokenized URL in Chromium; `electron` launches the
 * built app with _electron.launch and is skipped when no Electron binary is present.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, _electron, expect, type Page } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Set by `npm run screenshots` (scripts/screenshots.js): only then do specs write docs/screenshots/. */
export const SCREENSHOTS = process.env['REPRISE_SCREENSHOTS'] === '1';

export function electronBinary(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve('electron/package.json'));
    const bin = join(dir, 'dist', readFileSync(join(dir, 'path.txt'), 'utf8').trim());
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

export interface Served {
  url: string;
  origin: string;
  token: string;
  proc: ChildProcess;
  /** A reviewer key made before the server started and named with --key (the only keys it signs with). */
  reviewerKey: string;
  reviewerTrustStore: string;
  reviewerKeyId: string;
  /** `reprise examples` written before the server started; its kernel adapter is named with --kernel-adapter. */
  examples: string;
}

export function startServe(): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-key-'));
  const reviewerKey = join(dir, 'reviewer.key.pem');
  const reviewerTrustStore = join(dir, 'trust-store.json');
  const k = spawnSync(
    process.execPath,
    [
      join(ROOT, 'bin', 'reprise.js'),
      'keys',
      'generate',
      '--out',
      reviewerKey,
      '--role',
      'reviewer',
      '--trust-store',
      reviewerTrustStore,
      '--json',
    ],
    { encoding: 'utf8' },
  );
  if (k.status !== 0) throw new Error(`keys generate failed: ${k.stderr}`);
  const reviewerKeyId = (JSON.parse(k.stdout) as { keyId: string }).keyId;
  // A kernel adapter is code the engine runs: the server runs only one named at start-up.
  const examples = join(dir, 'examples');
  const ex = spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), 'examples', examples], { encoding: 'utf8' });
  if (ex.status !== 0) throw new Error(`reprise examples failed: ${ex.stderr}`);
  const adapter = join(examples, 'packages', 'kernel-adapter.mjs');
  return new Promise((resolve, reject) => {
    // The tests open files they write under the temp folder: it is the root they choose.
    const proc = spawn(
      process.execPath,
      [join(ROOT, 'bin', 'reprise.js'), 'serve', '--root', tmpdir(), '--key', reviewerKey, '--kernel-adapter', adapter],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    const timer = setTimeout(() => reject(new Error(`reprise serve did not start: ${out}`)), 30_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+)\/#token=([A-Za-z0-9_-]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[0],
          origin: m[1]!,
          token: m[2]!,
          proc,
          reviewerKey,
          reviewerTrustStore,
          reviewerKeyId,
          examples,
        });
      }
    });
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('exit', (code) => reject(new Error(`reprise serve exited with ${code}: ${out}`)));
  });
}

type Target = 'web' | 'electron';

export const test = base.extend<{ target: Target; workbench: Page }, { served: Served }>({
  target: ['web', { option: true }],
  served: [
    // Playwright requires an object pattern for a fixture's first argument, even when empty.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const s = await startServe();
      await use(s);
      s.proc.kill('SIGTERM');
    },
    { scope: 'worker' },
  ],
  workbench: async ({ target, served, browser }, use, testInfo) => {
    if (target === 'electron') {
      const bin = electronBinary();
      testInfo.skip(
        !bin,
        'no Electron binary on this machine (its download is blocked); the web target covers the same renderer and engine',
      );
      const app = await _electron.launch({ executablePath: bin!, args: [ROOT, '--no-sandbox'] });
      const page = await app.firstWindow();
      await use(page);
      await app.close();
      return;
    }
    const context = await browser.newContext({ colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(served.url);
    await use(page);
    await context.close();
  },
});

export { expect } from '@playwright/test';

/**
 * axe on the page as it stands, nothing excluded: no violation in `state`, whatever its impact.
 * axe reads the page over many tasks (it yields between rules), so a region still being
 * built when it starts (`aria-busy`: an editor still loading, the expression diff before
 * Monaco's sides are named) can change under it and be reported as neither state is: it
 * waits for the page to settle first. A region that never settles fails here.
 */
export async function axe(page: Page, state: string): Promise<void> {
  await expect(page.locator('[aria-busy="true"]'), `${state}: a region still busy`).toHaveCount(0);
  const r = await new AxeBuilder({ page }).analyze();
  expect(
    r.violations.map(
      (v) =>
        `${state}: ${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')})`,
    ),
  ).toEqual([]);
}

/** axe on the page as it stands, in the light theme and then the dark one (left light). */
export async function axeBothThemes(page: Page, state: string): Promise<void> {
  await axe(page, state);
  await page.getByTestId('theme').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await axe(page, `${state} (dark)`);
  await page.getByTestId('theme').click();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', 'dark');
}

/** Opens a built-in example from the Open view and waits for its job to end. */
export async function openExample(page: Page, path: string, timeout = 30_000): Promise<void> {
  await page.getByTestId('tab-open').click();
  await page.locator(`[data-example="${path}"]`).click();
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout });
}

/**
 * Creates a fresh journal to work in through the header's form, with the served reviewer
 * trust store (or `trustStore`), chooses the serve --key reviewer key and closes the form. Returns its folder.
 */
export async function openWorkJournal(
  page: Page,
  served: Served,
  prefix = 'reprise-e2e-wj-',
  trustStore = served.reviewerTrustStore,
): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), prefix)), 'journal');
  await page.getByTestId('work-journal-toggle').click();
  await page.locator('#wj-dir').fill(dir);
  await page.locator('#wj-trust').fill(trustStore);
  await page.getByTestId('wj-create').check();
  await page.getByTestId('wj-open').click();
  await expect(page.getByTestId('work-journal-status')).toHaveText('verified · 0 entries', { timeout: 30_000 });
  await page.getByTestId('wj-key').selectOption(served.reviewerKey);
  await page.getByRole('button', { name: 'Done' }).click();
  return dir;
}

/**
 * The workbench for real work (web target, through the UI): the signer named next to its
 * key id, a capped comparisons table that says so where the rows are, the trainer's
 * pickers filled from the provider registry, its version comparison, the what-if dump's
 * numeric chart and an unknown substitution named in the banner. axe, nothing excluded,
 * on each new state.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axe, openExample, expect, ROOT, test } from './fixtures.js';

test.describe.configure({ timeout: 180_000 });

test('the signing key shows its holder: role and label from the trust store', async ({ workbench: page }) => {
  await openExample(page, 'dumps/intact.dump.json', 60_000);
  await expect(page.getByTestId('key-signer')).toHaveText(/held by a reviewer: sample dump signer/);
  await axe(page, 'verdict with signer');
});

test('a capped report says, where the rows are, how many exist and how to list them all', async ({
  workbench: page,
}) => {
  // A real engine report, capped by a low limit (the CLI's --limit), opened as a saved report.
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-cap-'));
  const trace = join(dir, 'trace.jsonl');
  const gen = spawnSync(process.execPath, [
    '--input-type=module',
    '-e',
    `import { generateTrace } from ${JSON.stringify(join(ROOT, 'dist/app/kinds/acgp/generate.js'))}; process.stdout.write(generateTrace({ count: 300, seed: 7, traceId: 'trace-e2e-cap' }).map((e) => JSON.stringify(e)).join('\\n') + '\\n');`,
  ]);
  expect(gen.status, gen.stderr.toString()).toBe(0);
  writeFileSync(trace, gen.stdout);
  const out = spawnSync(process.execPath, [
    join(ROOT, 'bin', 'reprise.js'),
    'replay',
    trace,
    '--json',
    '--limit',
    'acgp-comparisons=100',
  ]);
  const report = JSON.parse(out.stdout.toString());
  const total = Object.values(report.details.comparisonCounts as Record<string, number>).reduce((a, b) => a + b, 0);
  expect(report.comparisons).toHaveLength(100);
  expect(total).toBeGreaterThan(100);
  const saved = join(dir, 'report.json');
  writeFileSync(saved, JSON.stringify(report));
  await page.getByTestId('tab-open').click();
  await page.locator('#report-input').setInputFiles(saved);
  await page.getByTestId('tab-replay').click();
  const cap = page.getByTestId('comparisons-cap');
  await expect(cap).toContainText(`Showing the first 100 of ${total.toLocaleString('en')} comparisons`);
  await expect(cap).toContainText('acgp-comparisons');
  await expect(cap).toContainText('RPR-ACGP-035');
  await expect(cap).toContainText(`--limit acgp-comparisons=${total}`);
  await expect(page.getByTestId('comparison-count')).toContainText(
    `100 of 100 comparisons listed (${total.toLocaleString('en')} exist)`,
  );
  await axe(page, 'capped comparisons');
});

test('trainer: pickers from the registry, every version side by side, the dump what-if chart', async ({
  workbench: page,
}) => {
  await openExample(page, 'tg/banded-drift-material/manifest.json', 60_000);
  await page.getByTestId('tab-trainer').click();
  await expect(page.getByTestId('offers-source')).toContainText('(built-in)');
  const models = await page.getByTestId('whatif-model').locator('option').allTextContents();
  expect(models).toEqual(['as recorded', 'ref-1', 'ref-2']);
  await page.getByTestId('run-sweep').click();
  const sweep = page.getByTestId('sweep');
  const planned =
    (await page.getByTestId('whatif-model').locator('option').count()) -
    1 +
    (await page.getByTestId('whatif-shape').locator('option').count()) -
    1;
  // Two runs of each (the default): every run counted, none failed.
  await expect(sweep.locator('h3')).toContainText(`(${2 * planned} of ${2 * planned} runs replayed)`, {
    timeout: 120_000,
  });
  await expect(page.getByTestId('chart-sweep')).toBeVisible();
  await expect(page.getByTestId('sweep-summary')).toContainText('Governed maximum drift rate 10%');
  await expect(page.getByTestId('sweep-summary')).toContainText('Exceeding it: model=ref-1');
  await expect(page.getByTestId('sweep-summary')).toContainText('model=ref-2');
  await axe(page, 'trainer version comparison');

  // What-if on a dump charts its numeric outputs: per-token log-probabilities, and the score.
  await openExample(page, 'dumps/whatif/drift.dump.json', 60_000);
  await page.getByTestId('tab-trainer').click();
  await expect(page.getByTestId('chart-expression')).toBeVisible();
  await expect(page.getByTestId('expression-score')).toContainText(/Score: recorded -?\d/);
  await expect(page.getByTestId('demo-unknown')).toHaveCount(0);
  await axe(page, 'trainer dump what-if');
});

test('an unknown model version says in the banner which ones the registry offers', async ({
  workbench: page,
  served,
}) => {
  const ex = mkdtempSync(join(tmpdir(), 'reprise-e2e-ex-'));
  expect(spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), 'examples', ex]).status).toBe(0);
  const out = spawnSync(process.execPath, [
    join(ROOT, 'bin', 'reprise.js'),
    'replay',
    join(ex, 'tg/banded-drift-material/manifest.json'),
    '--what-if',
    'model=ref-9',
    '--json',
  ]);
  const saved = join(ex, 'what-if-ref-9.json');
  writeFileSync(saved, out.stdout);
  await page.goto(served.url);
  await page.getByTestId('tab-open').click();
  await page.locator('#report-input').setInputFiles(saved);
  await page.getByTestId('tab-trainer').click();
  await expect(page.getByTestId('demo-unknown')).toHaveText(
    'Model version ref-9 is not offered by the provider registry (built-in); it offers ref-1, ref-2.',
  );
  await axe(page, 'trainer unknown substitution');
});

test("a picked file streams from the Web Worker as one HTTP body, its job following the bytes as they arrive, and the window's hash matches", async ({
  workbench: page,
}, testInfo) => {
  const dir = mkdtempSync(join(tmpdir(), 'reprise-e2e-pick-'));
  const f = join(dir, 'big.json');
  // 24 MiB of JSON that no kind claims: the upload is what is tested, not a kind.
  writeFileSync(f, JSON.stringify({ type: 'not-a-kind', pad: 'x'.repeat(24 * 1024 * 1024) }));
  const frames: { url: string; sent: number }[] = [];
  page.on('websocket', (ws) => {
    const rec = { url: ws.url(), sent: 0 };
    frames.push(rec);
    ws.on(
      'framesent',
      (fr) => (rec.sent += typeof fr.payload === 'string' ? fr.payload.length : fr.payload.byteLength),
    );
  });
  const posts: string[] = [];
  page.context().on('request', (r) => {
    if (r.method() === 'POST') posts.push(new URL(r.url()).pathname);
  });
  await page.getByTestId('tab-open').click();
  // What the job bar says while it runs, recorded as it changes (a fast machine may show it briefly).
  await page.evaluate(() => {
    const w = window as unknown as { jobBarTexts: string[] };
    w.jobBarTexts = [];
    new MutationObserver(() => {
      const t = document.querySelector('[data-testid="job"]')?.textContent;
      if (t && w.jobBarTexts.at(-1) !== t) w.jobBarTexts.push(t);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.locator('#file-input').setInputFiles(f);
  await expect(page.getByTestId('verdict')).toContainText('matches the hash computed in this window', {
    timeout: 120_000,
  });
  await expect(page.getByTestId('decisive')).toContainText('RPR-KIND-001');
  // The job started while the bytes were on their way, and showed them arriving (web host),
  // or the note showed the sending (Electron: the job starts once the engine holds them).
  const texts = await page.evaluate(() => (window as unknown as { jobBarTexts: string[] }).jobBarTexts);
  if (testInfo.project.name === 'web')
    expect(texts.some((t) => /Verifying big\.json… receiving\s*\d+%/.test(t))).toBe(true);
  // Through the web host the bytes went as one request body (POST /upload/ID), on no socket;
  // Electron sends them over IPC.
  for (const fr of frames) expect(fr.sent).toBeLessThan(1024 * 1024);
  if (testInfo.project.name === 'web') expect(posts.filter((p) => /^\/upload\/[\w-]+$/.test(p))).toHaveLength(1);
  await axe(page, 'picked file');
});

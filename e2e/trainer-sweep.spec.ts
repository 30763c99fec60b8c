/**
 * The trainer's sweep through TrainerView (web target): every version and shape the
 * registry offers, each replayed twice side by side in the pool, charted as the largest
 * |Δ| in units of its ε for the worst and the best run, with each output's |Δ| and ε as
 * the engine wrote them. Runs that fail are counted as failed and listed with the engine's
 * reason, and nothing is claimed of them; a sweep shows its progress, can be cancelled, and
 * stops when its artifact is opened again. A reload of the tab keeps the sweep's results,
 * said to be those of the sweep that was run, with its substitutions, runs and options, over
 * the artifact it swept only. A what-if dump, whose one comparison is its
 * expression's hash, has no |Δ| against ε: its sweep lists what differed per substitution.
 * (That the jobs run at once is counted in test/workbench/sweep.test.ts.)
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { axe, expect, openExample, test, type Served } from './fixtures.js';

test.describe.configure({ timeout: 240_000 });

const EXAMPLE = 'tg/banded-drift-material/manifest.json';

test('the sweep charts |Δ| against ε per substitution and the spread over repeated runs', async ({
  workbench: page,
}) => {
  await openExample(page, EXAMPLE, 60_000);
  await page.getByTestId('tab-trainer').click();
  await expect(page.getByTestId('offers-source')).toContainText('(built-in)');
  const subs =
    (await page.getByTestId('whatif-model').locator('option').count()) -
    1 +
    (await page.getByTestId('whatif-shape').locator('option').count()) -
    1;
  await page.getByTestId('sweep-repeats').selectOption('2');
  await page.getByTestId('run-sweep').click();
  const sweep = page.getByTestId('sweep');
  await expect(sweep.locator('h3')).toContainText(`2 runs each (${2 * subs} of ${2 * subs} runs replayed)`, {
    timeout: 200_000,
  });
  await expect(page.locator('#sweep-h')).toBeFocused();
  // Done: no bar left, nothing failed.
  await expect(page.getByRole('progressbar', { name: 'Sweep progress' })).toHaveCount(0);
  await expect(page.getByTestId('sweep-failed')).toHaveCount(0);
  const chart = page.getByTestId('chart-sweep');
  await expect(chart).toBeVisible();
  await expect(chart.locator('figcaption')).toContainText("in units of its output's ε");
  await expect(chart.locator('figcaption')).toContainText('worst and best of 2 runs');
  // Its data as a table: one row per substitution, the worst and best run's |Δ| ÷ ε.
  await chart.locator('summary').click();
  await expect(chart.locator('summary')).toContainText(`(${subs} rows)`);
  await expect(page.getByTestId('chart-sweep-table').getByRole('columnheader')).toHaveText([
    'substitution',
    '|Δ| ÷ ε, worst run',
    '|Δ| ÷ ε, best run',
    'ε (the band edge)',
  ]);
  // In words: which substitutions drift beyond ε, and that repeated runs agreed.
  const band = page.getByTestId('sweep-band');
  await expect(band).toContainText('Beyond ε (drift): model=ref-1');
  await expect(band).toContainText("Every substitution's 2 runs gave the same |Δ|");
  // Each output's |Δ| as the engine wrote it, against its ε.
  await page.getByText("Every BANDED output's |Δ| and ε, per substitution").click();
  const rows = page.getByTestId('sweep-deltas').locator('tbody tr');
  await expect(rows.first()).toContainText(/in all 2 runs/);
  expect(await rows.count()).toBeGreaterThanOrEqual(subs);
  await expect(page.getByTestId('sweep-deltas')).toContainText('0.03');
  await axe(page, 'the trainer sweep with its |Δ| against ε chart');
});

test('a what-if dump has no |Δ| against ε: the sweep lists what differed per substitution, its rate in outputs', async ({
  workbench: page,
}) => {
  await openExample(page, 'dumps/whatif/drift.dump.json', 60_000);
  await page.getByTestId('tab-trainer').click();
  await expect(page.getByTestId('offers-source')).toContainText('compute shape(s)');
  const subs =
    (await page.getByTestId('whatif-model').locator('option').count()) -
    1 +
    (await page.getByTestId('whatif-shape').locator('option').count()) -
    1;
  await page.getByTestId('sweep-repeats').selectOption('2');
  await page.getByTestId('run-sweep').click();
  await expect(page.locator('#sweep-h')).toContainText(`2 runs each (${2 * subs} of ${2 * subs} runs replayed)`, {
    timeout: 200_000,
  });
  // The dump compares its expression EXACT (by hash): nothing to chart against ε, and it says so.
  await expect(page.getByTestId('chart-sweep')).toHaveCount(0);
  await expect(page.getByTestId('sweep-differed-words')).toContainText('so its difference is not numeric');
  const ref2 = page.getByTestId('sweep-differed').locator('tbody tr').filter({ hasText: 'model=ref-2' });
  await expect(ref2).toContainText('expression');
  await expect(ref2).toContainText('EXACT, not numeric');
  await expect(ref2).toContainText('token positions differ');
  await expect(ref2).toContainText('2 of 2 runs, the same replayed value each time');
  // The rate counts outputs, never runs.
  await expect(page.getByTestId('sweep-summary')).toContainText('1 of 1 output differed (100%)');
  await expect(page.getByTestId('sweep-summary')).not.toContainText('= 100%');
  await axe(page, 'the trainer sweep of a what-if dump');
});

type Shape = { advisor: string; arity: number; tensorType: string };

/** A provider registry file offering ref-1 (with the reference model's own capacity) and `shapes`. */
function registry(shapes: Shape[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-sweep-')), 'providers.json');
  const models = [
    { modelId: 'ref-1', quantizationProfiles: ['fp32', 'int8'], capacitySnapshot: { contextWindow: 4096 } },
  ];
  writeFileSync(
    file,
    JSON.stringify({
      providers: [{ providerId: 'reprise.reference', kind: 'reference', models, computeShapes: shapes }],
      type: 'reprise.providers/v1',
    }),
  );
  return file;
}

const cpu = (arity: number, tensorType = 'fp32'): Shape => ({ advisor: 'advisor.cpu_v1', arity, tensorType });

/** Opens the TG example by its path with `providers` as the Open view's registry, and shows the Trainer. */
async function openWithRegistry(page: Page, served: Served, providers: string): Promise<void> {
  await page.getByTestId('tab-open').click();
  const options = page.getByText('Engine options for the files you open');
  if (!(await page.locator('#opt-providers').isVisible())) await options.click();
  await page.locator('#opt-providers').fill(providers);
  await page.getByTestId('open-path').fill(join(served.examples, EXAMPLE));
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 60_000 });
  await page.getByTestId('tab-trainer').click();
}

test('runs that fail are counted as failed, listed with the reason, and nothing is claimed from them', async ({
  workbench: page,
  served,
}) => {
  // A shape the engine refuses to replay under: an arity of five digits.
  await openWithRegistry(page, served, registry([cpu(1), cpu(12345)]));
  await expect(page.getByTestId('offers-source')).toContainText('1 model version(s), 2 compute shape(s)');
  await page.getByTestId('sweep-repeats').selectOption('2');
  await page.getByTestId('run-sweep').click();
  const heading = page.locator('#sweep-h');
  // Six runs: the refused shape's two failed, and they are not counted as replayed.
  await expect(heading).toContainText('2 runs each (4 of 6 runs replayed, 2 failed)', { timeout: 120_000 });
  await expect(heading).toBeFocused();
  const failed = page.getByRole('list', { name: /2 runs of the sweep failed/ });
  await expect(failed.getByRole('listitem')).toHaveText([
    /^shape=advisor\.cpu_v1\/12345\/fp32, run 1 of 2: .*--what-if shape takes ADVISOR\/ARITY\/TENSORTYPE/,
    /^shape=advisor\.cpu_v1\/12345\/fp32, run 2 of 2: .*--what-if shape takes ADVISOR\/ARITY\/TENSORTYPE/,
  ]);
  // The chart and the words are over the runs measured: no claim for every substitution.
  const band = page.getByTestId('sweep-band');
  await expect(band).not.toContainText("Every substitution's");
  await expect(band).toContainText('No |Δ| was measured for 1 of 3 substitutions.');
  await expect(band).toContainText('The repeated runs of 2 of 3 substitutions gave the same |Δ| each time');
  const chart = page.getByTestId('chart-sweep');
  await chart.locator('summary').click();
  await expect(chart.locator('summary')).toContainText('(2 rows)');
  await axe(page, 'the trainer sweep with runs that failed');
});

/** Counts the engine calls the page's transport sends, by method (the socket lives in a worker; its frames are seen). */
function countCalls(page: Page): Record<string, number> {
  const calls: Record<string, number> = {};
  page.on('websocket', (ws) =>
    ws.on('framesent', (f) => {
      const m = /"method":"(startJob|cancelJob)"/.exec(typeof f.payload === 'string' ? f.payload : '');
      if (m) calls[m[1]!] = (calls[m[1]!] ?? 0) + 1;
    }),
  );
  return calls;
}

/**
 * Opens the example with a registry of 81 substitutions on a page whose engine calls are
 * counted, and starts a sweep of 5 runs of each: 405 runs, long enough to act on while it runs.
 */
async function startLongSweep(page: Page, served: Served): Promise<Record<string, number>> {
  const calls = countCalls(page);
  await page.reload();
  const shapes = Array.from({ length: 40 }, (_, i) => [cpu(i + 1), cpu(i + 1, 'fp64')]).flat();
  await openWithRegistry(page, served, registry(shapes));
  await expect(page.getByTestId('offers-source')).toContainText('1 model version(s), 80 compute shape(s)');
  await page.getByTestId('sweep-repeats').selectOption('5');
  await page.getByTestId('run-sweep').click();
  await expect(page.getByRole('progressbar', { name: 'Sweep progress' })).toBeVisible();
  return calls;
}

test('a running sweep shows its progress and can be cancelled: the runs not started never reach the engine', async ({
  workbench: page,
  served,
}) => {
  const calls = await startLongSweep(page, served);
  const bar = page.getByRole('progressbar', { name: 'Sweep progress' });
  await expect(bar).toHaveAttribute('max', /^\d+$/);
  const planned = Number(await bar.getAttribute('max'));
  expect(planned).toBe(405);
  await expect(page.getByTestId('run-sweep')).toBeDisabled();
  await axe(page, 'the trainer sweep running, with its progress bar and Cancel');
  await page.getByTestId('sweep-cancel').click();
  await expect(bar).toHaveCount(0, { timeout: 60_000 });
  const heading = page.locator('#sweep-h');
  await expect(heading).toContainText('cancelled)');
  await expect(heading).toBeFocused();
  await expect(page.getByTestId('sweep-cancelled')).toContainText(`of ${planned} were stopped or never started`);
  const started = calls['startJob']!;
  // The example's verification, and far fewer runs than planned; the runs in flight were cancelled in the engine.
  expect(started - 1).toBeLessThan(planned);
  expect(calls['cancelJob'] ?? 0).toBeGreaterThan(0);
  await expect(page.getByTestId('run-sweep')).toBeEnabled();
  await page.waitForTimeout(1500);
  expect(calls['startJob']).toBe(started);
  await axe(page, 'the trainer sweep cancelled');
});

test('opening the artifact again stops its sweep: no run of it is started afterwards', async ({
  workbench: page,
  served,
}) => {
  const calls = await startLongSweep(page, served);
  await openWithRegistry(page, served, registry([cpu(1)]));
  await expect(page.getByTestId('sweep')).toHaveCount(0);
  await expect(page.getByTestId('run-sweep')).toBeEnabled();
  expect(calls['cancelJob'] ?? 0).toBeGreaterThan(0);
  const started = calls['startJob']!;
  await page.waitForTimeout(2000);
  expect(calls['startJob']).toBe(started);
});

test("a reload keeps the sweep's results: the sweep that was run, with its parameters, over the artifact it swept", async ({
  workbench: page,
  served,
}) => {
  const providers = registry([cpu(1)]);
  // Connected: the window writes its address (what a reload reopens) once the engine has answered.
  await expect(page.getByTestId('engine')).toContainText(/engine \d/, { timeout: 60_000 });
  await openWithRegistry(page, served, providers);
  await expect(page.getByTestId('offers-source')).toContainText('1 model version(s), 1 compute shape(s)');
  await page.getByTestId('sweep-repeats').selectOption('1');
  await page.getByTestId('run-sweep').click();
  const heading = page.locator('#sweep-h');
  await expect(heading).toContainText('1 run each (2 of 2 runs replayed)', { timeout: 120_000 });
  // Ended (its last run landed before it did): focus moves to the heading once it has.
  await expect(heading).toBeFocused();
  const band = (await page.getByTestId('sweep-band').textContent())!;
  await expect(page.getByTestId('sweep-earlier')).toHaveCount(0);
  await expect.poll(() => new URL(page.url()).hash).toContain('view=trainer');

  await page.reload();
  await expect(page.getByTestId('engine')).toContainText(/engine \d/, { timeout: 60_000 });
  await expect(page.getByTestId('tab-trainer')).toHaveAttribute('aria-selected', 'true', { timeout: 60_000 });
  // The reload's link opens the file again; once its report names the same bytes, the sweep kept is shown as what it was.
  const earlier = page.getByTestId('sweep-earlier');
  await expect(earlier).toContainText('The result of the sweep run in this tab before the page was reloaded', {
    timeout: 60_000,
  });
  await expect(earlier).toContainText('not run again');
  await expect(earlier).toContainText('model=ref-1, shape=advisor.cpu_v1/1/fp32');
  await expect(earlier).toContainText('1 run of each');
  await expect(earlier).toContainText(`providers=${providers}`);
  await expect(heading).toContainText('1 run each (2 of 2 runs replayed)');
  await expect(page.getByTestId('sweep-band')).toHaveText(band);
  await expect(page.getByRole('progressbar', { name: 'Sweep progress' })).toHaveCount(0);
  await axe(page, 'the sweep kept across a reload');

  // Another artifact opened: the sweep was not of it, it goes, and a reload does not bring it back.
  await openExample(page, 'dumps/whatif/drift.dump.json', 60_000);
  await page.getByTestId('tab-trainer').click();
  await expect(page.getByTestId('sweep')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('engine')).toContainText(/engine \d/, { timeout: 60_000 });
  await expect(page.getByTestId('tab-trainer')).toHaveAttribute('aria-selected', 'true', { timeout: 60_000 });
  await expect(page.getByTestId('offers-source')).toContainText('compute shape(s)', { timeout: 60_000 });
  await page.waitForTimeout(1_500);
  await expect(page.getByTestId('sweep')).toHaveCount(0);
});

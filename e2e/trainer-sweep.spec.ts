/**
 * The trainer's sweep through TrainerView (web target): every version and shape the
 * registry offers, each replayed twice side by side in the pool, charted as the largest
 * |Δ| in units of its ε for the worst and the best run, with each output's |Δ| and ε as
 * the engine wrote them. (That the jobs run at once is counted in test/workbench/sweep.test.ts.)
 */
import { axe, expect, openExample, test } from './fixtures.js';

test.describe.configure({ timeout: 240_000 });

test('the sweep charts |Δ| against ε per substitution and the spread over repeated runs', async ({
  workbench: page,
}) => {
  await openExample(page, 'tg/banded-drift-material/manifest.json', 60_000);
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
  await expect(sweep.locator('h3')).toContainText(`2 runs each (${subs} of ${subs} replayed)`, { timeout: 200_000 });
  await expect(page.locator('#sweep-h')).toBeFocused();
  const chart = page.getByTestId('chart-sweep');
  await expect(chart).toBeVisible();
  await expect(chart.locator('figcaption')).toContainText("in units of its output's ε");
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

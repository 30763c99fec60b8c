/**
 * The Trainer's charts through the UI (web target): hovering a 15,000-EVAL ACGP trust-debt
 * chart shows the exact EVAL and value under the cursor (the line is decimated for drawing;
 * the legend is not), every chart's data table lists every row, the version sweep's names
 * are readable and inside the chart at 1280 and 1024 pixels wide, a single drift bar is whole
 * and centred, and the pickers show the substitution of the report on screen (one the registry
 * does not offer included). axe, nothing excluded, on each state.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { axe, openExample, expect, ROOT, test } from './fixtures.js';

test.describe.configure({ timeout: 240_000 });

type Box = { x: number; y: number; width: number; height: number };

async function box(l: Locator): Promise<Box> {
  const b = await l.boundingBox();
  expect(b, 'element has a box').not.toBeNull();
  return b!;
}

/** The legend's value for the series labelled `label` (uPlot's legend: one row per series). */
function legendValue(chart: Locator, label: string): Locator {
  return chart
    .locator('.u-legend .u-series')
    .filter({ has: chart.page().locator('.u-label', { hasText: new RegExp(`^${label}$`) }) })
    .locator('.u-value');
}

/** A generated ACGP trace of `count` EVALs, written to a temp file; with each EVAL's recorded trust debt (post). */
async function acgpTrace(count: number): Promise<{ file: string; posts: number[] }> {
  const { generateTrace } = (await import(pathToFileURL(join(ROOT, 'dist/app/kinds/acgp/generate.js')).href)) as {
    generateTrace: (o: object) => { trust_debt: { post: number } }[];
  };
  const evals = generateTrace({ count, seed: 2028, traceId: 'trace-e2e-charts' });
  const file = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-charts-')), 'trace.jsonl');
  writeFileSync(file, evals.map((e) => JSON.stringify(e)).join('\n') + '\n');
  return { file, posts: evals.map((e) => e.trust_debt.post) };
}

async function openPath(page: Page, file: string): Promise<void> {
  await page.getByTestId('tab-open').click();
  await page.getByTestId('open-path').fill(file);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('job')).toHaveCount(0, { timeout: 120_000 });
  await expect(page.getByTestId('verdict')).toBeVisible();
}

test('hovering a 15,000-EVAL trust-debt chart shows the exact EVAL and value; its table lists every row', async ({
  workbench: page,
}) => {
  const n = 15_000;
  const { file, posts } = await acgpTrace(n);
  await openPath(page, file);
  await page.getByTestId('tab-trainer').click();
  const chart = page.getByTestId('chart-debt');
  const plot = chart.locator('.u-over');
  await expect(plot).toBeVisible();
  const p = await box(plot);
  // Until a point is hovered the legend is a key: no "evaluation" entry, no "—" values.
  await expect(legendValue(chart, 'evaluation')).toBeHidden();
  await expect(legendValue(chart, 'recorded trust debt \\(post\\)')).toBeHidden();
  // Around EVAL 5,540 (the x range is half an EVAL beyond each end): every pixel column
  // holds about a dozen EVALs, most of which the drawn (decimated) line leaves out.
  const shown: string[] = [];
  for (let dx = -6; dx <= 6; dx++) {
    const px = Math.round(p.x + ((5540 + 0.5) / n) * p.width) + dx;
    await page.mouse.move(px, p.y + p.height / 2);
    const evalText = await legendValue(chart, 'evaluation').textContent();
    const at = Number(evalText);
    expect(Number.isInteger(at), `EVAL under the cursor: ${evalText}`).toBe(true);
    // The EVAL under the cursor, not a kept point a column away.
    expect(Math.abs(at - (((px - p.x) / p.width) * n - 0.5))).toBeLessThanOrEqual(1);
    await expect(legendValue(chart, 'recorded trust debt \\(post\\)')).toHaveText(String(posts[at]));
    shown.push(String(posts[at]));
  }
  // Some values under the cursor carry a fourth decimal: shown whole, never rounded to three.
  expect(
    shown.some((s) => /\.\d{4,}$/.test(s)),
    shown.join(' '),
  ).toBe(true);
  // The marker sits on the hovered value, inside the plot.
  const mark = plot.locator('.chart-hover-pt').first();
  await expect(mark).toBeVisible();
  const m = await box(mark);
  expect(m.x + m.width / 2).toBeGreaterThanOrEqual(p.x);
  expect(m.y + m.height / 2).toBeLessThanOrEqual(p.y + p.height);
  await axe(page, 'trust-debt chart hovered');

  // Every row, virtualized: the table says how many and reaches the last one.
  await chart.locator('summary').click();
  await expect(chart.locator('summary')).toHaveText('Chart data as a table (15,000 rows)');
  const table = page.getByTestId('chart-debt-table');
  await expect(table).toHaveAttribute('aria-rowcount', String(n + 1));
  await expect(table.locator('.vbody [role="row"]').first()).toBeVisible();
  expect(await table.locator('.vbody [role="row"]').count()).toBeLessThan(60);
  const body = table.locator('.vbody');
  await body.evaluate((el) => (el.scrollTop = 5540 * 28));
  await expect(table.locator('[aria-rowindex="5542"] [role="cell"]').first()).toHaveText('5540');
  await expect(table.locator('[aria-rowindex="5542"] [role="cell"]').nth(1)).toHaveText(String(posts[5540]));
  await body.evaluate((el) => (el.scrollTop = el.scrollHeight));
  const last = table.locator(`[aria-rowindex="${n + 1}"] [role="cell"]`);
  await expect(last.first()).toHaveText(String(n - 1));
  await expect(last.nth(1)).toHaveText(String(posts[n - 1]));
  await axe(page, 'trust-debt table of every row');
});

/** The names of a horizontal bar chart: apart from each other, beside the plot, inside the chart. */
async function namesReadable(chart: Locator, count: number): Promise<void> {
  const names = chart.locator('.chart-names span');
  await expect(names).toHaveCount(count);
  const plot = await box(chart.locator('.u-over'));
  const frame = await box(chart.locator('.uplot'));
  const fig = await box(chart);
  expect(frame.x + frame.width, 'the chart fits its figure').toBeLessThanOrEqual(fig.x + fig.width + 0.5);
  const boxes: Box[] = [];
  for (let i = 0; i < count; i++) {
    const b = await box(names.nth(i));
    const text = await names.nth(i).textContent();
    expect(b.width, `${text} is drawn`).toBeGreaterThan(0);
    expect(b.x, `${text} starts inside the chart`).toBeGreaterThanOrEqual(frame.x);
    expect(b.x + b.width, `${text} ends before the plot`).toBeLessThanOrEqual(plot.x);
    expect(b.y, `${text} within the plot's height`).toBeGreaterThanOrEqual(plot.y);
    expect(b.y + b.height, `${text} within the plot's height`).toBeLessThanOrEqual(plot.y + plot.height);
    // Not cut: the text is as wide as its box (nothing hidden by an ellipsis or overflow).
    expect(await names.nth(i).evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    boxes.push(b);
  }
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i]!, boxes[j]!];
      const apart = a.y + a.height <= b.y || b.y + b.height <= a.y || a.x + a.width <= b.x || b.x + b.width <= a.x;
      expect(apart, `names ${i} and ${j} overlap`).toBe(true);
    }
}

test('the version sweep names every substitution readably, inside the chart, at 1280 and 1024 wide', async ({
  workbench: page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openExample(page, 'tg/banded-drift-material/manifest.json', 60_000);
  await page.getByTestId('tab-trainer').click();
  await expect(page.getByTestId('offers-source')).toContainText('(built-in)');
  await page.getByTestId('run-sweep').click();
  const sweep = page.getByTestId('sweep');
  await expect(sweep.locator('h3')).toContainText(/\((\d+) of \1 runs replayed\)/, { timeout: 180_000 });
  const chart = page.getByTestId('chart-sweep');
  const rows = await chart.locator('summary').textContent();
  const count = Number(/\((\d+) rows?\)/.exec(rows ?? '')?.[1]);
  expect(count).toBeGreaterThan(10);
  await chart.scrollIntoViewIfNeeded();
  await namesReadable(chart, count);
  await axe(page, 'sweep at 1280');
  await page.setViewportSize({ width: 1024, height: 900 });
  await expect.poll(async () => (await box(chart.locator('.uplot'))).width).toBeLessThan(1000);
  await namesReadable(chart, count);
  await axe(page, 'sweep at 1024');
});

/** The bounding box, in page pixels, of what the canvas draws in the bar colour (#b9770e). */
async function barBox(chart: Locator): Promise<Box | null> {
  return chart.locator('canvas').evaluate((c: HTMLCanvasElement) => {
    const { data, width, height } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
    let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        if (
          data[i + 3]! > 100 &&
          Math.abs(data[i]! - 185) < 16 &&
          Math.abs(data[i + 1]! - 119) < 16 &&
          data[i + 2]! < 40
        ) {
          [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
        }
      }
    if (x1 < 0) return null;
    const r = c.getBoundingClientRect();
    const s = r.width / c.width;
    return { x: r.x + x0 * s, y: r.y + y0 * s, width: (x1 - x0 + 1) * s, height: (y1 - y0 + 1) * s };
  });
}

test("a single drift bar is whole and centred, its name beside it; the pickers show the report's substitution", async ({
  workbench: page,
  served,
}) => {
  await openExample(page, 'tg/banded-drift-material/manifest.json', 60_000);
  await page.getByTestId('tab-trainer').click();
  const chart = page.getByTestId('chart-drift');
  await chart.scrollIntoViewIfNeeded();
  await expect(chart.locator('summary')).toHaveText('Chart data as a table (1 row)');
  await namesReadable(chart, 1);
  const plot = await box(chart.locator('.u-over'));
  const bar = await barBox(chart);
  expect(bar, 'the bar is drawn').not.toBeNull();
  expect(bar!.x).toBeGreaterThanOrEqual(plot.x - 1.5);
  expect(bar!.x + bar!.width).toBeLessThanOrEqual(plot.x + plot.width + 1.5);
  expect(bar!.y).toBeGreaterThanOrEqual(plot.y - 1.5);
  expect(bar!.y + bar!.height).toBeLessThanOrEqual(plot.y + plot.height + 1.5);
  expect(bar!.height).toBeGreaterThan(10);
  expect(Math.abs(bar!.y + bar!.height / 2 - (plot.y + plot.height / 2))).toBeLessThan(2);
  const name = await box(chart.locator('.chart-names span'));
  expect(Math.abs(name.y + name.height / 2 - (plot.y + plot.height / 2))).toBeLessThan(2);
  // Hovering the bar shows the version and its exact rate.
  await page.mouse.move(bar!.x + bar!.width / 2, bar!.y + bar!.height / 2);
  await expect(legendValue(chart, 'model version')).toHaveText('reprise.reference@ref-1');
  await expect(legendValue(chart, 'drift rate')).toHaveText('1');
  await axe(page, 'single drift bar');

  // The what-if example opens under model=ref-2: the pickers say so.
  await openExample(page, 'dumps/whatif/drift.dump.json');
  await page.getByTestId('tab-trainer').click();
  await expect(page.getByTestId('whatif-model')).toHaveValue('ref-2');
  await expect(page.getByTestId('whatif-model').locator('option:checked')).toHaveText('ref-2');
  await expect(page.getByTestId('whatif-shape').locator('option:checked')).toHaveText('as recorded');
  await axe(page, 'pickers of the what-if example');
  // A report as recorded: back to "as recorded".
  await openExample(page, 'tg/banded-drift-material/manifest.json', 60_000);
  await page.getByTestId('tab-trainer').click();
  await expect(page.getByTestId('whatif-model').locator('option:checked')).toHaveText('as recorded');
  // A saved report under a version the registry does not offer: the picker still says which.
  const out = spawnSync(process.execPath, [
    join(ROOT, 'bin', 'reprise.js'),
    'replay',
    join(served.examples, 'tg/banded-drift-material/manifest.json'),
    '--what-if',
    'model=ref-9',
    '--json',
  ]);
  const saved = join(mkdtempSync(join(tmpdir(), 'reprise-e2e-charts-')), 'what-if-ref-9.json');
  writeFileSync(saved, out.stdout);
  await page.getByTestId('tab-open').click();
  await page.locator('#report-input').setInputFiles(saved);
  // The engine's own report opens, shown as it states itself (not re-verified).
  await expect(page.locator('#verdict-h')).toContainText('as stated (not re-verified)');
  await page.getByTestId('tab-trainer').click();
  await expect(page.getByTestId('whatif-model').locator('option:checked')).toHaveText(
    'ref-9 (in this report; not offered)',
  );
  await expect(page.getByTestId('demo-unknown')).toContainText('Model version ref-9 is not offered');
  await axe(page, 'pickers of a substitution not offered');
});

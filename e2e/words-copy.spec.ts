/**
 * One comparison, one set of words (web target): a finding about a chain node shows the
 * chain's two values in the chain's words and order (recorded, then recomputed), Nemosyne's
 * bare-hex findings included; ACGP's value checks say recorded / recomputed as the Trainer
 * does. Every hash, key id, pointer and comparison value is whole on screen without
 * hovering and has a Copy button that puts it on the clipboard; each chain tree item is
 * named by its own row, not its subtree; TG's artifact nodes are told apart by their ids.
 * axe on each state, nothing excluded.
 */
import type { Locator, Page } from '@playwright/test';
import { axe, expect, openExample, test } from './fixtures.js';

test.describe.configure({ timeout: 120_000 });

const RECORDED = 'sha256:ecfeaae14ee160d826268d6ff3332683082011f4cfa30f366955237cab2b3377';
const RECOMPUTED = 'sha256:5ab91202a28483afa5f4fd83cab0d066407a2c3b1ef3062c1e513d93432ebdd9';

/**
 * The words and values of a finding's Values cell, in the order they are shown. Read once,
 * not retried: callers poll it (`expect.poll`), since the row may not be drawn yet.
 */
async function findingWords(row: Locator): Promise<[string, string][]> {
  const lines = row.getByTestId('finding-values').locator('[data-word]');
  const out: [string, string][] = [];
  for (let i = 0; i < (await lines.count()); i++) {
    const text = (await lines.nth(i).innerText()).replace(/\s*Copy(ed)?$/, '').trim();
    const [word, ...rest] = text.split(/\s+/);
    out.push([word!, rest.join(' ')]);
  }
  return out;
}

async function copied(page: Page, button: Locator): Promise<string> {
  await button.click();
  await expect(button).toHaveText('Copied');
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Whether an element shows all of its text: nothing cut off to the side (no ellipsis, no hidden overflow). */
const whole = (l: Locator) =>
  l.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().width > 0);

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('a Nemosyne package: the finding and the chain say recorded then recomputed, with the same two digests, whole, with Copy buttons', async ({
  workbench: page,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await openExample(page, 'packages/digest/020-receipt-bytes.nemosyne');
  await page.getByTestId('tab-findings').click();
  const row = page.getByTestId('findings').locator('tbody tr', { hasText: 'RPR-NEM-020' });
  // The engine's finding carries bare hex, expected the recomputed digest: shown as the chain shows it.
  await expect
    .poll(() => findingWords(row))
    .toEqual([
      ['recorded', RECORDED],
      ['recomputed', RECOMPUTED],
    ]);
  const values = row.getByTestId('finding-values');
  await expect(values).toContainText(RECORDED);
  for (const v of await values.locator('.copy-value .mono').all()) expect(await whole(v)).toBe(true);
  expect(await copied(page, values.getByRole('button', { name: 'Copy the recorded value of RPR-NEM-020' }))).toBe(
    RECORDED,
  );
  expect(await copied(page, row.getByRole('button', { name: 'Copy the pointer of RPR-NEM-020' }))).toBe(
    'entry:manifest.json#/evidenceReceiptDigest',
  );
  await axe(page, 'findings of package 020');

  await page.getByTestId('tab-chain').click();
  const tree = page.getByTestId('chain-tree');
  const item = tree.locator('[data-node="evidenceReceiptDigest"]');
  // The tree row is dense (the hash cut short); one click shows both values whole beside it.
  await item.locator(':scope > .tree-row').click();
  const detail = page.getByTestId('node-detail');
  const dts = await detail.locator('dl.meta > dt').allInnerTexts();
  expect(dts.filter((t) => /^Re(corded|computed)$/.test(t))).toEqual(['Recorded', 'Recomputed']);
  await expect(detail.getByTestId('node-recorded')).toHaveText(RECORDED);
  await expect(detail.getByTestId('node-recomputed')).toHaveText(RECOMPUTED);
  expect(await whole(detail.getByTestId('node-recorded'))).toBe(true);
  expect(await copied(page, detail.getByRole('button', { name: 'Copy the recomputed hash' }))).toBe(RECOMPUTED);
  await axe(page, 'chain of package 020, node selected');

  // Each tree item is named by its own row: never its children's labels.
  const parents = tree.locator('[role="treeitem"][aria-expanded="true"]');
  expect(await parents.count()).toBeGreaterThan(0);
  for (const parent of await parents.all()) {
    // The row's text without its twisty (drawn, hidden from assistive technology).
    const own = (await parent.locator(':scope > .tree-row').innerText())
      .replace(/^[▾▸]/, '')
      .replace(/\s+/g, ' ')
      .trim();
    await expect(parent).toHaveAccessibleName(own);
    for (const child of await parent
      .locator(':scope > [role="group"] > [role="treeitem"] > .tree-row .node-label')
      .allInnerTexts())
      await expect(parent).not.toHaveAccessibleName(new RegExp(escapeRe(child)));
  }
});

test('ACGP: the tampered post says recorded 8.6 then recomputed 7.6 in the findings, as the Trainer does; a comparison shown whole and copied', async ({
  workbench: page,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await openExample(page, 'acgp/trace-tampered-post.jsonl');
  await page.getByTestId('tab-findings').click();
  for (const rule of ['RPR-ACGP-010', 'RPR-ACGP-022']) {
    const row = page.getByTestId('findings').locator('tbody tr', { hasText: rule });
    await expect
      .poll(() => findingWords(row))
      .toEqual([
        ['recorded', '8.6'],
        ['recomputed', '7.6'],
      ]);
  }
  await axe(page, 'findings of the tampered ACGP trace');
  await page.getByTestId('tab-trainer').click();
  await expect(page.getByTestId('debt-disagreements').locator('thead')).toContainText(/recorded.*recomputed/is);
  await expect(page.getByTestId('debt-disagreements').locator('tbody tr')).toHaveText(/^EVAL 8\s*8\.6\s*7\.6\s*1$/);

  await page.getByTestId('tab-replay').click();
  const table = page.getByTestId('comparisons');
  await page.getByTestId('filter-status').selectOption('fail');
  await table.getByRole('button', { name: '/8/trust_debt/post' }).click();
  const detail = page.getByTestId('comparison-detail');
  await expect(detail.getByTestId('comparison-original')).toHaveText('8.6');
  await expect(detail.getByTestId('comparison-replayed')).toHaveText('7.6');
  expect(
    await copied(page, detail.getByRole('button', { name: 'Copy the replayed value of /8/trust_debt/post' })),
  ).toBe('7.6');
  await axe(page, 'replay of the tampered ACGP trace, a comparison chosen');
});

test('TG: artifact nodes named with their ids; a comparison holding a hash readable whole below the table and copied', async ({
  workbench: page,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await openExample(page, 'tg/banded-drift-material/manifest.json');
  await page.getByTestId('tab-chain').click();
  const rows = await page.getByTestId('chain-tree').locator('.tree-row').allInnerTexts();
  const artifacts = rows.filter((t) => /artifact/.test(t));
  expect(artifacts.length).toBeGreaterThan(1);
  for (const t of artifacts) expect(t).toMatch(/artifact sha256:[0-9a-f]{8}/);
  expect(new Set(rows).size).toBe(rows.length);
  const names = await page
    .getByTestId('chain-tree')
    .getByRole('treeitem')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-labelledby')));
  expect(names.every((n) => n !== null)).toBe(true);
  await axe(page, 'TG chain');

  await page.getByTestId('tab-replay').click();
  const output = 'comp.TG.OUTPUT.POLICY-CONTEXT.v1_0';
  const button = page.getByTestId('comparisons').getByRole('button', { name: output });
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  const original = page.getByTestId('comparison-detail').getByTestId('comparison-original');
  const hash = 'sha256:0d3fab61c8a307fa4dd53a85a560e03e025e71eb9dcf696426392163bd52a6f6';
  await expect(original).toContainText(hash);
  expect(await whole(original)).toBe(true);
  const text = await copied(
    page,
    page.getByTestId('comparison-detail').getByRole('button', { name: `Copy the original value of ${output}` }),
  );
  expect(JSON.parse(text)).toMatchObject({ bundleHash: hash });
  await axe(page, 'TG replay, a comparison chosen');
});

test("the verdict banner's found value and a dump finding: whole, copyable, in the chain's words", async ({
  workbench: page,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await openExample(page, 'dumps/fail/altered-artifact.dump.json');
  const found = page.getByTestId('decisive-actual');
  const altered = 'sha256:d945bb75095d6312700b2e07d7d65bc272e66594a2f9fb52d1385d9847acdaab';
  await expect(found).toContainText(`Found: ${altered}`);
  expect(await whole(found.locator('.mono'))).toBe(true);
  expect(await copied(page, found.getByRole('button', { name: 'Copy the value found' }))).toBe(altered);
  await axe(page, 'verdict banner with the value found');

  await page.getByTestId('tab-findings').click();
  // The rule calls the recorded key "expected": shown as the chain shows the artifact node.
  const row = page.getByTestId('findings').locator('tbody tr', { hasText: 'an artifact does not hash to its key' });
  await expect
    .poll(() => findingWords(row))
    .toEqual([
      ['recorded', 'sha256:171a1fbbc3fc483ab9b27a261188290fe6aea4f3d6c945d6a9d4b3fb73a4d28e'],
      ['recomputed', altered],
    ]);
  // A finding that compares with a rule, not a recomputation, keeps the engine's words.
  const signature = page.getByTestId('findings').locator('tbody tr', { hasText: 'the signature does not verify' });
  await expect.poll(async () => (await findingWords(signature)).map(([w]) => w)).toEqual(['expected', 'actual']);
  await axe(page, 'findings of the altered dump');
});

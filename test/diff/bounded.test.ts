/**
 * The diff's listing stays bounded by its pointers' total length, not only by its count
 * (docs/compare.md): every difference repeats the whole path above it, so many leaves under
 * one long path would list that path once per leaf. Past POINTER_BUDGET the rest are only
 * counted, every output says why, and each pointer listed is whole. Bounded by counts and
 * output sizes, never by time.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../app/cli/main.js';
import { diffJson, POINTER_BUDGET, type DiffResult } from '../../shared/diff.js';
import type { JsonValue } from '../../shared/report.js';

type Obj = { [k: string]: JsonValue };

/** `leaves` members (`k0`…) holding `value`, under `names` nested one in another. */
function underPath(names: string[], leaves: number, value: JsonValue): Obj {
  let v: Obj = Object.fromEntries(Array.from({ length: leaves }, (_, i) => [`k${i}`, value]));
  for (const n of [...names].reverse()) v = { [n]: v };
  return v;
}

/** Names of `length` characters, with `/` and `~` in them, so the pointers escape them. */
const longNames = (count: number, length: number): string[] =>
  Array.from({ length: count }, (_, i) => `a/b~${i}`.padEnd(length, 'n'));

const escaped = (n: string): string => n.replace(/~/g, '~0').replace(/\//g, '~1');
const pointerUnits = (r: DiffResult): number =>
  [...r.differences, ...r.lengths].reduce((s, e) => s + e.pointer.length + (e.rightPointer?.length ?? 0), 0);

describe('diff bounded by its pointers', () => {
  it('1,000 leaves under a 200,000-character path: stops listing at the pointer budget, counts every one', () => {
    const names = longNames(4, 50_000);
    const r = diffJson(underPath(names, 1000, 1), underPath(names, 1000, 2), { limit: 1000 });
    expect(r.total).toBe(1000);
    expect(r.truncated).toBe(true);
    expect(r.truncatedBy).toBe('pointers');
    expect(r.pointerBudget).toBe(POINTER_BUDGET);
    // Listed until the pointers reach the budget: the last one listed reached it, none before.
    const last = r.differences.at(-1)!.pointer.length;
    expect(pointerUnits(r)).toBeGreaterThanOrEqual(POINTER_BUDGET);
    expect(pointerUnits(r) - last).toBeLessThan(POINTER_BUDGET);
    expect(r.differences.length).toBeLessThan(100);
  });

  it('a listed pointer is whole: every escaped name and the leaf, never cut', () => {
    const names = longNames(4, 50_000);
    const r = diffJson(underPath(names, 1000, 1), underPath(names, 1000, 2));
    const prefix = `/${names.map(escaped).join('/')}`;
    // Members in code-unit order of their names: k0, k1, k10, k100…
    const leaves = Array.from({ length: 1000 }, (_, i) => `k${i}`).sort();
    expect(r.differences.length).toBeGreaterThan(1);
    r.differences.forEach((e, i) => expect(e.pointer === `${prefix}/${leaves[i]}`).toBe(true));
  });

  it('one pointer longer than the budget is still listed whole, and nothing after it', () => {
    const names = longNames(2, POINTER_BUDGET / 2 + 10);
    const r = diffJson(underPath(names, 3, 'x'), underPath(names, 3, 'y'));
    expect(r.total).toBe(3);
    expect(r.differences).toHaveLength(1);
    expect(r.differences[0]!.pointer.length).toBeGreaterThan(POINTER_BUDGET);
    expect(r.truncatedBy).toBe('pointers');
  });

  it('lengths share the budget: arrays of other lengths under a long path list within it', () => {
    const names = longNames(4, 50_000);
    const side = (n: number): Obj =>
      underPath(
        names,
        200,
        Array.from({ length: n }, () => null),
      );
    const r = diffJson(side(1), side(2), { limit: 10_000 });
    expect(r.total).toBe(200);
    expect(r.truncatedBy).toBe('pointers');
    expect(r.lengths.length).toBeLessThan(200);
    expect(pointerUnits(r)).toBeLessThan(POINTER_BUDGET + 2 * r.differences[0]!.pointer.length);
  });

  it('the count limit is still named as the count when it comes first', () => {
    const r = diffJson(underPath(['a'], 50, 1), underPath(['a'], 50, 2), { limit: 10 });
    expect(r.truncatedBy).toBe('limit');
    expect(diffJson(1, 1).truncatedBy).toBeNull();
    expect(diffJson(1, 2).truncatedBy).toBeNull();
  });
});

const tmp = mkdtempSync(join(tmpdir(), 'reprise-diff-bounded-'));
afterAll(() => rm(tmp, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runCli(args, { out: (t) => void (out += t), err: () => {}, stderrIsTTY: false, cwd: tmp });
  return { code, out };
}

describe('reprise diff bounded by its pointers', () => {
  // 1,000 leaves under a 200,000-character path: about 200 MB of pointers listed whole.
  const names = longNames(4, 50_000);
  const [left, right] = [join(tmp, 'l.json'), join(tmp, 'r.json')];
  writeFileSync(left, JSON.stringify(underPath(names, 1000, 1)));
  writeFileSync(right, JSON.stringify(underPath(names, 1000, 2)));
  const bound = POINTER_BUDGET + 2 * 210_000 + 100_000;

  it('the text says the pointers stopped the listing, and stays near the budget', async () => {
    const r = await cli('diff', left, right);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /1001 difference\(s\), the first \d+ listed \(their pointers reached 8,000,000 characters, the most a listing holds\)/,
    );
    expect(r.out.length).toBeLessThan(bound);
  });

  it('--json says truncatedBy pointers with the budget, and stays near it', async () => {
    const r = await cli('diff', left, right, '--json');
    expect(r.code).toBe(1);
    expect(r.out.length).toBeLessThan(bound);
    const j = JSON.parse(r.out) as DiffResult;
    expect(j).toMatchObject({ total: 1001, truncated: true, truncatedBy: 'pointers', pointerBudget: POINTER_BUDGET });
    expect(j.differences.length).toBeLessThan(1000);
  });

  it('--html says the pointers stopped the listing, and stays near the budget', async () => {
    const page = join(tmp, 'p.html');
    const r = await cli('diff', left, right, '--html', page);
    expect(r.code).toBe(1);
    const html = await readFile(page, 'utf8');
    expect(html).toContain('differences (their pointers reached 8,000,000 characters, the most a listing holds;');
    expect(html.length).toBeLessThan(bound);
  });
});

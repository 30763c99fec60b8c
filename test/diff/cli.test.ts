/** `reprise diff` in this process, through the printer, on the built-in examples. */
import { mkdtempSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../app/cli/main.js';
import { writeExamples } from '../../app/examples/index.js';
import type { DiffResult } from '../../shared/diff.js';

const tmp = mkdtempSync(join(tmpdir(), 'reprise-diff-'));
const ex = (p: string) => join(tmp, 'ex', p);
beforeAll(() => writeExamples(join(tmp, 'ex')), 60_000);
afterAll(() => rm(tmp, { recursive: true, force: true }));

async function diff(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(['diff', ...args], {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    stderrIsTTY: false,
    cwd: tmp,
  });
  return { code, out, err };
}
const json = (out: string) => JSON.parse(out) as DiffResult & { compared: string };

describe('reprise diff', () => {
  it('an intact dump against a tampered one: the altered text as its changed span, the verdicts, exit 1', async () => {
    const r = await diff(ex('dumps/intact.dump.json'), ex('dumps/fail/altered-artifact.dump.json'), '--json');
    expect(r.code, r.err).toBe(1);
    const d = json(r.out);
    expect(d.compared).toBe('two replay-dump artifacts');
    const text = d.differences.find((e) => /^\/content\/artifacts\/.*\/text$/.test(e.pointer))!;
    expect(text.op).toBe('changed');
    expect((text.left as string).slice(text.span!.prefix, text.span!.prefix + text.span!.left)).toBe('one sentence');
    expect((text.right as string).slice(text.span!.prefix, text.span!.prefix + text.span!.right)).toBe('two sentences');
    expect(d.differences.find((e) => e.pointer === '/verdict')).toMatchObject({ left: 'unavailable', right: 'fail' });
  });

  it('two files whose rows shifted: the inserted row added, a moved row named on each side', async () => {
    const rows = Array.from({ length: 8 }, (_, i) => ({ id: i, score: i / 10 }));
    const moved = structuredClone(rows);
    moved.splice(2, 0, { id: 100, score: 0 });
    moved[6]!.score = 9;
    await writeFile(join(tmp, 'rows-a.json'), JSON.stringify({ rows }));
    await writeFile(join(tmp, 'rows-b.json'), JSON.stringify({ rows: moved }));
    const r = await diff(join(tmp, 'rows-a.json'), join(tmp, 'rows-b.json'));
    expect(r.code, r.err).toBe(1);
    expect(r.out).toContain('  added    /content/rows/2  (absent) → {"id":100,"score":0}\n');
    expect(r.out).toContain(
      '  changed  /content/rows/5/score (right: /content/rows/6/score)  0.5 → 9  (right − left = 8.5)\n',
    );
    expect(r.out).toContain('  length   /content/rows  8 → 9 items\n');
    const d = json((await diff(join(tmp, 'rows-a.json'), join(tmp, 'rows-b.json'), '--json')).out);
    expect(d.differences.find((e) => e.rightPointer !== undefined)).toMatchObject({
      op: 'changed',
      pointer: '/content/rows/5/score',
      rightPointer: '/content/rows/6/score',
    });
  });

  it('an artifact against itself is identical, exit 0', async () => {
    const r = await diff(ex('dumps/intact.dump.json'), ex('dumps/intact.dump.json'));
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('identical: no difference');
  });

  it('refuses two artifacts of different kinds, exit 3', async () => {
    const r = await diff(ex('dumps/intact.dump.json'), ex('tg/exact-intact/manifest.json'));
    expect(r.code).toBe(3);
    expect(r.err).toMatch(
      /cannot compare .* \(replay-dump\) with .* \(tg-replay-manifest\): diff compares two artifacts of one kind/,
    );
    expect(r.out).toBe('');
  });

  it('one replay: originals against replayed values, with their exact decimal differences', async () => {
    const r = await diff(ex('tg/banded-drift-material/manifest.json'), '--replay', '--json');
    expect(r.code, r.err).toBe(1);
    const d = json(r.out);
    expect(d.compared).toBe('original against replayed');
    expect(d.differences.map((e) => e.difference)).toEqual(['-0.1', '-0.02']);
  });

  it('the replays of two manifests: their comparisons side by side', async () => {
    const r = await diff(
      ex('tg/banded-drift-material/manifest.json'),
      ex('tg/banded-drift-not-material/manifest.json'),
      '--replay',
      '--json',
    );
    expect(r.code, r.err).toBe(1);
    const d = json(r.out);
    expect(d.compared).toBe('the replays of two tg-replay-manifest artifacts');
    expect(d.differences.some((e) => /^\/comparisons\/\d+\/(original|replayed|delta)$/.test(e.pointer))).toBe(true);
    expect(d.differences.every((e) => typeof e.left !== 'number' || typeof e.right !== 'number' || e.difference)).toBe(
      true,
    );
  });

  it("two saved reports of one manifest's replays under two model versions", async () => {
    const opts = ['--trust-store', ex('dumps/trust-store.json'), '--providers', ex('dumps/providers.json')];
    for (const [model, file] of [
      ['ref-1', 'a.json'],
      ['ref-2', 'b.json'],
    ] as const) {
      let out = '';
      await runCli(['replay', ex('dumps/whatif/drift.dump.json'), ...opts, '--what-if', `model=${model}`, '--json'], {
        out: (t) => void (out += t),
        err: () => undefined,
        stderrIsTTY: false,
        cwd: tmp,
      });
      await writeFile(join(tmp, file), out);
    }
    const r = await diff(join(tmp, 'a.json'), join(tmp, 'b.json'), '--json');
    expect(r.code, r.err).toBe(1);
    const d = json(r.out);
    expect(d.compared).toBe('two saved reports of replay-dump artifacts');
    expect(d.differences.some((e) => e.pointer === '/details/whatIf/substitutions/model')).toBe(true);
    expect(d.differences.some((e) => e.pointer.startsWith('/details/expression/replayed/tokens/'))).toBe(true);
  });

  it('--html writes one self-contained page with a permalink per difference; never over an input', async () => {
    const page = join(tmp, 'diff.html');
    const r = await diff(ex('dumps/intact.dump.json'), ex('dumps/fail/altered-artifact.dump.json'), '--html', page);
    expect(r.code, r.err).toBe(1);
    const html = await readFile(page, 'utf8');
    expect(html).toContain('<tr id="d-0">');
    expect(html).toContain('<del>one sentence</del>');
    expect(html).not.toMatch(/<script|<link|src=/i);
    const same = await diff(page, ex('dumps/intact.dump.json'), '--html', page);
    expect(same.code).toBe(3);
    expect(same.err).toContain('never overwrites its input');
  });

  it('--max-differences lists fewer and says so; bad usage is exit 3', async () => {
    const r = await diff(
      ex('dumps/intact.dump.json'),
      ex('dumps/fail/altered-artifact.dump.json'),
      '--max-differences',
      '2',
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/\d+ difference\(s\), the first 2 listed \(--max-differences 2\)/);
    expect((await diff(ex('dumps/intact.dump.json'))).code).toBe(3);
    expect((await diff('a', 'b', 'c')).code).toBe(3);
    expect((await diff(join(tmp, 'missing.json'), ex('dumps/intact.dump.json'))).code).toBe(3);
    expect((await diff(ex('dumps/intact.dump.json'), ex('dumps/intact.dump.json'), '--bogus')).code).toBe(3);
  });
});

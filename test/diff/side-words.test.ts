/**
 * What the diff says in words: a plain-ASCII change of unequal length reads as what it is,
 * with no code-point note; a count of one item is singular; a replay's sides say what they
 * hold, an expression only where the replay recorded one (a dump's, not a manifest's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cliIn, examplesIn } from '../cli/in-process.js';
import { diffJson, replaySides, spanCodePoints } from '../../shared/diff.js';
import { diffPage } from '../../shared/diff-html.js';

const entry = (a: string, b: string) => diffJson({ x: a }, { x: b }).differences[0]!;

describe('spanCodePoints of a change in length alone', () => {
  it('says nothing of a longer plain-ASCII span, and still names one that is not ASCII', () => {
    expect(spanCodePoints(entry('abcdefghij', '0123456789A'))).toBeNull();
    expect(spanCodePoints(entry('0123456789A', 'abcdefghij'))).toBeNull();
    expect(spanCodePoints(entry('abcdefghij', '0123456789ABCDEFGHIJ'))).toBeNull();
    // Where one side has nothing, the other's code point is still read: U+00A0 is named.
    expect(spanCodePoints(entry('abcdefghij', 'abXdefghiY\u00a0'))).toBe(
      'code points differ at 3 places of the span (8 against 9): U+0063 against U+0058 (at 1), U+006A against U+0059 (at 8), nothing against U+00A0 (at 9)',
    );
    // Unless the two have nothing in common: unrelated texts (unrelated-span.test.ts).
    expect(spanCodePoints(entry('abcdefghij', '0123456789\u00a0'))).toBeNull();
  });
});

describe('the page’s lengths', () => {
  const page = (a: number[], b: number[]) =>
    diffPage({ title: 't', what: 'w', left: { name: 'l' }, right: { name: 'r' }, result: diffJson({ a }, { a: b }) });

  it('counts one item in the singular', () => {
    expect(page([1], [1, 2])).toContain('<dd>1 item left, 2 right</dd>');
    expect(page([1, 2], [1])).toContain('<dd>2 items left, 1 right</dd>');
    expect(page([], [1])).toContain('<dd>0 items left, 1 right</dd>');
  });
});

describe('a replay’s sides in words', () => {
  it('a manifest’s hold its comparisons; a dump’s its comparisons and expression', () => {
    const comparisons = [{ output: 's', mode: 'EXACT' as const, original: 1, replayed: 1, status: 'pass' as const }];
    expect(replaySides({ comparisons }).content).toBe('its comparisons');
    const expression = { recorded: { tokens: ['a'] }, replayed: { tokens: ['a'] } };
    expect(replaySides({ comparisons, details: { expression } }).content).toBe('its comparisons and expression');
  });

  let dir = '';
  beforeAll(async () => void (dir = await examplesIn('reprise-side-words-')), 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reprise diff X --replay labels a manifest’s sides without an expression, a dump’s with one', async () => {
    const sides = async (...args: string[]): Promise<string[]> => {
      const r = await cliIn(dir, 'diff', ...args, '--replay', '--json');
      const out = JSON.parse(r.out) as { left: { content: string }; right: { content: string } };
      return [out.left.content, out.right.content];
    };
    const manifest = join(dir, 'tg/banded-drift-material/manifest.json');
    expect(await sides(manifest)).toEqual(['its comparisons', 'its comparisons']);
    const opts = [
      '--trust-store',
      join(dir, 'dumps/trust-store.json'),
      '--providers',
      join(dir, 'dumps/providers.json'),
    ];
    const both = 'its comparisons and expression';
    expect(await sides(join(dir, 'dumps/intact.dump.json'), ...opts)).toEqual([both, both]);
  });
});

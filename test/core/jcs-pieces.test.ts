/**
 * The canonical UTF-8 of a large value written in pieces (app/core/jcs/pieces.ts) is byte for
 * byte core's canonical text (canonicalizeValue), for shapes where JS order, escaping or a
 * piece boundary could make them differ; and no piece is longer than a bound, however large
 * the value.
 */
import { describe, expect, it } from 'vitest';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { canonicalBytesWithout, hashCanonical, PIECE_CHARS, writeCanonical } from '../../app/core/jcs/pieces.js';
import { hashBytes } from '../../app/core/hash.js';

function pieces(v: unknown, omit?: string): string[] {
  const out: string[] = [];
  writeCanonical(v, (p) => out.push(p), omit);
  return out;
}

/** A string several pieces long, with escapes, and surrogate pairs wherever a piece may end. */
const longText = (pieceCount: number): string =>
  ('a"\\\n\t\u0001é\u2028/😀'.repeat(PIECE_CHARS / 16) + 'b😀'.repeat(PIECE_CHARS / 4)).repeat(pieceCount) + 'end';

const manyKeys = Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`k${(i * 7919) % 6000}`, i]));
const SHAPES: Record<string, unknown> = {
  scalars: [null, true, false, 0, -0, 1e21, 1e-7, 5e-324, 0.1, -1.5, 9007199254740991, '', 'x'],
  'array-index names (JS lists them first)': JSON.parse('{"b":1,"10":2,"9":3,"a":{"2":[],"1":{}}}'),
  '__proto__ as an own member': JSON.parse('{"z":1,"__proto__":{"y":[1,{"b":2,"a":3}]},"a":0}'),
  'names in code-unit order, not locale': JSON.parse('{"é":1,"z":2,"Z":3,"\\ud83d\\ude00":4,"\\uffff":5,"":6}'),
  'empty and nested containers': { a: [], b: {}, c: [[], [{}], { d: [[[]]] }] },
  'more members than one piece holds': { rows: manyKeys, list: Array.from({ length: 6000 }, (_, i) => i / 3) },
  'a few strings, longer in all than one piece': Array.from({ length: 100 }, (_, i) => `${i}\u0001`.repeat(700)),
  'short strings longer in all than one piece': ['x'.repeat(PIECE_CHARS - 5), 'y'.repeat(PIECE_CHARS - 5), 'z'],
  'a long string, pairs at the piece boundaries': { t: longText(3), n: 1 },
  'a long member name': { ['k'.repeat(PIECE_CHARS) + '😀']: 1, a: [longText(1)] },
  'deep nesting': JSON.parse('['.repeat(400) + '{"b":1,"a":2}' + ']'.repeat(400)),
};

describe('canonical UTF-8 in pieces', () => {
  for (const [name, v] of Object.entries(SHAPES))
    it(`is core's canonical text: ${name}`, () => {
      const whole = Buffer.from(canonicalizeValue(v), 'utf8');
      expect(Buffer.compare(Buffer.from(pieces(v).join(''), 'utf8'), whole)).toBe(0);
      expect(hashCanonical(v)).toBe(hashBytes(whole));
    });

  it('leaves the omitted member out, as core does for the object without it', () => {
    const m = JSON.parse('{"type":"t","signature":"s","artifacts":{"b":{"json":[3,1]},"a":{"text":"x"}},"10":1}') as {
      [k: string]: unknown;
    };
    const { signature: _s, ...rest } = m;
    const want = Buffer.from(canonicalizeValue(rest), 'utf8');
    for (const hint of [0, 8, want.length, 10 * want.length])
      expect(Buffer.compare(Buffer.from(canonicalBytesWithout(m, 'signature', hint)), want)).toBe(0);
  });

  it('never holds a large value as one string: each piece is bounded', () => {
    const rows = Array.from({ length: 60_000 }, (_, i) => ({
      tag: `r${i} ${'note '.repeat(20)}`,
      score: i / 7,
      id: i,
    }));
    const v = { artifacts: { b: { json: { rows } }, a: { text: longText(4) } }, type: 't' };
    const ps = pieces(v);
    const total = ps.reduce((n, p) => n + p.length, 0);
    expect(total).toBeGreaterThan(8 * PIECE_CHARS);
    expect(Math.max(...ps.map((p) => p.length))).toBeLessThanOrEqual(2 * PIECE_CHARS);
    expect(ps.join('')).toBe(canonicalizeValue(v));
  });
});

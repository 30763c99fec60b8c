import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonPieces } from '../../app/core/json-pieces.js';

describe('jsonPieces', () => {
  it('joins to what JSON.stringify gives, at every piece size and depth', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 4 }),
        (v, size, levels) => {
          expect([...jsonPieces(v, size, levels)].join('')).toBe(JSON.stringify(v));
        },
      ),
    );
  });
  it('leaves out undefined members and writes an undefined item as null, as JSON.stringify does', () => {
    const v = { a: undefined, b: [1, undefined, { c: undefined, d: 2 }], e: 'x' };
    expect([...jsonPieces(v, 3)].join('')).toBe(JSON.stringify(v));
    expect([...jsonPieces({ only: undefined }, 3)].join('')).toBe('{}');
  });
  it('never holds much more than a piece: a large report comes in pieces of about the size asked', () => {
    const report = {
      schema: 'x',
      timeline: Array.from({ length: 20_000 }, (_, i) => ({ at: i, label: `event ${i}` })),
    };
    const pieces = [...jsonPieces(report, 4096)];
    expect(pieces.join('')).toBe(JSON.stringify(report));
    expect(pieces.length).toBeGreaterThan(JSON.stringify(report).length / (3 * 4096));
    // A piece ends once it has reached the size, and a run of items is sized to about one piece
    // (items of unlike length make a run a little longer or shorter).
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(3 * 4096);
  });
});

/**
 * A large answer or event crosses from the transport worker to the window in pieces
 * (renderer/src/lib/pieces.ts): a head with its long arrays emptied, then their items a
 * few thousand at a time, each its own message, so no message is long to receive. What the
 * window delivers must be the value as posted, whatever its shape.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembler, PIECE_ITEMS, postInPieces, type Piece } from '../../renderer/src/lib/pieces.js';

/** Posts through a structured clone, as postMessage does, and collects what is delivered. */
function roundTrip(values: unknown[]): { delivered: unknown[]; pieces: Piece[] } {
  const delivered: unknown[] = [];
  const pieces: Piece[] = [];
  const receive = assembler((v) => delivered.push(v));
  values.forEach((v, n) =>
    postInPieces(v, n, (p) => {
      const copy = structuredClone(p);
      pieces.push(copy);
      receive(copy);
    }),
  );
  return { delivered, pieces };
}

describe('values in pieces', () => {
  it('a report with 45,000 comparisons and a 15,000-point trajectory arrives whole, in messages of at most PIECE_ITEMS items', () => {
    const report = {
      schema: 'reprise.report/v1',
      findings: [{ rule: 'X', expected: [1, 2] }],
      comparisons: Array.from({ length: 45_000 }, (_, i) => ({ output: `o${i}`, original: i, replayed: i + 1 })),
      details: { trajectory: Array.from({ length: 15_000 }, (_, i) => ({ at: i })), counts: { pass: 1 } },
    };
    const event = { t: 'event', event: { type: 'job-done', jobId: 'j', report } };
    const { delivered, pieces } = roundTrip([{ t: 'event', event: { type: 'job-progress', fraction: 0.5 } }, event]);
    expect(delivered).toEqual([{ t: 'event', event: { type: 'job-progress', fraction: 0.5 } }, event]);
    expect(pieces[0]!.p).toBe('whole');
    expect(pieces[1]!.p).toBe('head');
    const parts = pieces.filter((p) => p.p === 'part');
    expect(parts).toHaveLength(Math.ceil(45_000 / PIECE_ITEMS) + Math.ceil(15_000 / PIECE_ITEMS));
    for (const p of parts) if (p.p === 'part') expect(p.items.length).toBeLessThanOrEqual(PIECE_ITEMS);
    expect(pieces.at(-1)!.p).toBe('end');
  });

  it('a member named __proto__ or constructor stays an own member, and the posted value is not changed', () => {
    const long = Array.from({ length: PIECE_ITEMS + 1 }, (_, i) => i);
    const value = JSON.parse(
      JSON.stringify({ a: 1 }).replace('{', `{"__proto__":{"constructor":${JSON.stringify(long)}},`),
    ) as Record<string, unknown>;
    const { delivered } = roundTrip([value]);
    expect(Object.getPrototypeOf(delivered[0])).toBe(Object.prototype);
    expect(
      Object.getOwnPropertyDescriptor(Object.getOwnPropertyDescriptor(delivered[0], '__proto__')!.value, 'constructor')!
        .value,
    ).toEqual(long);
    expect(
      (Object.getOwnPropertyDescriptor(value, '__proto__')!.value as { constructor: unknown[] }).constructor,
    ).toHaveLength(PIECE_ITEMS + 1);
  });

  it('any JSON value arrives as posted (long arrays at any depth, interleaved values)', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.string(), fc.constant(null), tie('arr'), tie('obj')),
      arr: fc.oneof(
        fc.array(tie('value'), { maxLength: 4 }),
        fc.integer({ min: 0, max: PIECE_ITEMS * 2 + 3 }).map((n) => Array.from({ length: n }, (_, i) => i)),
      ),
      obj: fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 4 }),
    }));
    fc.assert(
      fc.property(fc.array(json.value, { maxLength: 3 }), (values) => {
        expect(roundTrip(values).delivered).toEqual(values);
      }),
      { numRuns: 200 },
    );
  });
});

/**
 * Numbers that change value: a non-zero literal whose double is 0 (`1E-400`) is never
 * silent. RFC 8785 rounds it to 0 (the shared vector num-underflow), so the parse keeps it
 * with WARN_UNDERFLOW and its pointer, which kinds report as a finding like WARN_PRECISION,
 * on every path: the eager parse, the lazy parse, and the stripping fast path never proves
 * one canonical. A literal zero in any notation, and the smallest subnormals, are kept
 * without a warning.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalizeText, diagnose, parseCanonical, stripToCanonical } from '../../app/core/jcs.js';

/** The parse's warnings as "CODE pointer", or 'accepted' when there are none. */
function code(text: string, lazy: boolean): string {
  const w = parseCanonical(text, { lazy }).warnings;
  return w.length === 0 ? 'accepted' : w.map((x) => `${x.code} ${x.pointer}`).join(', ');
}

/** A non-zero decimal literal below the smallest subnormal (~4.94e-324), in one of several notations. */
const underflowing = fc
  .tuple(
    fc.integer({ min: 1, max: 9 }),
    fc.integer({ min: 0, max: 40 }),
    fc.integer({ min: 325, max: 100_000 }),
    fc.constantFrom('e', 'E'),
    fc.boolean(),
    fc.integer({ min: 0, max: 3 }),
  )
  .map(([d, extra, mag, e, neg, form]) => {
    const sign = neg ? '-' : '';
    const digits = String(d) + '7'.repeat(extra % 5);
    const exp = -(mag + digits.length - 1);
    switch (form) {
      case 0:
        return `${sign}${digits}${e}${exp}`; // 17e-400
      case 1:
        return `${sign}${digits[0]}.${digits.slice(1) || '0'}${e}-${mag}`; // 1.7e-400
      case 2:
        return `${sign}0.${'0'.repeat(Math.min(mag, 400))}${digits}`; // 0.000…17 (no exponent)
      default:
        return `${sign}0.${'0'.repeat(250)}${digits}${e}-${Math.max(mag - 250, 80)}`; // zeros and a small exponent
    }
  });

/** Places the literal in a document (with other zeros, which is when the check runs). */
const placed = (lit: string, where: number): { text: string; pointer: string } =>
  [
    { text: lit, pointer: '' },
    { text: `{"a":0,"b":${lit}}`, pointer: '/b' },
    { text: `[0,[1,{"x":${lit}}]]`, pointer: '/1/1/x' },
    { text: `{"z":[${lit}]}`, pointer: '/z/0' },
  ][where % 4]!;

describe('underflow to zero is a warning with its pointer (WARN_UNDERFLOW)', () => {
  it('the case in the issue', () => {
    expect(code('{"score":1E-400}', false)).toBe('WARN_UNDERFLOW /score');
    expect(code('{"score":1E-400}', true)).toBe('WARN_UNDERFLOW /score');
    expect(canonicalizeText('{"score":1E-400}')).toBe('{"score":0}'); // RFC 8785's rounding, as the vectors require
    expect(diagnose('[1E-400]')).toBeNull(); // not a refusal
  });
  it('any underflowing literal anywhere, eager and lazy alike, with its pointer; never stripped as canonical', () => {
    fc.assert(
      fc.property(underflowing, fc.nat(), (lit, where) => {
        const { text, pointer } = placed(lit, where);
        expect(Number(lit) === 0).toBe(true); // the generator makes only underflowing literals
        expect(code(text, false), text.slice(0, 80)).toBe(`WARN_UNDERFLOW ${pointer}`);
        expect(code(text, true), text.slice(0, 80)).toBe(`WARN_UNDERFLOW ${pointer}`);
        expect(stripToCanonical(Buffer.from(text)), 'the fast path never proves it canonical').toBeNull();
      }),
      { numRuns: 400 },
    );
  });
  it('zeros in any notation, the smallest subnormals and small numbers are kept', () => {
    for (const t of [
      '0',
      '-0',
      '0.0',
      '0e-999',
      '0.000e-500',
      '-0.0E+5',
      '5e-324',
      '-5e-324',
      '4.9406564584124654e-324',
      '3e-324',
      '2.5e-323',
      '1e-7',
      '1.5e-300',
      '0.0000000000000000001',
      '[0,1e-100]',
    ]) {
      expect(code(`{"a":0,"n":${t}}`, false), t).toBe('accepted');
      expect(code(`{"a":0,"n":${t}}`, true), t).toBe('accepted');
    }
    // 2.4e-324 is nearer to 0 than to the smallest subnormal: it underflows.
    expect(code('[0,2.4e-324]', false)).toBe('WARN_UNDERFLOW /1');
  });
});

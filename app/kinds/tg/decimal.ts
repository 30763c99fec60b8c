/**
 * Exact decimal arithmetic for TG (tg-replay.md, pass criteria): every number is taken as
 * its shortest round-trip decimal text (ECMAScript Number#toString, which is also its
 * RFC 8785 form), never as a binary double. A private decimal.js constructor whose
 * precision covers the exact difference of any two finite doubles (their exponents span
 * about 650 decimal places), so no subtraction or sum here is ever rounded.
 */
import DecimalModule from 'decimal.js';
import type { Decimal as DecimalClass } from 'decimal.js';

// decimal.js ships CommonJS typings: under NodeNext TypeScript types the default import
// as the module object, while Node loads decimal.mjs whose default export is the class.
const DecimalLib = ((DecimalModule as unknown as { default?: typeof DecimalClass }).default ??
  DecimalModule) as unknown as typeof DecimalClass;

export const ExactDecimal = DecimalLib.clone({ precision: 1000, rounding: DecimalLib.ROUND_HALF_EVEN });
export type Exact = InstanceType<typeof ExactDecimal>;

/** A recorded number as the decimal it is written as. */
export const exact = (n: number): Exact => new ExactDecimal(String(n));

/**
 * |replayed − original| in exact decimal arithmetic, as the JSON number written with the
 * exact decimal's digits (Number of its text: the same digits whenever the exact decimal
 * has at most 15 significant digits, the nearest double beyond).
 */
export function exactDelta(replayed: number, original: number): { delta: Exact; json: number } {
  const delta = exact(replayed).minus(exact(original)).abs();
  return { delta, json: Number(delta.toString()) };
}

/** The BANDED pass criterion: |replayed − original| ≤ ε, exactly; a delta at ε passes. */
export function withinEpsilon(delta: Exact, epsilon: number): boolean {
  return delta.lte(exact(epsilon));
}

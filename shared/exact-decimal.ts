/**
 * Exact decimal arithmetic, the one module of it shared by the engine and the window: every
 * number is taken as its shortest round-trip decimal text (ECMAScript Number#toString, which
 * is also its RFC 8785 form), never as a binary double. A private decimal.js constructor
 * whose precision covers the exact difference of any two finite doubles (their exponents
 * span about 650 decimal places), so no subtraction or sum here is ever rounded: 0.2 − 0.1
 * is 0.1, where the doubles give 0.1 too but 0.3 − 0.1 gives 0.19999999999999998.
 */
import DecimalModule from 'decimal.js';
import type { Decimal as DecimalClass } from 'decimal.js';

// decimal.js ships CommonJS typings: under NodeNext TypeScript types the default import
// as the module object, while Node and bundlers load decimal.mjs whose default export is the class.
const DecimalLib = ((DecimalModule as unknown as { default?: typeof DecimalClass }).default ??
  DecimalModule) as unknown as typeof DecimalClass;

export const ExactDecimal = DecimalLib.clone({ precision: 1000, rounding: DecimalLib.ROUND_HALF_EVEN });
export type Exact = InstanceType<typeof ExactDecimal>;

/** A recorded number as the decimal it is written as. */
export const exact = (n: number): Exact => new ExactDecimal(String(n));

/** An exact decimal as text: plain digits up to 40 places (they read best), beyond that decimal.js's exponent form (`1e-300`). */
export function exactText(d: Exact): string {
  return d.isZero() ? '0' : d.abs().gte('1e-40') && d.abs().lt('1e40') ? d.toFixed() : d.toString();
}

/** `b − a` exactly, as decimal text in plain notation when it is short, else scientific (`1e-300`). */
export function exactDifference(a: number, b: number): string {
  return exactText(exact(b).minus(exact(a)));
}

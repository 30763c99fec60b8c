/**
 * Exact decimal arithmetic for TG (tg-replay.md, pass criteria): every number is taken as
 * its shortest round-trip decimal text (ECMAScript Number#toString, which is also its
 * RFC 8785 form), never as a binary double, through the one exact-decimal module
 * (shared/exact-decimal.ts), so no subtraction or sum here is ever rounded.
 */
import { exact, ExactDecimal, type Exact } from '../../../shared/exact-decimal.js';

export { exact, ExactDecimal, type Exact };

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

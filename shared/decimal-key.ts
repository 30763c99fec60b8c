/**
 * One spelling per decimal value of a JSON number's text, shared by the strict parser's
 * precision check (app/core/jcs/diagnose.ts) and the diff, which compares a number its
 * double cannot keep by its literal: a module of its own, so the parser loads no diff code.
 */

/** Index of the first unit of `s` from `from` (stepping by `step`) that is not the digit 0. */
function pastZeros(s: string, from: number, step: 1 | -1): number {
  let i = from;
  while (i >= 0 && i < s.length && s.charCodeAt(i) === 0x30) i += step;
  return i;
}

/**
 * A JSON number's text as its decimal value, one spelling per value: sign, digits without
 * leading or trailing zeros, exponent (`1.50e2` and `150` are both `15e1`, every zero `0`).
 * Exact whatever the literal's length or exponent (a BigInt exponent, no double).
 */
export function decimalKey(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return text;
  const frac = m[3] ?? '';
  const all = m[2]! + frac;
  const [first, last] = [pastZeros(all, 0, 1), pastZeros(all, all.length - 1, -1)];
  if (first > last) return '0';
  const exponent = BigInt(m[4] ?? '0') - BigInt(frac.length) + BigInt(all.length - 1 - last);
  return `${m[1]}${all.slice(first, last + 1)}e${exponent}`;
}

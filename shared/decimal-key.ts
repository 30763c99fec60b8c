/**
 * One spelling per decimal value of a JSON number's text, and the cheap tests for a text
 * that may hold a number its double does not keep, shared by the strict parser's precision
 * check (app/core/jcs/diagnose.ts) and the diff, which compares such a number by its literal
 * (shared/number-literals.ts): a module of its own, so the parser loads no diff code.
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

/**
 * 16 or more digits in a row, a decimal point allowed among them: a number beyond 2^53
 * whose text differs from its double has at least 16 significant digits (any decimal of 15
 * or fewer round-trips, so its text is the shortest form of its double). With mayUnderflow,
 * a cheap filter before a precise pass (the strict parser's precision check, the diff's
 * literals); a match inside a string only costs that pass.
 */
export const LONG_MANTISSA = /\d(?:\.?\d){15}/;

/**
 * Whether the text may hold a non-zero number literal that underflows to 0 (`1E-400`,
 * `0.000…0001` with 330 zeros): the number in the file is not the number hashed, signed
 * and replayed. RFC 8785 rounds it to 0 (the shared JCS vectors say so: num-underflow), so
 * canonicalization keeps it, with WARN_UNDERFLOW, which kinds turn into a finding as they
 * do WARN_PRECISION (a loss of value in either direction). The smallest double is about
 * 4.9e-324, so such a literal has an exponent of -100 or below or a fraction with 16 or
 * more leading zeros (with an exponent above -100, it needs over 200 of them). A cheap
 * superset found with indexOf; a hit is confirmed token by token by the precise reader.
 */
export function mayUnderflow(text: string): boolean {
  if (text.indexOf('.0000000000000000') !== -1) return true;
  for (const e of ['e-', 'E-']) {
    for (let i = text.indexOf(e); i !== -1; i = text.indexOf(e, i + 2)) {
      const d = (k: number) => {
        const c = text.charCodeAt(i + k);
        return c >= 0x30 && c <= 0x39;
      };
      if (d(2) && d(3) && d(4)) return true;
    }
  }
  return false;
}

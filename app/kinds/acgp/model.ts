/**
 * ACGP facts (spec acgp.md): the intervention ladder, the baseline risk thresholds and
 * trust-debt parameters, and exact decimal helpers.
 *
 * All arithmetic goes through a private decimal.js constructor (ROUND_HALF_EVEN), never binary
 * floating point: the seed's CTQ example is 0.8925000000000001 in doubles and exactly 0.8925 in
 * decimal. Sums and products of recorded numbers are exact (EXACT_DIGITS); only the default
 * provider's decay is rounded, to DECAY_DIGITS (decayed).
 */
import DecimalModule from 'decimal.js';
import type { Decimal as DecimalClass } from 'decimal.js';

// decimal.js ships CommonJS typings: under NodeNext TypeScript types the default import
// as the module object, while Node loads decimal.mjs whose default export is the class.
const DecimalLib = ((DecimalModule as unknown as { default?: typeof DecimalClass }).default ??
  DecimalModule) as unknown as typeof DecimalClass;

/**
 * Significant digits that keep every sum and product Reprise forms of recorded numbers exact.
 * A recorded number is a double read as its shortest round-trip decimal: at most 17 significant
 * digits, and a non-zero one is at least 5e-324, so its last digit is at 10^-340 or above, its
 * first below 10^309. A score × weight (both in [0, 1]) is at most 1 and ends at 10^-680 or
 * above; a sum of fewer than 10^16 of them (the dimensions of one EVAL: far more than a
 * document can hold) is below 10^16, so it has at most 16 + 680 = 696 digits, and so has
 * 1 − ctq. pre + delta spans 10^308 to 10^-340: 649 digits. The default provider's state adds
 * an accumulation (0.1 to 5.1, last digit 10^-1) to a recorded pre (within the same bounds) or
 * to a decayed value, already rounded (DECAY_DIGITS): a sum with a decayed value far below
 * 10^-600 is rounded again, at 10^-697 relative, well inside the decay's own 10^-95.
 * Rounding to 100 digits (as before) let 0.44625 + 5e-151 count as the tie 0.44625 and a weight
 * sum of 1 + 1e-200 as 1. decimal.js works on the digits an operand has, not on this bound, so
 * the short numbers real traces record cost what they did.
 */
const EXACT_DIGITS = 2 * 340 + 16 + 1;

/** Our own Decimal constructor: configuring it never touches anyone else's decimal.js. */
export const D = DecimalLib.clone({
  precision: EXACT_DIGITS,
  rounding: DecimalLib.ROUND_HALF_EVEN,
  toExpNeg: -30,
  toExpPos: 40,
});
export type Dec = InstanceType<typeof D>;

/**
 * Significant digits of the default provider's decay, (1 − f)^periods and the state times it:
 * the exact power has about 2 × periods digits and would grow the state without bound over a
 * long trace, so it is rounded (correctly, half-even) to this; docs/acgp.md says what that
 * leaves undecided. Its own constructor, used only inside decayed(), so no other operation
 * rounds to it.
 */
const DECAY_DIGITS = 100;
const DecayD = D.clone({ precision: DECAY_DIGITS });

/** current × keep^periods (keep = 1 − decay_fraction), rounded to DECAY_DIGITS, as a D. */
export function decayed(current: Dec, keep: Dec, periods: Dec): Dec {
  return new D(new DecayD(current).times(new DecayD(keep).pow(periods)));
}

export const ZERO = new D(0);
export const ONE = new D(1);

/** A recorded JSON number as the decimal it denotes (its shortest round-trip text, i.e. its RFC 8785 form). */
export function dec(n: number): Dec {
  // Recorded numbers repeat (scores on a grid, weights, thresholds): decimals are immutable,
  // so a bounded cache of them is safe and saves most conversions on long traces.
  let d = DEC_CACHE.get(n);
  if (d === undefined) {
    d = new D(n);
    if (DEC_CACHE.size < 65536) DEC_CACHE.set(n, d);
  }
  return d;
}
const DEC_CACHE = new Map<number, Dec>();

/**
 * An exact decimal as a report's expected or actual value: the JSON number when its double is
 * exactly it, else its decimal text (a weight sum of 1 + 1e-200 shown as the number 1 would read
 * as the 1 it is not).
 */
export function exactJson(d: Dec): number | string {
  const n = Number(d.toString());
  return new D(n).eq(d) ? n : d.toString();
}

/** Rounded half-even to 4 places: the form in which EVAL values are recorded and compared. */
export function round4(d: Dec): Dec {
  return d.toDecimalPlaces(4, DecimalLib.ROUND_HALF_EVEN);
}

/** A decimal as a JSON number for reports (rounded half-even to 4 places). */
export function num4(d: Dec): number {
  return Number(round4(d).toString());
}

/** True when the recorded number equals the exact value rounded half-even to 4 places. */
export function eq4(recorded: number, exact: Dec): boolean {
  return dec(recorded).eq(round4(exact));
}

export const LADDER = ['ok', 'nudge', 'escalate', 'block', 'halt'] as const;
export type Intervention = (typeof LADDER)[number];
export function isIntervention(s: unknown): s is Intervention {
  return typeof s === 'string' && (LADDER as readonly string[]).includes(s);
}
export function rank(i: Intervention): number {
  return LADDER.indexOf(i);
}

/** Risk thresholds, closed above: ok if risk <= ok, nudge if <= nudge, escalate if <= escalate, else block. */
export interface RiskThresholds {
  ok: Dec;
  nudge: Dec;
  escalate: Dec;
}
export const BASELINE_RISK: RiskThresholds = { ok: new D('0.40'), nudge: new D('0.55'), escalate: new D('0.70') };

export function interventionForRisk(risk: Dec, t: RiskThresholds): Intervention {
  if (risk.lte(t.ok)) return 'ok';
  if (risk.lte(t.nudge)) return 'nudge';
  if (risk.lte(t.escalate)) return 'escalate';
  return 'block';
}

export const DEBT_THRESHOLD_NAMES = ['elevated_monitoring', 'restricted_mode', 're_tiering_review'] as const;
export type DebtThresholdName = (typeof DEBT_THRESHOLD_NAMES)[number];

/** Parameters of the default provider acgp.core.default@1 (baseline, or a blueprint's overrides). */
export interface DebtParams {
  decay_fraction: Dec;
  period_hours: Dec;
  min_debt: Dec;
  thresholds: Record<DebtThresholdName, Dec>;
}
export const BASELINE_DEBT: DebtParams = {
  decay_fraction: new D('0.05'),
  period_hours: new D('1'),
  min_debt: new D('0'),
  thresholds: { elevated_monitoring: new D('3.0'), restricted_mode: new D('6.0'), re_tiering_review: new D('10.0') },
};

/** Accumulation per intervention (upstream), and the flag's addition. */
export const ACCUMULATION: Record<Intervention, Dec> = {
  ok: new D('0.0'),
  nudge: new D('0.5'),
  escalate: new D('1.0'),
  block: new D('2.0'),
  halt: new D('5.0'),
};
export const FLAG_ACCUMULATION = new D('0.1');

export const DEFAULT_PROVIDER_ID = 'acgp.core.default@1';

/** Nanoseconds since the epoch of an RFC 3339 UTC timestamp already checked by isRfc3339Utc (all fraction digits kept). */
export function epochNs(ts: string): bigint {
  const m = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/.exec(ts);
  if (!m) throw new Error(`not a checked timestamp: ${ts}`);
  const secs = BigInt(Date.parse(m[1]! + 'Z')) / 1000n;
  const frac = BigInt((m[2] ?? '').padEnd(9, '0'));
  return secs * 1_000_000_000n + frac;
}

export const NS_PER_HOUR = new D('3600000000000');

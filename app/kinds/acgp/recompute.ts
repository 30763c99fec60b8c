/**
 * The arithmetic one EVAL records, recomputed exactly (decimal, never binary floating
 * point) and compared EXACT: ctq_score from its dimensions, risk_score from ctq_score, and
 * the least intervention the risk thresholds and tripwires allow.
 */
import type { JsonValue } from '../../../shared/report.js';
import { escapePointerToken, isPlainObject as isObj } from '../../core/closed.js';
import { fail, unavailable, warning } from './findings.js';
import {
  ONE,
  ZERO,
  dec,
  eq4,
  exactJson,
  interventionForRisk,
  num4,
  rank,
  round4,
  type Dec,
  type Intervention,
  type RiskThresholds,
} from './model.js';
import type { AcgpPolicy } from './policy.js';
import type { AcgpSink } from './sink.js';

type Obj = Record<string, unknown>;

/** One EVAL as the checks name it: the sink, its index, its name in messages and its pointers. */
export interface EvalScope {
  sink: AcgpSink;
  i: number;
  which: string;
  at(path: string): string;
}

export interface Tripwire {
  name: string;
  action: Intervention | null;
}

/** The risk thresholds an EVAL was checked against (the report shows the first). */
export interface RiskSeen {
  source: string;
  thresholds: RiskThresholds;
}

export function isNum(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}
export function jsonOf(v: unknown): JsonValue {
  return v === undefined ? null : (v as JsonValue);
}

/** Σ score × weight over the evaluated dimensions, exact, or null when a dimension fails its checks or the weights do not sum to 1. */
function sumDimensions(s: EvalScope, dims: Obj): Dec | null {
  let ok = true;
  let sum = ZERO;
  let weights = ZERO;
  let evaluated = 0;
  for (const [name, d] of Object.entries(dims)) {
    const dp = s.at(`/ctq_dimensions/${escapePointerToken(name)}`);
    if (!isObj(d)) {
      s.sink.push(
        fail('RPR-ACGP-003', `${s.which}: dimension ${name} must be an object {score, weight, status, contributors}`, {
          pointer: dp,
          actual: jsonOf(d),
        }),
      );
      ok = false;
      continue;
    }
    const bad = (m: string, k: string) => {
      s.sink.push(
        fail('RPR-ACGP-003', `${s.which}: dimension ${name}: ${m}`, { pointer: `${dp}/${k}`, actual: jsonOf(d[k]) }),
      );
      ok = false;
    };
    if (typeof d['status'] !== 'string' || d['status'] === '') bad('status must be a non-empty string', 'status');
    if (
      d['contributors'] !== undefined &&
      (!Array.isArray(d['contributors']) || !d['contributors'].every((c) => typeof c === 'string'))
    )
      bad('contributors must be an array of strings', 'contributors');
    if (d['status'] !== 'evaluated') continue;
    const sc = d['score'];
    const w = d['weight'];
    if (!isNum(sc) || sc < 0 || sc > 1) bad('score must be a number in [0, 1]', 'score');
    if (!isNum(w) || w < 0 || w > 1) bad('weight must be a number in [0, 1]', 'weight');
    if (!ok) continue;
    const wd = dec(w as number);
    sum = sum.plus(dec(sc as number).times(wd));
    weights = weights.plus(wd);
    evaluated++;
  }
  if (ok && evaluated === 0) {
    s.sink.push(
      fail('RPR-ACGP-016', `${s.which}: no dimension has status "evaluated"; ctq_score cannot be computed`, {
        pointer: s.at('/ctq_dimensions'),
      }),
    );
    ok = false;
  }
  if (ok && !weights.eq(ONE)) {
    s.sink.push(
      fail(
        'RPR-ACGP-004',
        `${s.which}: the weights of the ${evaluated} evaluated dimensions sum to ${weights.toString()}, not 1`,
        { pointer: s.at('/ctq_dimensions'), expected: 1, actual: exactJson(weights) },
      ),
    );
    ok = false;
  }
  return ok ? sum : null;
}

/** ctq_score = Σ score × weight over the evaluated dimensions, exact; weights must sum to 1. */
export function checkCtq(s: EvalScope, e: Obj): Dec | null {
  const dims = e['ctq_dimensions'];
  let exact: Dec | null = null;
  if (!isObj(dims) || Object.keys(dims).length === 0) {
    s.sink.push(
      fail('RPR-ACGP-002', `${s.which}: ctq_dimensions must be a non-empty object`, {
        pointer: s.at('/ctq_dimensions'),
        actual: jsonOf(dims),
      }),
    );
  } else exact = sumDimensions(s, dims);
  const rec = e['ctq_score'];
  const pointer = s.at('/ctq_score');
  if (!isNum(rec))
    s.sink.push(fail('RPR-ACGP-002', `${s.which}: ctq_score must be a number`, { pointer, actual: jsonOf(rec) }));
  if (exact === null) {
    s.sink.row('unavailable', () => ({
      output: pointer,
      mode: 'EXACT',
      original: jsonOf(rec),
      replayed: null,
      status: 'unavailable',
      reason: 'the dimensions did not pass their checks',
    }));
    return null;
  }
  const pass = isNum(rec) && eq4(rec, exact);
  s.sink.row(pass ? 'pass' : 'fail', () => ({
    output: pointer,
    mode: 'EXACT',
    original: jsonOf(rec),
    replayed: num4(exact),
    status: pass ? 'pass' : 'fail',
  }));
  if (!pass && isNum(rec))
    s.sink.push(
      fail(
        'RPR-ACGP-005',
        `${s.which}: ctq_score is Σ score × weight = ${exact.toString()} exactly (${round4(exact).toFixed(4)} rounded half-even to 4 places), not the recorded ${rec}`,
        {
          pointer,
          expected: num4(exact),
          actual: rec,
        },
      ),
    );
  return exact;
}

/** risk_score = 1 − ctq_score (exact), rounded half-even to 4 places. */
export function checkRisk(s: EvalScope, e: Obj, ctq: Dec | null): Dec | null {
  const pointer = s.at('/risk_score');
  const rec = e['risk_score'];
  if (!isNum(rec))
    s.sink.push(fail('RPR-ACGP-002', `${s.which}: risk_score must be a number`, { pointer, actual: jsonOf(rec) }));
  if (ctq === null) {
    s.sink.row('unavailable', () => ({
      output: pointer,
      mode: 'EXACT',
      original: jsonOf(rec),
      replayed: null,
      status: 'unavailable',
      reason: 'ctq_score could not be recomputed',
    }));
    return null;
  }
  const exact = ONE.minus(ctq);
  const risk = round4(exact);
  const pass = isNum(rec) && eq4(rec, risk);
  s.sink.row(pass ? 'pass' : 'fail', () => ({
    output: pointer,
    mode: 'EXACT',
    original: jsonOf(rec),
    replayed: num4(risk),
    status: pass ? 'pass' : 'fail',
  }));
  if (!pass && isNum(rec))
    s.sink.push(
      fail('RPR-ACGP-006', `${s.which}: risk_score is 1 − ctq_score = ${risk.toFixed(4)}, not the recorded ${rec}`, {
        pointer,
        expected: num4(risk),
        actual: rec,
      }),
    );
  return exact;
}

/**
 * What a triggered tripwire requires: the stricter of the action the EVAL records and the one
 * the policy gives its blueprint. The trace under audit never lowers the policy's (a "nudge"
 * recorded beside a policy's "halt" requires halt).
 */
function requiredBy(tw: Tripwire, governed: Intervention | undefined): Intervention | null {
  const a = tw.action;
  if (a === null) return governed ?? null;
  return governed !== undefined && rank(governed) > rank(a) ? governed : a;
}

/** The intervention the triggered tripwires raise `byRisk` to, why, and the tripwires whose action is unknown. */
function tripwiresRequire(
  byRisk: Intervention,
  tripwires: readonly Tripwire[],
  governed: (name: string) => Intervention | undefined,
): { computed: Intervention; tripwhy: string; unknown: string[] } {
  let computed = byRisk;
  let tripwhy = '';
  const unknown: string[] = [];
  for (const tw of tripwires) {
    const a = requiredBy(tw, governed(tw.name));
    if (a === null) unknown.push(tw.name);
    else if (rank(a) > rank(computed)) {
      computed = a;
      tripwhy += `; tripwire ${tw.name} requires ${a}`;
    }
  }
  return { computed, tripwhy, unknown };
}

/**
 * A tripwire whose action neither the EVAL nor the policy gives: whether the recorded
 * intervention relaxed it cannot be decided (only halt, the top of the ladder, is never
 * below it). Fail-closed: unavailable, naming the tripwires.
 */
function unknownTripwires(s: EvalScope, names: readonly string[], pointer: string): void {
  s.sink.push(
    unavailable(
      'RPR-ACGP-018',
      `${s.which}: tripwire(s) ${names.join(', ')} triggered, but neither the EVAL nor the policy (--policy) says what each requires: whether the intervention was relaxed cannot be decided`,
      { pointer },
    ),
  );
}

/**
 * The intervention the risk thresholds (and known tripwire actions) give; a lower recorded
 * one is a fail. Returns the thresholds it checked against (null when risk is unknown).
 */
export function checkIntervention(
  s: EvalScope,
  policy: AcgpPolicy,
  recorded: Intervention,
  risk: Dec | null,
  tripwires: readonly Tripwire[],
  blueprintId: string | null,
  tier: string | null,
): RiskSeen | null {
  const pointer = s.at('/intervention');
  if (recorded === 'halt' && tripwires.length === 0)
    s.sink.push(
      warning(
        'RPR-ACGP-008',
        `${s.which}: halt is recorded but no tripwire was triggered (upstream: halt comes only from tripwires)`,
        { pointer },
      ),
    );
  if (risk === null) {
    s.sink.row('unavailable', () => ({
      output: pointer,
      mode: 'EXACT',
      original: recorded,
      replayed: null,
      status: 'unavailable',
      reason: 'risk_score could not be recomputed',
    }));
    return null;
  }
  const { thresholds: t, source } = policy.risk(blueprintId, tier);
  const readings = riskReadings(risk, t);
  const byRisk = readings.lenient.intervention;
  const { computed, tripwhy, unknown } = tripwiresRequire(byRisk, tripwires, (name) =>
    policy.tripwire(blueprintId, name),
  );
  const strict = tripwiresRequire(readings.strict.intervention, tripwires, (name) =>
    policy.tripwire(blueprintId, name),
  );
  const pass = rank(recorded) >= rank(computed);
  // Only halt, the top of the ladder, is never below what an unknown tripwire requires.
  const undecided = pass && unknown.length > 0 && recorded !== 'halt';
  // Between the two readings of the risk: which one the writer compared is not known.
  const between = pass && !undecided && rank(recorded) < rank(strict.computed);
  if (undecided) unknownTripwires(s, unknown, pointer);
  if (between) betweenReadings(s, pointer, recorded, strict.computed, readings, t);
  const status = undecided || between ? 'unavailable' : pass ? 'pass' : 'fail';
  s.sink.row(status, () => ({
    output: pointer,
    mode: 'EXACT',
    original: recorded,
    replayed: between ? strict.computed : computed,
    status,
    ...(undecided
      ? { reason: `what tripwire(s) ${unknown.join(', ')} require is unknown` }
      : between
        ? { reason: 'the exact and the 4-place risk give different interventions' }
        : pass && recorded !== computed
          ? { reason: 'stricter than computed: allowed (trust debt may tighten scrutiny)' }
          : {}),
  }));
  if (!pass) {
    const why = `risk ${readings.lenient.shown} with the ${source} thresholds (ok ≤ ${t.ok}, nudge ≤ ${t.nudge}, escalate ≤ ${t.escalate}) gives ${byRisk}${tripwhy}`;
    s.sink.push(
      fail(
        'RPR-ACGP-007',
        `${s.which}: trust debt never relaxes an intervention: ${why}, but ${recorded} is recorded`,
        { pointer, expected: computed, actual: recorded },
      ),
    );
  }
  return { source, thresholds: t };
}

interface RiskReading {
  intervention: Intervention;
  /** The risk as a message shows it. */
  shown: string;
}

/**
 * The intervention of the exact risk (1 − ctq) and of the 4-place one the EVAL records, the
 * more lenient and the stricter. The spec's thresholds are closed above (ok if risk ≤ 0.40),
 * and no upstream source says which value the writer compares: a ctq of 0.59996 has an exact
 * risk of 0.40004 (nudge) and a recorded one of 0.4000 (ok). Only below both is a fail.
 */
function riskReadings(exact: Dec, t: RiskThresholds): { lenient: RiskReading; strict: RiskReading } {
  const four = round4(exact);
  const a: RiskReading = { intervention: interventionForRisk(four, t), shown: four.toFixed(4) };
  const b: RiskReading = { intervention: interventionForRisk(exact, t), shown: `${exact.toString()} (exact)` };
  return rank(a.intervention) <= rank(b.intervention) ? { lenient: a, strict: b } : { lenient: b, strict: a };
}

/** A recorded intervention that one reading of the risk allows and the other does not: unavailable, never a pass. */
function betweenReadings(
  s: EvalScope,
  pointer: string,
  recorded: Intervention,
  strict: Intervention,
  r: { lenient: RiskReading; strict: RiskReading },
  t: RiskThresholds,
): void {
  s.sink.push(
    unavailable(
      'RPR-ACGP-007',
      `${s.which}: risk ${r.lenient.shown} gives ${r.lenient.intervention} but risk ${r.strict.shown} gives ${r.strict.intervention} with thresholds ok ≤ ${t.ok}, nudge ≤ ${t.nudge}, escalate ≤ ${t.escalate}; which one the writer compared is not known, so whether the recorded ${recorded} relaxed the intervention cannot be decided`,
      { pointer, expected: strict, actual: recorded },
    ),
  );
}

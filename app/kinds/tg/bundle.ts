/**
 * The policy bundle (comp.FAGF.OUTPUT.WEIGHT-BUNDLE.v1_0): a closed format. Every
 * weight, modifier, exit threshold, ε and drift-rate limit Reprise uses comes from here.
 * Weights are summed with decimal.js on their shortest decimal text, so "sum to 1" is an
 * exact check, not a tolerance.
 */
import type { Finding } from '../../../shared/report.js';
import { fail } from './findings.js';
import { hashValue } from '../../core/hash.js';
import { BUNDLE_TYPE, DIMENSIONS, THRESHOLD_EXITS, type Dimension } from './constants.js';
import { exact, ExactDecimal } from './decimal.js';
import { closedMembers, isFiniteNumber, isNonEmptyString, isObj, ownRecord, ptr, wrongType } from './structure.js';
import { isLogic, unknownOperator } from './engines/rule-evaluator.js';

export interface Modifier {
  id: string;
  when: unknown;
  factor: number;
}

export interface Bundle {
  type: typeof BUNDLE_TYPE;
  bundleId: string;
  version: string;
  weights: Record<Dimension, number>;
  modifiers: Modifier[];
  exits: Record<(typeof THRESHOLD_EXITS)[number], number>;
  epsilon: Record<string, number>;
  driftRate: { window: number; maxRate: number };
}

export interface CheckedBundle {
  bundle: Bundle | null;
  hash: string;
  findings: Finding[];
}

const unit = (v: unknown): v is number => isFiniteNumber(v) && v >= 0 && v <= 1;

function checkWeights(v: Record<string, unknown>, base: string, findings: Finding[]): void {
  const w = v['weights'];
  if ('weights' in v) {
    if (!isObj(w)) findings.push(wrongType(ptr(base, 'weights'), 'an object of the seven dimension weights', w));
    else {
      const before = findings.length;
      closedMembers(w, ptr(base, 'weights'), DIMENSIONS, [], findings);
      for (const d of DIMENSIONS)
        if (Object.hasOwn(w, d) && !unit(w[d]))
          findings.push(wrongType(ptr(base, 'weights', d), 'a number from 0 to 1', w[d]));
      if (findings.length === before) {
        const sum = DIMENSIONS.reduce((s, d) => s.plus(exact(w[d] as number)), new ExactDecimal(0));
        if (!sum.eq(1))
          findings.push(
            fail('RPR-TG-003', 'the weights must sum to 1 exactly (decimal sum of their written values)', {
              pointer: ptr(base, 'weights'),
              expected: 1,
              actual: sum.toNumber(),
            }),
          );
      }
    }
  }
}

function checkModifiers(v: Record<string, unknown>, base: string, findings: Finding[]): void {
  const mods = v['modifiers'];
  if ('modifiers' in v) {
    if (!Array.isArray(mods)) findings.push(wrongType(ptr(base, 'modifiers'), 'an array', mods));
    else {
      const ids = new Set<string>();
      mods.forEach((m, i) => {
        const p = ptr(base, 'modifiers', i);
        if (!isObj(m)) return void findings.push(wrongType(p, 'an object {id, when, factor}', m));
        closedMembers(m, p, ['id', 'when', 'factor'], [], findings);
        if (!isNonEmptyString(m['id'])) findings.push(wrongType(ptr(p, 'id'), 'a non-empty string', m['id']));
        else if (ids.has(m['id']))
          findings.push(
            fail('RPR-TG-002', `modifier id "${m['id']}" appears twice`, {
              pointer: ptr(p, 'id'),
              expected: 'unique ids',
              actual: m['id'],
            }),
          );
        else ids.add(m['id']);
        if ('when' in m && !isLogic(m['when']))
          findings.push(
            wrongType(ptr(p, 'when'), 'a JsonLogic expression (an object with one operator) or a boolean', m['when']),
          );
        else if ('when' in m) {
          // Replay would refuse it when the modifier runs; verify says so without running it.
          const unknown = unknownOperator(m['when'], ptr(p, 'when'));
          if (unknown)
            findings.push(
              wrongType(unknown.pointer, 'an operation JsonLogic knows (log and method are removed)', unknown.op),
            );
        }
        const factor = factorProblem(m['factor'], ptr(p, 'factor'));
        if (factor) findings.push(factor);
      });
    }
  }
}

/**
 * A modifier's factor is a number in [0, 1] (docs/tg-replay.md, "Formats"): the weighted sum
 * of dimensions in [0, 1] is in [0, 1], and so is the score a product of such factors makes
 * of it, the interval every exit threshold lives in. A factor above 1 would lift scores past
 * every threshold (1e9 × any score is ACCEPT); the spec gives no bound, this is Reprise's.
 */
function factorProblem(factor: unknown, pointer: string): Finding | null {
  if (!isFiniteNumber(factor)) return wrongType(pointer, 'a number from 0 to 1', factor);
  if (unit(factor)) return null;
  return fail(
    'RPR-TG-006',
    `modifier factor ${factor} is outside [0, 1]: a factor scales the trust score within the unit interval its exit thresholds live in, and a bundle with one beyond it is refused`,
    { pointer, expected: 'a number from 0 to 1', actual: factor },
  );
}

function checkExits(v: Record<string, unknown>, base: string, findings: Finding[]): void {
  const ex = v['exits'];
  if ('exits' in v) {
    if (!isObj(ex)) findings.push(wrongType(ptr(base, 'exits'), 'an object of the four exit thresholds', ex));
    else {
      const before = findings.length;
      closedMembers(ex, ptr(base, 'exits'), THRESHOLD_EXITS, [], findings);
      for (const e of THRESHOLD_EXITS)
        if (Object.hasOwn(ex, e) && !unit(ex[e]))
          findings.push(wrongType(ptr(base, 'exits', e), 'a number from 0 to 1', ex[e]));
      if (findings.length === before) {
        for (let i = 1; i < THRESHOLD_EXITS.length; i++) {
          const hi = THRESHOLD_EXITS[i - 1]!;
          const lo = THRESHOLD_EXITS[i]!;
          if (!((ex[hi] as number) > (ex[lo] as number)))
            findings.push(
              fail('RPR-TG-004', `exit thresholds must strictly decrease: ${hi} above ${lo}`, {
                pointer: ptr(base, 'exits', lo),
                expected: `< ${String(ex[hi])}`,
                actual: ex[lo] as number,
              }),
            );
        }
      }
    }
  }
}

function checkEpsilon(v: Record<string, unknown>, base: string, findings: Finding[]): void {
  const eps = v['epsilon'];
  if ('epsilon' in v) {
    if (!isObj(eps)) findings.push(wrongType(ptr(base, 'epsilon'), 'an object mapping output CSIs to ε', eps));
    else
      for (const [k, e] of Object.entries(eps))
        if (!isFiniteNumber(e) || e < 0) findings.push(wrongType(ptr(base, 'epsilon', k), 'a non-negative number', e));
  }
}

function checkDriftRate(v: Record<string, unknown>, base: string, findings: Finding[]): void {
  const dr = v['driftRate'];
  if ('driftRate' in v) {
    if (!isObj(dr)) findings.push(wrongType(ptr(base, 'driftRate'), 'an object {window, maxRate}', dr));
    else {
      closedMembers(dr, ptr(base, 'driftRate'), ['window', 'maxRate'], [], findings);
      if ('window' in dr && !(Number.isSafeInteger(dr['window']) && (dr['window'] as number) >= 1))
        findings.push(wrongType(ptr(base, 'driftRate', 'window'), 'a positive integer', dr['window']));
      if ('maxRate' in dr && !unit(dr['maxRate']))
        findings.push(wrongType(ptr(base, 'driftRate', 'maxRate'), 'a number from 0 to 1', dr['maxRate']));
    }
  }
}

/** Validates a parsed bundle value; `base` is the pointer of the bundle inside its document; `knownHash` is H(v) when already computed. */
export function checkBundle(v: unknown, base = '', knownHash?: string): CheckedBundle {
  const findings: Finding[] = [];
  const hash = knownHash ?? safeHash(v);
  if (!isObj(v)) return { bundle: null, hash, findings: [wrongType(base, 'a JSON object', v)] };
  closedMembers(
    v,
    base,
    ['type', 'bundleId', 'version', 'weights', 'modifiers', 'exits', 'epsilon', 'driftRate'],
    [],
    findings,
  );
  if (v['type'] !== BUNDLE_TYPE)
    findings.push(
      fail('RPR-TG-002', `type must be ${BUNDLE_TYPE}`, {
        pointer: ptr(base, 'type'),
        expected: BUNDLE_TYPE,
        actual: String(v['type']),
      }),
    );
  for (const m of ['bundleId', 'version'])
    if (Object.hasOwn(v, m) && !isNonEmptyString(v[m]))
      findings.push(wrongType(ptr(base, m), 'a non-empty string', v[m]));

  checkWeights(v, base, findings);
  checkModifiers(v, base, findings);
  checkExits(v, base, findings);
  checkEpsilon(v, base, findings);
  checkDriftRate(v, base, findings);
  if (findings.length > 0) return { bundle: null, hash, findings };
  // ε is looked up by the output CSI an execution names: no prototype to find there.
  return {
    bundle: { ...(v as unknown as Bundle), epsilon: ownRecord(v['epsilon'] as Record<string, number>) },
    hash,
    findings,
  };
}

function safeHash(v: unknown): string {
  try {
    return hashValue(v);
  } catch {
    return '';
  }
}

/**
 * TG-RULE-EVALUATOR (EXACT): a JsonLogic ruleset artifact applied to the claim's inputs,
 * through json-logic-js (the reference JsonLogic implementation), never a home-made
 * interpreter. The two operators with side effects or host access (`log`, `method`) are
 * removed: a ruleset from an untrusted manifest cannot print or call host methods.
 */
import jsonLogic from 'json-logic-js';
import { canonicalizeValue } from '../../../core/jcs.js';
import { isObj, type Obj } from '../check.js';

jsonLogic.rm_operation('log');
jsonLogic.rm_operation('method');

/** A JsonLogic expression: an object with exactly one operator, or a literal boolean. */
export function isLogic(v: unknown): boolean {
  return typeof v === 'boolean' || (isObj(v) && Object.keys(v).length === 1);
}

export type RuleResult = { ok: true; value: unknown } | { ok: false; reason: string };

/** Applies one expression; a throw inside the library or a non-JSON result is a reason, not a crash. */
export function applyLogic(logic: unknown, data: unknown): RuleResult {
  let value: unknown;
  try {
    value = jsonLogic.apply(logic, data);
  } catch (e) {
    return { ok: false, reason: `JsonLogic refused the expression: ${e instanceof Error ? e.message : String(e)}` };
  }
  try {
    canonicalizeValue(value);
  } catch {
    return { ok: false, reason: 'the expression did not yield JSON data' };
  }
  return { ok: true, value };
}

export function truthy(logic: unknown, data: unknown): RuleResult {
  const r = applyLogic(logic, data);
  return r.ok ? { ok: true, value: jsonLogic.truthy(r.value) } : r;
}

/** Every rule of a ruleset applied to the data; the result object is keyed by rule name. */
export function evaluateRuleset(rules: Obj, data: unknown): RuleResult {
  const out: Obj = {};
  for (const name of Object.keys(rules).sort()) {
    const r = applyLogic(rules[name], data);
    if (!r.ok) return { ok: false, reason: `rule "${name}": ${r.reason}` };
    out[name] = r.value;
  }
  return { ok: true, value: out };
}

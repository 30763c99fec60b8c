/**
 * TG-RULE-EVALUATOR (EXACT): a JsonLogic ruleset artifact applied to the claim's inputs,
 * through json-logic-js (the reference JsonLogic implementation), never a home-made
 * interpreter, and always under the artifact's rule budget (metered-logic.ts). The two
 * operators with side effects or host access (`log`, `method`) are removed: a ruleset
 * from an untrusted manifest cannot print or call host methods.
 */
import jsonLogic from 'json-logic-js';
import { canonicalizeValue } from '../../../core/jcs.js';
import { isObj, type Obj } from '../structure.js';
import { evaluate, NotJsonData, RuleBudgetExceeded, type RuleBudget, type RuleLimitName } from './metered-logic.js';

jsonLogic.rm_operation('log');
jsonLogic.rm_operation('method');

/** A JsonLogic expression: an object with exactly one operator, or a literal boolean. */
export function isLogic(v: unknown): boolean {
  return typeof v === 'boolean' || (isObj(v) && Object.keys(v).length === 1);
}

/** A failure names the budget limit when the rule ran out of it (RPR-TG-038), not when JsonLogic refused it. */
export type RuleResult = { ok: true; value: unknown } | { ok: false; reason: string; limit?: RuleLimitName };

/** Applies one expression; a throw inside the library, a spent budget or a non-JSON result is a reason, not a crash. */
export function applyLogic(logic: unknown, data: unknown, budget: RuleBudget): RuleResult {
  let value: unknown;
  try {
    value = evaluate(logic, data, budget);
  } catch (e) {
    if (e instanceof RuleBudgetExceeded) return { ok: false, reason: e.message, limit: e.limit };
    if (e instanceof NotJsonData) return { ok: false, reason: e.message };
    return { ok: false, reason: `JsonLogic refused the expression: ${e instanceof Error ? e.message : String(e)}` };
  }
  try {
    canonicalizeValue(value);
  } catch {
    return { ok: false, reason: 'the expression did not yield JSON data' };
  }
  return { ok: true, value };
}

export function truthy(logic: unknown, data: unknown, budget: RuleBudget): RuleResult {
  const r = applyLogic(logic, data, budget);
  return r.ok ? { ok: true, value: jsonLogic.truthy(r.value) } : r;
}

/** Every rule of a ruleset applied to the data; the result is keyed by rule name (a rule may be named `__proto__`). */
export function evaluateRuleset(rules: Obj, data: unknown, budget: RuleBudget): RuleResult {
  const out: Obj = Object.create(null) as Obj;
  for (const name of Object.keys(rules).sort()) {
    const r = applyLogic(rules[name], data, budget);
    if (!r.ok) return { ...r, reason: `rule "${name}": ${r.reason}` };
    out[name] = r.value;
  }
  return { ok: true, value: out };
}

/**
 * TG-RULE-EVALUATOR (EXACT): a JsonLogic ruleset artifact applied to the claim's inputs,
 * through json-logic-js (the reference JsonLogic implementation), never a home-made
 * interpreter, and always under the artifact's rule budget (metered-logic.ts). The two
 * operators with side effects or host access (`log`, `method`) are removed: a ruleset
 * from an untrusted manifest cannot print or call host methods.
 */
import jsonLogic from 'json-logic-js';
import { canonicalizeValue } from '../../../core/jcs.js';
import { isObj, ptr, type Obj } from '../structure.js';
import { evaluate, NotJsonData, RuleBudgetExceeded, type RuleBudget, type RuleLimitName } from './metered-logic.js';

jsonLogic.rm_operation('log');
jsonLogic.rm_operation('method');

/** A JsonLogic expression: an object with exactly one operator, or a literal boolean. */
export function isLogic(v: unknown): boolean {
  return typeof v === 'boolean' || (isObj(v) && Object.keys(v).length === 1);
}

/**
 * The operators json-logic-js 2.x evaluates once `log` and `method` are removed: the ones
 * its `apply` handles itself (control flow and iteration) and its table of operations. The
 * library has no way to list them, so they are written here, and a test holds this list to
 * the library's source so that an upgrade that adds or drops one is seen.
 */
export const LOGIC_OPERATORS: ReadonlySet<string> = new Set([
  ...['if', '?:', 'and', 'or', 'filter', 'map', 'reduce', 'all', 'none', 'some'],
  ...['==', '===', '!=', '!==', '>', '>=', '<', '<=', '!!', '!', '%', 'in', 'cat', 'substr'],
  ...['+', '*', '-', '/', 'min', 'max', 'merge', 'var', 'missing', 'missing_some'],
]);

/**
 * The first operator of an expression that JsonLogic would refuse when it runs, with its
 * pointer below `at`; null when every operator is known. Walks as `apply` does: arrays item by
 * item, an object of one member as an operation, anything else as a literal. Iterative, so a
 * deeply nested expression cannot exhaust the stack.
 */
export function unknownOperator(logic: unknown, at = ''): { op: string; pointer: string } | null {
  const todo: [unknown, string][] = [[logic, at]];
  for (let next = todo.pop(); next; next = todo.pop()) {
    const [v, p] = next;
    // Items pushed last first, so the first unknown operator in the text is the one named.
    if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) todo.push([v[i], ptr(p, i)]);
    else if (isObj(v) && Object.keys(v).length === 1) {
      const op = Object.keys(v)[0]!;
      const here = ptr(p, op);
      if (!LOGIC_OPERATORS.has(op)) return { op, pointer: here };
      todo.push([v[op], here]);
    }
  }
  return null;
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

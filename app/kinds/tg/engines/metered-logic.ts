/**
 * JsonLogic under a budget. json-logic-js evaluates recursively and synchronously and
 * cannot be interrupted, so a rule such as five nested `reduce` over 100 elements, or 30
 * doublings through `merge`, would hold the thread (or the heap) without bound. The
 * library recurses through its own exported `jsonLogic.apply` property, so replacing that
 * property with a metered wrapper sees every step (each operator, each iteration of
 * map/filter/reduce/all/some/none, each `missing` lookup) while every operator's
 * semantics stay the library's. The wrapper charges each step one unit plus the size of
 * the value it yields, and throws RuleBudgetExceeded past the budget: the library holds no
 * state of its own, so unwinding through it is safe.
 */
import jsonLogic from 'json-logic-js';
import { TG_LIMITS } from '../limits.js';

export type RuleLimitName = keyof typeof TG_LIMITS;

export interface RuleLimits {
  operations: number;
  resultSize: number;
}

/** One artifact's budget: every evaluation draws from it; `memo` makes a repeated (logic, data) evaluation free. */
export interface RuleBudget {
  readonly limits: RuleLimits;
  spent: number;
  readonly memo: WeakMap<object, Map<unknown, Outcome>>;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export function ruleBudget(overrides?: Readonly<Record<string, number>>): RuleBudget {
  const limits = {
    operations: overrides?.['tg-rule-operations'] ?? TG_LIMITS['tg-rule-operations'],
    resultSize: overrides?.['tg-rule-result-size'] ?? TG_LIMITS['tg-rule-result-size'],
  };
  return { limits, spent: 0, memo: new WeakMap() };
}

export class RuleBudgetExceeded extends Error {
  constructor(
    readonly limit: RuleLimitName,
    readonly allowed: number,
    /** The budget was spent before this evaluation began (by another rule of the artifact). */
    readonly earlier = false,
  ) {
    super(
      earlier
        ? `not evaluated: an earlier rule of this artifact spent its rule budget of ${allowed} operations (limit tg-rule-operations)`
        : limit === 'tg-rule-operations'
          ? `exceeded the rule budget of ${allowed} operations shared by this artifact's rules (limit tg-rule-operations; raise it with --limit tg-rule-operations=N)`
          : `a step yielded a value larger than ${allowed} units (limit tg-rule-result-size; raise it with --limit tg-rule-result-size=N)`,
    );
  }
}

interface Meter {
  budget: RuleBudget;
  /** Sizes of values already measured in this evaluation (values are never mutated). */
  sizes: WeakMap<object, number>;
}

let meter: Meter | null = null;
const unmetered = jsonLogic.apply;

function charge(m: Meter, units: number): void {
  m.budget.spent += units;
  if (m.budget.spent > m.budget.limits.operations)
    throw new RuleBudgetExceeded('tg-rule-operations', m.budget.limits.operations);
}

jsonLogic.apply = function meteredApply(logic: unknown, data?: unknown): unknown {
  const m = meter;
  // Only evaluate() below sets a meter; nothing else in Reprise calls the library.
  if (m === null) return unmetered(logic, data);
  charge(m, 1);
  const value = unmetered(logic, data);
  const size = sizeOf(value, m.sizes, m.budget.limits.resultSize);
  if (size > m.budget.limits.resultSize)
    throw new RuleBudgetExceeded('tg-rule-result-size', m.budget.limits.resultSize);
  charge(m, size);
  return value;
};

/**
 * `var` reads own members only. The library's `var` descends with `data[name]`, so
 * `{"var": "constructor.name"}` read "Object" through the prototype: a value no claim
 * holds. This replacement keeps every other rule of the library's (a dotted path, array
 * indices, a string's characters and length, the default when a step is missing) and
 * finds a name only where the data itself has it. `missing` and `missing_some` look
 * names up through `var`, so they follow.
 */
function ownVar(this: unknown, path?: unknown, fallback?: unknown): unknown {
  return ownMember(this, path, fallback);
}

function ownMember(root: unknown, path: unknown, fallback: unknown): unknown {
  const notFound = fallback === undefined ? null : fallback;
  if (path === undefined || path === '' || path === null) return root;
  let data = root;
  for (const name of String(path).split('.')) {
    if (data === null || data === undefined || !Object.hasOwn(Object(data), name)) return notFound;
    data = (data as Record<string, unknown>)[name];
    if (data === undefined) return notFound;
  }
  return data;
}
jsonLogic.add_operation('var', ownVar);

/** Thrown when a step yields what JSON data cannot hold: a function or a prototype reached through an inherited name (`{"var": "constructor"}`, `"items.__proto__"`). */
export class NotJsonData extends Error {
  constructor() {
    super(
      'a step yielded something that is not JSON data (an inherited property such as constructor or __proto__ is no member of the data)',
    );
  }
}

function leafSize(v: unknown): number {
  if (typeof v === 'string') return 1 + v.length;
  if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') throw new NotJsonData();
  return 1;
}

/** JSON data has only enumerable own members on a plain prototype; a prototype object (Object.prototype, Array.prototype, Number.prototype…) has hidden ones. */
function checkPlain(x: object): void {
  const proto: unknown = Object.getPrototypeOf(x);
  // Array.prototype's own prototype is Object.prototype, so an array check needs no more.
  if (
    Array.isArray(x)
      ? proto !== Array.prototype
      : (proto !== Object.prototype && proto !== null) || Object.getOwnPropertyNames(x).length !== Object.keys(x).length
  )
    throw new NotJsonData();
}

/**
 * Elements, members (with their names) and characters of a value, counted without
 * recursion (no stack limit) and stopping once past `cap`; subtrees measured before are
 * looked up, so a value built from earlier results costs only its own top level.
 */
export function sizeOf(v: unknown, sizes: WeakMap<object, number>, cap: number): number {
  if (v === null || typeof v !== 'object') return leafSize(v);
  const known = sizes.get(v);
  if (known !== undefined) return known;
  let total = 0;
  const stack: object[] = [v];
  const add = (c: unknown): void => {
    if (c === null || typeof c !== 'object') total += leafSize(c);
    else {
      const k = sizes.get(c);
      if (k !== undefined) total += k;
      else stack.push(c);
    }
  };
  while (stack.length > 0) {
    const x = stack.pop()!;
    checkPlain(x);
    total += 1;
    if (Array.isArray(x)) for (let i = 0; i < x.length && total <= cap; i++) add(x[i]);
    else
      for (const key of Object.keys(x)) {
        if (total > cap) break;
        total += key.length;
        add((x as Record<string, unknown>)[key]);
      }
    if (total > cap) return total;
  }
  sizes.set(v, total);
  return total;
}

/** Applies `logic` to `data` within `budget` (the library's errors and RuleBudgetExceeded propagate). */
export function evaluate(logic: unknown, data: unknown, budget: RuleBudget): unknown {
  const memoKey = typeof logic === 'object' && logic !== null ? logic : null;
  const memo = memoKey ? budget.memo.get(memoKey) : undefined;
  const known = memo?.get(data);
  if (known) return unwrap(known);
  if (budget.spent > budget.limits.operations)
    throw new RuleBudgetExceeded('tg-rule-operations', budget.limits.operations, true);
  const previous = meter;
  meter = { budget, sizes: new WeakMap() };
  let outcome: Outcome;
  try {
    outcome = { ok: true, value: jsonLogic.apply(logic, data) };
  } catch (error) {
    outcome = { ok: false, error };
  } finally {
    meter = previous;
  }
  if (memoKey) {
    const m = budget.memo.get(memoKey) ?? new Map<unknown, Outcome>();
    m.set(data, outcome);
    budget.memo.set(memoKey, m);
  }
  return unwrap(outcome);
}

function unwrap(o: Outcome): unknown {
  if (o.ok) return o.value;
  throw o.error;
}

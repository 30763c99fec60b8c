/**
 * Small structural helpers for closed formats: each yields findings with a pointer,
 * the expected shape and the actual value, instead of throwing.
 */
import type { Finding, JsonValue } from '../../../shared/report.js';
import { escapePointerToken } from '../../core/jcs.js';
import { type ChangedNumberRule } from '../../core/findings.js';
import { fail, type RuleId } from './findings.js';

export type Obj = Record<string, unknown>;

export const RULE_STRUCTURE = 'RPR-TG-002';

/**
 * A TG document's numbers the strict parse changed: RPR-TG-001 like any other I-JSON break,
 * a fail because H(json) and H(bundle) cover the rounded value (docs/tg-replay.md).
 */
export const tgNumbers = (what: string): ChangedNumberRule<RuleId> => ({
  rule: 'RPR-TG-001',
  subject: `${what} is not strict I-JSON`,
});

export { isPlainObject as isObj } from '../../core/closed.js';

/**
 * A copy of a data-keyed record without a prototype: a key from the artifact (an engine,
 * an output CSI, an artifact hash, a rule name) such as `constructor`, `toString` or
 * `__proto__` then finds only what the artifact holds, never Object.prototype.
 */
export function ownRecord<T>(o: Readonly<Record<string, T>>): Record<string, T> {
  const r = Object.create(null) as Record<string, T>;
  for (const k of Object.keys(o)) r[k] = o[k]!;
  return r;
}

export function ptr(base: string, ...tokens: (string | number)[]): string {
  return base + tokens.map((t) => '/' + escapePointerToken(String(t))).join('');
}

/** A short JSON rendering of an actual value for a finding (never huge). */
export function show(v: unknown): JsonValue {
  if (v === undefined) return '(absent)';
  if (v === null || typeof v === 'boolean' || typeof v === 'number') return v;
  if (typeof v === 'string') return v.length > 200 ? v.slice(0, 200) + '…' : v;
  return Array.isArray(v) ? `(array of ${v.length})` : '(object)';
}

/** Checks that `o` has exactly the required members plus any of the optional ones. */
export function closedMembers(
  o: Obj,
  pointer: string,
  required: readonly string[],
  optional: readonly string[],
  out: Finding[],
): boolean {
  let ok = true;
  for (const r of required) {
    if (!Object.hasOwn(o, r)) {
      out.push(
        fail(RULE_STRUCTURE, `missing member "${r}"`, {
          pointer: ptr(pointer, r),
          expected: 'present',
          actual: '(absent)',
        }),
      );
      ok = false;
    }
  }
  for (const k of Object.keys(o)) {
    if (!required.includes(k) && !optional.includes(k)) {
      out.push(
        fail(RULE_STRUCTURE, `unknown member "${k}": the format is closed`, {
          pointer: ptr(pointer, k),
          expected: [...required, ...optional].join(', '),
          actual: k,
        }),
      );
      ok = false;
    }
  }
  return ok;
}

export function wrongType(pointer: string, expected: string, actual: unknown): Finding {
  return fail(RULE_STRUCTURE, `${pointer || 'the document'} must be ${expected}`, {
    pointer,
    expected,
    actual: show(actual),
  });
}

export function isNonEmptyString(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0;
}

export function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

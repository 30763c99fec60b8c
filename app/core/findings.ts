/** Small constructors for findings, so every check yields the same shape. */
import type { Finding, JsonValue, Severity } from '../../shared/report.js';

export function finding(rule: string, severity: Severity, message: string, extra: { pointer?: string; expected?: JsonValue; actual?: JsonValue } = {}): Finding {
  const f: Finding = { rule, severity, message };
  if (extra.pointer !== undefined) f.pointer = extra.pointer;
  if (extra.expected !== undefined) f.expected = extra.expected;
  if (extra.actual !== undefined) f.actual = extra.actual;
  return f;
}

export const fail = (rule: string, message: string, extra?: Parameters<typeof finding>[3]): Finding => finding(rule, 'fail', message, extra);
export const unavailable = (rule: string, message: string, extra?: Parameters<typeof finding>[3]): Finding =>
  finding(rule, 'unavailable', message, extra);
export const warning = (rule: string, message: string, extra?: Parameters<typeof finding>[3]): Finding => finding(rule, 'warning', message, extra);
export const info = (rule: string, message: string, extra?: Parameters<typeof finding>[3]): Finding => finding(rule, 'info', message, extra);

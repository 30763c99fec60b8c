/** Small constructors for findings, so every check yields the same shape. */
import type { Finding, JsonValue, Severity } from '../../shared/report.js';
import type { JcsWarning } from './jcs/errors.js';

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

/** How one kind reports a number whose parse changed its value (see changedNumbers). */
export interface ChangedNumberRule {
  rule: string;
  /** Starts the message: what is not I-JSON (`the dump is not I-JSON`, `EVAL 3`). */
  subject: string;
  /** `fail` where the number is hashed or signed (the hash covers the rounded value). */
  severity?: Severity;
  /** Ends the message, after a semicolon. */
  note?: string;
}

/**
 * The strict parse's WARN_PRECISION and WARN_UNDERFLOW as findings: the number in the file
 * (`9007199254740993`, `1E-400`) is not the double that is hashed, signed and replayed, so
 * an edit between two spellings of one double goes unseen. The one mapping every kind uses.
 * `where` is a prefix of each warning's pointer (where the parsed text sits in the
 * artifact), or `{ at }`, a fixed pointer (a line), with the member then named in the message.
 */
export function changedNumbers(warnings: readonly JcsWarning[], r: ChangedNumberRule, where: string | { at: string } = ''): Finding[] {
  return warnings.map((w) => {
    const fixed = typeof where === 'object';
    const member = fixed ? ` at ${w.pointer === '' ? '(root)' : w.pointer}` : '';
    return finding(r.rule, r.severity ?? 'fail', `${r.subject}: ${w.message}${member}${r.note ? `; ${r.note}` : ''}`, {
      pointer: fixed ? where.at : where + w.pointer,
      expected: 'a number its double holds exactly',
      actual: w.code === 'WARN_UNDERFLOW' ? 'a non-zero number that the parse rounds to 0' : 'a number beyond 2^53 that the parse rounds',
    });
  });
}

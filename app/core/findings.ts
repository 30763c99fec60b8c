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

/**
 * Findings of one rule a list keeps. An artifact of many tiny items (100,000 artifacts
 * none hashing to its key, 200,000 journal lines each missing its members) would
 * otherwise hold millions of findings and print a report thousands of times its own
 * size, for what the first hundred already say.
 */
export const MAX_FINDINGS_PER_RULE = 100;

const RANK: Record<Severity, number> = { info: 0, warning: 1, unavailable: 2, fail: 3 };

/**
 * A findings list that keeps the first MAX_FINDINGS_PER_RULE of each rule, in order, and
 * counts the rest of a rule in one RPR-REPORT-001 finding carrying the worst severity
 * among them: the verdict of the list is the verdict of everything pushed. A kind that
 * checks item by item collects into one (the memory stays bounded); every report passes
 * through one (app/core/report.ts).
 */
export class BoundedFindings extends Array<Finding> {
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }
  private readonly seen = new Map<string, number>();
  private readonly left = new Map<string, Finding & { actual: { rule: string; count: number } }>();

  override push(...fs: Finding[]): number {
    for (const f of fs) this.add(f);
    return this.length;
  }

  private add(f: Finding): void {
    const n = (this.seen.get(f.rule) ?? 0) + 1;
    this.seen.set(f.rule, n);
    if (n <= MAX_FINDINGS_PER_RULE || f.rule === 'RPR-REPORT-001') {
      super.push(f);
      return;
    }
    const l = this.left.get(f.rule);
    const count = (l?.actual.count ?? 0) + 1;
    const severity = l && RANK[l.severity] >= RANK[f.severity] ? l.severity : f.severity;
    const summary = { rule: 'RPR-REPORT-001', severity, message: `${count} more finding(s) of ${f.rule} were left out (at most ${MAX_FINDINGS_PER_RULE} per rule); the worst of them is ${severity}`, actual: { rule: f.rule, count } };
    if (l) Object.assign(l, summary);
    else {
      this.left.set(f.rule, summary);
      super.push(summary);
    }
  }
}

/** `findings` within the bound, as a plain array (itself when it already is). */
export function boundFindings(findings: readonly Finding[]): Finding[] {
  const b = new BoundedFindings();
  for (const f of findings) b.push(f);
  return b.length === findings.length ? (findings as Finding[]) : [...b];
}

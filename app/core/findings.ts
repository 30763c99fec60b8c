/** Small constructors for findings, so every check yields the same shape. */
import type { Finding, JsonValue, Severity } from '../../shared/report.js';
import type { JcsWarning } from './jcs/errors.js';

export function finding(
  rule: string,
  severity: Severity,
  message: string,
  extra: { pointer?: string; expected?: JsonValue; actual?: JsonValue } = {},
): Finding {
  const f: Finding = { rule, severity, message };
  if (extra.pointer !== undefined) f.pointer = extra.pointer;
  if (extra.expected !== undefined) f.expected = extra.expected;
  if (extra.actual !== undefined) f.actual = extra.actual;
  return f;
}

export const fail = (rule: string, message: string, extra?: Parameters<typeof finding>[3]): Finding =>
  finding(rule, 'fail', message, extra);
export const unavailable = (rule: string, message: string, extra?: Parameters<typeof finding>[3]): Finding =>
  finding(rule, 'unavailable', message, extra);
export const warning = (rule: string, message: string, extra?: Parameters<typeof finding>[3]): Finding =>
  finding(rule, 'warning', message, extra);
export const info = (rule: string, message: string, extra?: Parameters<typeof finding>[3]): Finding =>
  finding(rule, 'info', message, extra);

/** Rule ids, each with one line saying what it finds (a kind's rule-ids.ts, app/core/rule-ids.ts; docs/rules/ in full). */
export type RuleDeclarations = Readonly<Record<string, string>>;

/**
 * fail() and its siblings typed on the rule ids `rules` declares: a finding of an id the
 * kind did not declare does not compile. A kind makes its findings only through these
 * (its findings.ts; test/house/typed-findings.test.ts).
 */
export function findingsOn<R extends string>(_rules: Readonly<Record<R, string>>) {
  type Extra = Parameters<typeof finding>[3];
  return {
    finding: (rule: R, severity: Severity, message: string, extra?: Extra): Finding =>
      finding(rule, severity, message, extra),
    fail: (rule: R, message: string, extra?: Extra): Finding => fail(rule, message, extra),
    unavailable: (rule: R, message: string, extra?: Extra): Finding => unavailable(rule, message, extra),
    warning: (rule: R, message: string, extra?: Extra): Finding => warning(rule, message, extra),
    info: (rule: R, message: string, extra?: Extra): Finding => info(rule, message, extra),
    changedNumbers: (warnings: readonly JcsWarning[], r: ChangedNumberRule<R>, where?: string | { at: string }) =>
      changedNumbers(warnings, r, where),
  };
}

/**
 * What a report says of an artifact that looks cut short (a copy truncated, a download
 * interrupted): these words after what could not be read, the same in every format, so
 * that a reviewer (and a search for "truncated") meets them alike. Said only where the
 * evidence shows it (the text ends inside a JSON value, a line, a fenced block; a ZIP's
 * records run to the end of the file), never of any malformed input.
 */
export function cutShort(what: string): string {
  return `${what} (truncated, cut short?)`;
}

/** How one kind reports a number whose parse changed its value (see changedNumbers). */
export interface ChangedNumberRule<R extends string = string> {
  rule: R;
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
export function changedNumbers(
  warnings: readonly JcsWarning[],
  r: ChangedNumberRule,
  where: string | { at: string } = '',
): Finding[] {
  return warnings.map((w) => {
    const fixed = typeof where === 'object';
    const member = fixed ? ` at ${w.pointer === '' ? '(root)' : w.pointer}` : '';
    return finding(r.rule, r.severity ?? 'fail', `${r.subject}: ${w.message}${member}${r.note ? `; ${r.note}` : ''}`, {
      pointer: fixed ? where.at : where + w.pointer,
      expected: 'a number its double holds exactly',
      actual:
        w.code === 'WARN_UNDERFLOW'
          ? 'a non-zero number that the parse rounds to 0'
          : 'a number beyond 2^53 that the parse rounds',
    });
  });
}

/**
 * Findings of one rule a list keeps. An artifact of many tiny items (100,000 artifacts
 * none hashing to its key, 200,000 journal lines each missing its members) would
 * otherwise hold millions of findings and print a report thousands of times its own
 * size, for what the first hundred already say.
 */
export const MAX_FINDINGS_PER_RULE = 100;
/** The `--limit` that raises it, for a reviewer who wants every finding listed. */
export const FINDINGS_LIMIT = 'findings-per-rule';

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
  /** Findings kept per rule (`--limit findings-per-rule=N`). */
  maxPerRule = MAX_FINDINGS_PER_RULE;
  private readonly seen = new Map<string, number>();
  private readonly left = new Map<string, Finding & { actual: { rule: string; count: number } }>();

  /** Whether a finding was left out (counted in an RPR-REPORT-001 finding instead). */
  get elided(): boolean {
    return this.left.size > 0;
  }

  override push(...fs: Finding[]): number {
    for (const f of fs) this.add(f);
    return this.length;
  }

  private add(f: Finding): void {
    const n = (this.seen.get(f.rule) ?? 0) + 1;
    this.seen.set(f.rule, n);
    if (n <= this.maxPerRule || f.rule === 'RPR-REPORT-001') {
      super.push(f);
      return;
    }
    const l = this.left.get(f.rule);
    const count = (l?.actual.count ?? 0) + 1;
    const severity = l && RANK[l.severity] >= RANK[f.severity] ? l.severity : f.severity;
    const summary = {
      rule: 'RPR-REPORT-001',
      severity,
      message: `${count} more finding(s) of ${f.rule} were left out (at most ${this.maxPerRule} per rule; --limit ${FINDINGS_LIMIT}=N lists more); the worst of them is ${severity}`,
      actual: { rule: f.rule, count },
    };
    if (l) Object.assign(l, summary);
    else {
      this.left.set(f.rule, summary);
      super.push(summary);
    }
  }
}

/** `findings` within the bound, as a plain array (itself when it already is). */
export function boundFindings(findings: readonly Finding[], maxPerRule = MAX_FINDINGS_PER_RULE): Finding[] {
  const b = new BoundedFindings();
  b.maxPerRule = maxPerRule;
  for (const f of findings) b.push(f);
  // Not by length: one finding over the bound is replaced by its summary, which keeps the length.
  return b.elided ? [...b] : (findings as Finding[]);
}

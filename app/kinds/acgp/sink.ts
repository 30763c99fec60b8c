/**
 * Where the ACGP checks put what they find, bounded so a trace of any length streams
 * through in constant memory: findings, comparison rows and trajectory points up to their
 * limits (acgp-findings, acgp-comparisons, acgp-trajectory), with counts of what was left
 * out; and how an EVAL is named in pointers and messages (one EVAL, a trace, a JSON Lines
 * trace).
 */
import type { Comparison, Finding, JsonValue, Severity } from '../../../shared/report.js';
import { ACGP_LIMITS } from './limits.js';

export interface SinkLimits {
  findings: number;
  comparisons: number;
  trajectory: number;
}

const SEVERITY_ORDER: readonly Severity[] = ['info', 'warning', 'unavailable', 'fail'];

export class AcgpSink {
  readonly findings: Finding[] = [];
  readonly comparisons: Comparison[] = [];
  readonly trajectory: JsonValue[] = [];
  readonly limits: SinkLimits;
  readonly rowCounts = { pass: 0, fail: 0, unavailable: 0 };
  elidedFindings = 0;
  elidedWorst: Severity | null = null;
  elidedRows = 0;
  elidedPoints = 0;

  constructor(
    /** One EVAL (pointers `/member`) rather than a trace (pointers `/i/member`). */
    readonly single: boolean,
    /** JSON Lines: messages name the line. */
    readonly jsonl: boolean,
    limits: Record<string, number> | undefined,
  ) {
    const l = limits ?? {};
    this.limits = {
      findings: l['acgp-findings'] ?? ACGP_LIMITS['acgp-findings'],
      comparisons: l['acgp-comparisons'] ?? ACGP_LIMITS['acgp-comparisons'],
      trajectory: l['acgp-trajectory'] ?? ACGP_LIMITS['acgp-trajectory'],
    };
  }

  push(f: Finding): void {
    if (this.findings.length < this.limits.findings) {
      this.findings.push(f);
      return;
    }
    this.elidedFindings++;
    if (this.elidedWorst === null || SEVERITY_ORDER.indexOf(f.severity) > SEVERITY_ORDER.indexOf(this.elidedWorst))
      this.elidedWorst = f.severity;
  }

  /** Counts a comparison row and builds it only when the report keeps it (long traces). */
  row(status: Comparison['status'], make: () => Comparison): void {
    this.rowCounts[status]++;
    if (this.comparisons.length < this.limits.comparisons) this.comparisons.push(make());
    else this.elidedRows++;
  }

  /** A trajectory point, built only when the report keeps it. */
  point(make: () => JsonValue): void {
    if (this.trajectory.length >= this.limits.trajectory) this.elidedPoints++;
    else this.trajectory.push(make());
  }

  ptr(i: number, path: string): string {
    return this.single ? path : `/${i}${path}`;
  }

  where(i: number): string {
    if (this.single) return 'the EVAL';
    return this.jsonl ? `EVAL ${i} (line ${i + 1})` : `EVAL ${i}`;
  }
}

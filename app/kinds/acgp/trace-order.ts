/**
 * The checks across the EVALs of a trace: one trace id, time order, and the first
 * provider, blueprint and risk thresholds seen (the report's summary names them). The trace
 * id is held whole (one, to compare each EVAL's with) and quoted as held-id.ts cuts it.
 */
import { fail } from './findings.js';
import { heldId } from './held-id.js';
import { num4, type DebtParams } from './model.js';
import type { CheckedEval } from './eval-form.js';
import type { AcgpPolicy } from './policy.js';
import type { EvalScope } from './recompute.js';

export class TraceOrder {
  traceId: string | null = null;
  /** The first provider's id, as the report names it (heldId). */
  firstProvider: string | null = null;
  firstDebt: { params: DebtParams; source: string } | null = null;
  firstRisk: { source: string; ok: number; nudge: number; escalate: number } | null = null;
  private lastNs: bigint | null = null;

  constructor(private readonly policy: AcgpPolicy) {}

  /** Notes the first risk thresholds and debt parameters seen, then checks the EVAL's place in the trace. */
  check(s: EvalScope, f: CheckedEval): void {
    if (this.firstRisk === null && f.riskSeen !== null) {
      const t = f.riskSeen.thresholds;
      this.firstRisk = { source: f.riskSeen.source, ok: num4(t.ok), nudge: num4(t.nudge), escalate: num4(t.escalate) };
    }
    if (this.firstDebt === null && f.blueprintId !== null) this.firstDebt = this.policy.debt(f.blueprintId);
    if (f.traceId !== null) {
      if (this.traceId === null) this.traceId = f.traceId;
      else if (f.traceId !== this.traceId)
        s.sink.push(
          fail('RPR-ACGP-031', `${s.which} belongs to another trace`, {
            pointer: s.at('/trace_id'),
            expected: heldId(this.traceId),
            actual: heldId(f.traceId),
          }),
        );
    }
    if (f.tsNs !== null) {
      if (this.lastNs !== null && f.tsNs < this.lastNs)
        s.sink.push(
          fail('RPR-ACGP-030', `${s.which} is earlier than the EVAL before it: a trace is in time order`, {
            pointer: s.at('/timestamp'),
            actual: f.timestamp,
          }),
        );
      this.lastNs = f.tsNs;
    }
    if (this.firstProvider === null && f.providerId !== null) this.firstProvider = heldId(f.providerId);
  }
}

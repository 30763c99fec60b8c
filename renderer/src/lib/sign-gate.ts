/**
 * Whether the window offers to sign onto a journal: not when the engine's verification of
 * it found a failure. The journal writer (app/journal/writer.ts) refuses every append onto
 * such a journal, whatever the window does; the window says so before anyone writes a
 * rationale, naming the first failing rule as the writer's refusal does.
 */
import type { JournalStatus } from '../../../shared/api.js';

export const NOTHING_SIGNED = 'nothing can be signed onto a journal that fails verification';

/** Why nothing can be signed onto this journal, or null when its verification found no failure (or there is none yet). */
export function signingRefusal(st: JournalStatus | null): string | null {
  const fails = st?.findings.filter((f) => f.severity === 'fail') ?? [];
  const f = fails[0];
  if (!f) return null;
  const more = fails.length > 1 ? `; and ${fails.length - 1} more failing finding${fails.length > 2 ? 's' : ''}` : '';
  return `Signing is off: this journal FAILS verification (${f.rule}${f.pointer ? ` at ${f.pointer}` : ''}: ${f.message}${more}), and ${NOTHING_SIGNED}.`;
}

/**
 * A saved report is shown as it states itself, never re-verified: the engine host records a
 * judgement only on a report one of its jobs returned (main/host/emitted-reports.ts), and the
 * window says so before anyone writes a rationale.
 */
export const SAVED_REPORT_REFUSAL =
  'Signing is off: this is a saved report, shown as it states itself and not re-verified, and a judgement is recorded only on a report the engine returned. Open its artifact and run it to judge it.';

/** Why no judgement can be recorded beside the open report: its journal fails, or it is a saved report. */
export const judgementRefusal = (st: JournalStatus | null, savedReport: boolean): string | null =>
  signingRefusal(st) ?? (savedReport ? SAVED_REPORT_REFUSAL : null);

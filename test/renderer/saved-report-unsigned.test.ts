/**
 * A saved report is shown as it states itself, and nothing is signed on it: the engine host
 * records a judgement only on a report one of its jobs returned (main/host/emitted-reports.ts),
 * so the window turns "Record judgement" off beside a saved report and says why before anyone
 * writes a rationale (lib/sign-gate.ts judgementRefusal, JudgementPanel's useRefusal). A
 * journal that fails is said first: it refuses whatever the report.
 */
import { describe, expect, it } from 'vitest';
import { judgementRefusal, SAVED_REPORT_REFUSAL } from '../../renderer/src/lib/sign-gate';
import type { JournalStatus } from '../../shared/api';

const journal = (findings: JournalStatus['findings']): JournalStatus => ({
  dir: '/j',
  verdict: findings.length > 0 ? 'fail' : 'pass',
  findings,
  entries: 1,
  checkpointSize: 1,
  root: null,
  rolesChecked: true,
  cases: [],
});

describe('a saved report is not signed on', () => {
  it('refuses beside a saved report, saying why', () => {
    expect(judgementRefusal(journal([]), true)).toBe(SAVED_REPORT_REFUSAL);
    expect(SAVED_REPORT_REFUSAL).toMatch(/saved report.*not re-verified.*Open its artifact and run it/);
  });

  it('offers it beside a report a job returned', () => {
    expect(judgementRefusal(journal([]), false)).toBeNull();
    expect(judgementRefusal(null, false)).toBeNull();
  });

  it('says a failing journal first', () => {
    const st = journal([{ rule: 'RPR-JOURNAL-003', severity: 'fail', message: 'broken chain' }]);
    expect(judgementRefusal(st, true)).toMatch(/FAILS verification \(RPR-JOURNAL-003/);
  });
});

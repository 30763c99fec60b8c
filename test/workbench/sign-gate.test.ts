/**
 * The window's sign gate (renderer/src/lib/sign-gate.ts): no refusal until the engine found
 * a failure (a journal not yet verified, one that passes, one whose signatures only could
 * not be checked); with one, the first failing rule and where, how many more fail, and that
 * nothing can be signed onto such a journal (test/workbench/unverified-journal.test.ts
 * checks it against the engine's verification of the examples' tampered journal).
 */
import { describe, expect, it } from 'vitest';
import type { JournalStatus } from '../../shared/api.js';
import { NOTHING_SIGNED, signingRefusal } from '../../renderer/src/lib/sign-gate.js';

type F = JournalStatus['findings'][number];
const status = (findings: F[]): JournalStatus => ({
  dir: '/j',
  verdict: 'pass',
  findings,
  entries: 1,
  checkpointSize: 1,
  root: null,
  rolesChecked: true,
  cases: [],
});
const fail = (rule: string, pointer?: string): F => ({
  rule,
  severity: 'fail',
  message: `${rule} message`,
  ...(pointer ? { pointer } : {}),
});

describe('signingRefusal', () => {
  it('none without a failure', () => {
    expect(signingRefusal(null)).toBeNull();
    expect(signingRefusal(status([]))).toBeNull();
    expect(signingRefusal(status([{ rule: 'RPR-JOURNAL-000', severity: 'info', message: 'fine' }]))).toBeNull();
    expect(
      signingRefusal(status([{ rule: 'RPR-JOURNAL-011', severity: 'unavailable', message: 'no trust store' }])),
    ).toBeNull();
  });

  it('the first failing rule with its pointer, and the failures after it counted (others not)', () => {
    expect(signingRefusal(status([fail('R-1', 'line:2')]))).toBe(
      `Signing is off: this journal FAILS verification (R-1 at line:2: R-1 message), and ${NOTHING_SIGNED}.`,
    );
    const three = signingRefusal(
      status([
        { rule: 'W', severity: 'warning', message: 'w' },
        fail('R-1'),
        fail('R-2'),
        { rule: 'U', severity: 'unavailable', message: 'u' },
        fail('R-3'),
      ]),
    );
    expect(three).toBe(
      `Signing is off: this journal FAILS verification (R-1: R-1 message; and 2 more failing findings), and ${NOTHING_SIGNED}.`,
    );
    expect(signingRefusal(status([fail('R-1'), fail('R-2')]))).toContain('; and 1 more failing finding)');
  });
});

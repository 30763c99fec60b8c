/** An officer's command names a case in one spelling: `case-N` or `N` as the case is named, or its opening hash. */
import { describe, expect, it } from 'vitest';
import { findCase, type CaseState } from '../../app/journal/cases.js';

const cases = [0, 7, 10].map((n) => ({ openSeq: n, openHash: `sha256:${String(n).padStart(64, '0')}` }) as CaseState);

describe('findCase', () => {
  it('finds a case by its name, its number or its opening hash', () => {
    expect(findCase(cases, 'case-0')?.openSeq).toBe(0);
    expect(findCase(cases, '7')?.openSeq).toBe(7);
    expect(findCase(cases, 'case-10')?.openSeq).toBe(10);
    expect(findCase(cases, cases[1]!.openHash)?.openSeq).toBe(7);
  });

  it('refuses another spelling of a number (leading zeros, signs, exponents)', () => {
    for (const ref of ['case-00', 'case-07', '007', 'case-+7', 'case-7.0', 'case-7e0', 'CASE-7', 'case-7 '])
      expect(findCase(cases, ref), ref).toBeUndefined();
  });
});

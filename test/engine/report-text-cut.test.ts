/**
 * The text output shortens a long expected or actual value to 117 code units: a cut between
 * the halves of a surrogate pair would print half an emoji (an escaped lone surrogate).
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { formatReport } from '../../app/engine/report-text.js';

describe('a long value in the text output', () => {
  it('is cut before a surrogate pair, never between its halves', () => {
    const value = 'a'.repeat(116) + '\u{1F600}'.repeat(20);
    const report = {
      schema: 'reprise.report/v1',
      artifact: { kind: 'unknown', path: 'x.json', sha256: null },
      verdict: 'fail',
      findings: [{ rule: 'RPR-KIND-001', severity: 'fail', message: 'm', expected: value, actual: 'b' }],
      chain: [],
      run: { tool: 'reprise', version: '0', startedAtUtc: '2026-01-01T00:00:00Z', durationMs: 0 },
    } as unknown as Report;
    const text = formatReport(report, false);
    expect(text).toContain(`${'a'.repeat(116)}...`);
    expect(text).not.toMatch(/\\ud83d|\uFFFD/i);
  });
});

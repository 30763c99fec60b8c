/**
 * Whose failure the banner's plain words name (lib/report-words.ts plainVerdict): a file that
 * carries a report (an evidence bundle, an exported report: `details.integrity`) is either
 * damaged itself or intact around a report that fails; neither is "the artifact fails".
 */
import { describe, expect, it } from 'vitest';
import { plainVerdict } from '../../renderer/src/lib/report-words';
import type { Report, Verdict } from '../../shared/report';

const report = (integrity: Verdict | null, rule: string, message: string) =>
  ({
    schema: 'reprise.report/v1',
    artifact: { path: 'b.zip', kind: 'evidence-bundle', id: null, sha256: null },
    verdict: 'fail',
    findings: [{ rule, severity: 'fail', message }],
    chain: [],
    ...(integrity
      ? {
          details: {
            integrity: { verdict: integrity, trustStore: true, statement: 's' },
            carried: { verdict: 'fail', kind: 'replay-dump', id: null, decisive: null },
          },
        }
      : {}),
  }) as unknown as Report;

describe('the plain words of a FAIL', () => {
  it('a damaged bundle is said damaged, not the artifact failing', () => {
    expect(plainVerdict(report('fail', 'RPR-EVB-009', 'the judgement names another report'))).toBe(
      'The file is damaged: the judgement names another report.',
    );
  });
  it('an intact bundle around a failing report says the report it carries fails', () => {
    expect(plainVerdict(report('pass', 'RPR-EVB-016', 'the bundled report fails'))).toBe(
      'The report it carries fails: the bundled report fails.',
    );
  });
  it('any other artifact fails as itself', () => {
    expect(plainVerdict(report(null, 'RDS-F001', 'hash mismatch'))).toBe('The artifact fails: hash mismatch.');
  });
});

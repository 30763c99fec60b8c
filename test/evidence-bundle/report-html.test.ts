/**
 * The one HTML renderer of a report (shared/report-html.ts): the workbench's export page and
 * the evidence bundle's page. A bundle's page is rebuilt by `verify` and compared, so its
 * bytes must not drift between versions: a fixed report's page has a fixed digest here.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { reportPage, withoutMainLandmark } from '../../shared/report-html.js';
import { bundleHtml } from '../../app/kinds/evidence-bundle/html.js';

const HOSTILE = '"><script>alert(1)</script><img onerror=y>';
const REPORT = {
  schema: 'reprise.report/v1',
  artifact: { path: `dump-${HOSTILE}.json`, kind: 'replay-dump', id: HOSTILE, sha256: 'sha256:' + '0'.repeat(64) },
  verdict: 'fail',
  findings: [
    {
      rule: 'RDS-F001',
      severity: 'fail',
      message: `artifact ${HOSTILE} changed`,
      pointer: '/artifacts/a',
      expected: { hash: 'x' },
      actual: HOSTILE,
    },
  ],
  chain: [{ id: 'n1', label: 'artifact a', status: 'mismatch', recorded: 'sha256:1', recomputed: 'sha256:2' }],
  comparisons: [
    { output: 'score', mode: 'BANDED', status: 'drift', original: 8.6, replayed: 7.6, delta: '1', epsilon: '0.5' },
  ],
  events: [{ type: 'REPLAY-DRIFT', route: 'HUMAN_REVIEW', output: HOSTILE }],
  run: { tool: 'reprise', version: '0.0.0', startedAtUtc: '2026-12-02T00:00:00.000Z', durationMs: 1 },
} as unknown as Report;

describe('the report as an HTML page', () => {
  it('the export page: every section, values and events, every text escaped, nothing external', () => {
    const html = reportPage(REPORT);
    expect(html).not.toMatch(/<script|<img|src=|href=/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    for (const s of [
      'RDS-F001',
      '/artifacts/a',
      '&quot;hash&quot;',
      'artifact a',
      'sha256:2',
      'HUMAN_REVIEW',
      '8.6',
      '7.6',
      '1 / 0.5',
      'max-width:1100px',
    ])
      expect(html).toContain(s);
  });

  it("the bundle's page has fixed bytes, and without its main landmark is the page the versions before wrote (verify takes both)", () => {
    const { run: _run, ...bundled } = REPORT;
    const proofs = [
      {
        entry: JSON.stringify({
          seq: 1,
          recordedAtUtc: '2026-12-02T00:00:00Z',
          author: 'ed25519:k',
          body: { decision: 'note', pointer: '/findings/0', rationale: HOSTILE },
        }),
        entryHash: 'sha256:e',
        leafIndex: 0,
        treeSize: 1,
        auditPath: [],
      },
    ];
    const cp = { treeSize: 1, rootHash: 'sha256:r', timestampUtc: '2026-12-02T00:00:01Z', signer: 'ed25519:k' };
    const html = bundleHtml(bundled, proofs as never, cp as never, 'sha256:d');
    expect(html).not.toMatch(/<script|<img|src=|href=/);
    const digest = (s: string) => createHash('sha256').update(s).digest('hex');
    expect(digest(html)).toBe('bd44f2b7f0e5745e9f2fe654587052db67f52221573fb9be2a73fe4d666103db');
    expect(html.match(/<main>/g)).toHaveLength(1);
    expect(html).toMatch(/<body><main>[\s\S]*<\/main><\/body><\/html>\n$/);
    // The bytes pinned before the landmark: a bundle those versions exported still verifies.
    expect(digest(withoutMainLandmark(html))).toBe('3b11e16fde682443393ad00da55fe3629a08b3a087c79eee98070115bd1be9e3');
  });
});

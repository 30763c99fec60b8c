/**
 * The exported-report kind's examples (docs/report-kind.md): reports written with the
 * engine's one report builder (app/core/report.ts) at a fixed time, about the foundation's
 * `unknown/not-an-artifact.json`. Each shows one check: a well-formed report read without
 * its artifact, one whose verdict word was edited, one missing a required member, and one
 * checked against an artifact that is not its own.
 */
import { hashBytes } from '../../core/hash.js';
import { buildReport } from '../../core/report.js';
import type { Report } from '../../../shared/report.js';
import type { ExampleFile, ExampleWriter } from '../types.js';

const AT = Date.parse('2026-11-02T09:30:00Z');
const text = (r: unknown) => JSON.stringify(r, null, 2) + '\n';

/** A passing ACGP EVAL report, as `verify --json` writes it (hand-made: its artifact is not in the examples). */
function passing(): Report {
  return buildReport(
    {
      path: 'acgp/seed-eval.json',
      kind: 'acgp-eval',
      sha256: hashBytes(Buffer.from('an EVAL these examples do not hold\n')),
      id: 'eval-example',
      findings: [{ rule: 'RPR-ACGP-000', severity: 'info', message: 'every recomputed value agrees' }],
      chain: [],
    },
    AT,
    () => AT + 12,
  );
}

export const reportsWriter: ExampleWriter = {
  name: 'reports',
  build(): ExampleFile[] {
    const ok = passing();
    const edited = { ...ok, verdict: 'pass', findings: [{ ...ok.findings[0]!, severity: 'fail' }] };
    const { chain: _chain, ...noChain } = ok;
    return [
      {
        path: 'reports/well-formed.report.json',
        bytes: text(ok),
        note: 'an exported report read without its artifact: well-formed, but checked against nothing, so undecided (RPR-RPT-003)',
        expect: { verdict: 'unavailable', rule: 'RPR-RPT-003', command: 'verify' },
      },
      {
        path: 'reports/verdict-edited.report.json',
        bytes: text(edited),
        note: 'an exported report whose verdict says PASS over a failing finding',
        expect: { verdict: 'fail', rule: 'RPR-RPT-002', command: 'verify' },
      },
      {
        path: 'reports/no-chain.report.json',
        bytes: text(noChain),
        note: 'an exported report without its required chain member',
        expect: { verdict: 'fail', rule: 'RPR-RPT-001', command: 'verify' },
      },
      {
        path: 'reports/other-artifact.report.json',
        bytes: text(ok),
        note: 'an exported report checked against an artifact that is not its own (its SHA-256 differs)',
        expect: { verdict: 'fail', rule: 'RPR-RPT-004', command: 'verify' },
        options: { artifact: 'unknown/not-an-artifact.json' },
      },
    ];
  },
};

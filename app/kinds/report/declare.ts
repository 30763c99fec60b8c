/**
 * Kind `reprise-report`: a report Reprise exported (`reprise.report/v1`, `verify --json`,
 * the workbench's "Export JSON"), checked as an artifact of its own (docs/report-kind.md).
 * Detected by its `schema` member. Its verify (index.ts) loads when a job of the kind runs.
 */
import type { KindHandler, KindOption } from '../types.js';
import type { Sniffed } from '../sniff.js';
import { REPORT_SCHEMA } from '../../../shared/report.js';
import { REPORT_RULES } from './rule-ids.js';

const REPORT_OPTIONS = [
  {
    name: 'artifact',
    flag: 'artifact',
    arg: 'FILE|DIR',
    path: 'file-or-directory',
    workbench: true,
    help: "the artifact an exported report (reprise.report/v1) is about (a directory for a journal's report): its SHA-256 must be the report's, and verifying it again must give the same report",
    // The report checked for its form only (verify.ts).
    decides: ['RPR-RPT-003'],
  },
] as const satisfies readonly KindOption[];

export const reportKind: KindHandler<typeof REPORT_OPTIONS> = {
  kind: 'reprise-report',
  rules: { doc: 'docs/rules/report.md', ids: REPORT_RULES },
  options: REPORT_OPTIONS,
  // Checked against its artifact, it verifies that artifact with the options it was given.
  forwardsOptions: true,
  consistencyOnly:
    'an exported report carries no signature; Reprise checks its form and, with --artifact, that the artifact gives it again.',
  examples: async () => (await import('./examples.js')).reportsWriter,
  detect: (s: Sniffed) => s.jsonObject()?.['schema'] === REPORT_SCHEMA,
  load: async () => (await import('./index.js')).reportCode,
};

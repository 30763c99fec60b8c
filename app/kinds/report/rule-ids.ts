/**
 * The rule ids the exported-report kind's reports carry, one line each. docs/rules/report.md says each in
 * full (severity and meaning); test/kinds/rules.test.ts holds the two to the same ids.
 */
import type { RuleDeclarations } from '../../core/findings.js';

export const REPORT_RULES = {
  'RPR-RPT-000': 'summary',
  'RPR-RPT-001': 'not strict JSON, or not a reprise.report/v1 report as docs/report.schema.json says',
  'RPR-RPT-002': "the report's verdict is not the one its findings make",
  'RPR-RPT-003': 'no --artifact given: the report was checked against no artifact',
  'RPR-RPT-004': "the artifact given is not the report's: its SHA-256 differs, or the report names none",
  'RPR-RPT-005': 'verifying the artifact again gives another report',
  'RPR-RPT-006': "the report's own verdict is FAIL or UNAVAILABLE (this report's verdict is never PASS over it)",
} as const satisfies RuleDeclarations;

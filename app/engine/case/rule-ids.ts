/**
 * The rule ids of a reviewer's case report (its own findings, CaseReport.findings), one line
 * each. docs/rules/case.md says each in full; test/kinds/rules.test.ts holds the two to the
 * same ids.
 */
import type { RuleDeclarations } from '../../core/findings.js';

export const CASE_RULES = {
  'RPR-CASE-001': 'an artifact names another by content (a hash, a subject, a claim) that the case does not hold',
  'RPR-CASE-002': 'an artifact of the case could not be verified at all (unreadable, or an internal error)',
  'RPR-CASE-003': 'what an artifact offers the case (its links and timeline) could not be read',
  'RPR-CASE-004':
    'the timeline lacks times an artifact carries (not RFC 3339 UTC, or left out by a limit of its report)',
  'RPR-CASE-005': 'a reference names what more artifacts hold than --limit case-links-per-reference links to',
} as const satisfies RuleDeclarations;

export type CaseRule = keyof typeof CASE_RULES;

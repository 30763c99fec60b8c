/**
 * The rule ids the acgp kinds' reports carry, one line each. docs/rules/acgp.md says each in
 * full (severity and meaning); test/kinds/rules.test.ts holds the two to the same ids.
 */
import type { RuleDeclarations } from '../../core/findings.js';

export const ACGP_RULES = {
  'RPR-ACGP-001': 'the document, or a line of a JSON Lines trace, is not I-JSON',
  'RPR-ACGP-002': 'an EVAL member is missing or has the wrong type or value',
  'RPR-ACGP-003': 'a ctq dimension is malformed',
  'RPR-ACGP-004': 'the weights of the evaluated dimensions do not sum to exactly 1',
  'RPR-ACGP-005': 'ctq_score is not Σ score × weight',
  'RPR-ACGP-006': 'risk_score is not 1 − ctq_score',
  'RPR-ACGP-007': 'the recorded intervention is below the one the effective risk thresholds',
  'RPR-ACGP-008': 'halt is recorded although no tripwire was triggered',
  'RPR-ACGP-009': 'timestamp is present but not RFC 3339 UTC with Z',
  'RPR-ACGP-010': 'trust_debt.post is not exactly pre + delta',
  'RPR-ACGP-011': 'trust_debt_extended.provider is malformed',
  'RPR-ACGP-012': 'the attestation is malformed',
  'RPR-ACGP-013': 'the provider is private',
  'RPR-ACGP-014': 'the provider is neither acgp.core.default@1 nor declared private: its debt is not recomputed',
  'RPR-ACGP-015': "verify did not replay the default provider's trust debt",
  'RPR-ACGP-016': 'no dimension has status "evaluated"',
  'RPR-ACGP-017': 'a number whose double is not its text (an integer beyond 2^53, an underflow to 0)',
  'RPR-ACGP-018': "a triggered tripwire's action is given by neither the EVAL nor the policy",
  'RPR-ACGP-020': 'replay',
  'RPR-ACGP-021': 'replay',
  'RPR-ACGP-022': 'replay',
  'RPR-ACGP-023': 'replay',
  'RPR-ACGP-024': 'replay',
  'RPR-ACGP-025': 'replay',
  'RPR-ACGP-026': 'replay',
  'RPR-ACGP-030': "an EVAL's timestamp is earlier than the previous EVAL's",
  'RPR-ACGP-031': 'an EVAL of a trace has another trace_id than the first',
  'RPR-ACGP-032': 'an element of a trace is not a JSON object',
  'RPR-ACGP-034': 'more findings than the limit acgp-findings',
  'RPR-ACGP-035': 'comparison rows beyond acgp-comparisons',
  'RPR-ACGP-041': 'the --policy file is not a reprise.acgp-policy/v1 document',
  'RPR-ACGP-042': "an EVAL's blueprint is not in the policy: the baseline's thresholds and parameters were used",
  'RPR-ACGP-043': "an EVAL's governance_tier is not one the policy defines: no tier's thresholds were applied",
} as const satisfies RuleDeclarations;

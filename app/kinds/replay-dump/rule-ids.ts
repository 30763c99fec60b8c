/**
 * The rule ids the replay-dump kind's reports carry, one line each. docs/rules/replay-dump.md says each in
 * full (severity and meaning); test/kinds/rules.test.ts holds the two to the same ids.
 */
import type { RuleDeclarations } from '../../core/findings.js';

export const DUMP_RULES = {
  'RDS-001': 'a mandatory member',
  'RDS-002': 'a hash reference',
  'RDS-003':
    'createdAtUtc, lockedProviderInfo.capturedAtUtc or trustDecision.evaluatedAtUtc is not RFC 3339 UTC with Z',
  'RDS-004': 'members are not in canonical',
  'RDS-005': "the run's non-determinism is not fully frozen",
  'RDS-006': 'the semantic snapshot is incomplete',
  'RDS-007': 'signing key revoked',
  'RDS-LOCK-001': 'lockedProviderInfo is missing, null, or not an object',
  'RDS-LOCK-002': 'lockedProviderInfo lacks providerId, modelId, quantizationProfile or capacitySnapshot',
  'RDS-LOCK-003': 'replay',
  'RDS-F001': 'hash-chain mismatch',
  'RDS-F002': 'loading denied',
  'RDS-F003': 'kernel major version outside the supported range',
  'RDS-F004': 'replay',
  'RDS-F005': 'executionOutcomeHash ≠ H({expressionHash, inputHash})',
  'RPR-DUMP-001': 'unknown member / front-matter key / bullet / heading',
  'RPR-DUMP-002': 'a member has the wrong type or range',
  'RPR-DUMP-003': 'not I-JSON',
  'RPR-DUMP-004': 'a hash string or key id is malformed',
  'RPR-DUMP-005': 'ROM syntax',
  'RPR-DUMP-006': 'type is not kernel.replay_dump or formatVersion is not 1',
  'RPR-DUMP-007': 'kernelVersion is not a semantic version',
  'RPR-DUMP-008': 'pipelineDefinitionHash names a text artifact',
  'RPR-DUMP-009':
    'materialSnapshotHashSet not sorted ascending / has duplicates, or buffers.material lists a hash twice',
  'RPR-DUMP-010': 'an artifact is referenced by no member of the dump',
  'RPR-DUMP-011': 'what-if replay',
  'RPR-PROV-001': 'openai-compatible',
  'RPR-PROV-002': 'openai-compatible',
  'RPR-PROV-003': 'openai-compatible',
  'RPR-PROV-004': 'openai-compatible',
  'RPR-PROV-005': 'openai-compatible',
} as const satisfies RuleDeclarations;

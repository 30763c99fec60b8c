/**
 * The rule ids the rejudgement kind's reports carry, one line each. docs/rules/rejudge.md says each in
 * full (severity and meaning); test/kinds/rules.test.ts holds the two to the same ids.
 */
import type { RuleDeclarations } from '../core/findings.js';

export const REJUDGEMENT_RULES = {
  'RPR-REJUDGE-000': 'summary',
  'RPR-REJUDGE-001': 'not a reprise.rejudgement/v1 record',
  'RPR-REJUDGE-002': "the Ed25519 signature does not verify under the signer's key in the trust store",
  'RPR-REJUDGE-003': 'unavailable',
  'RPR-REJUDGE-004': "the record's own arithmetic",
  'RPR-REJUDGE-010': 'a shard file cannot be read or is not one',
  'RPR-REJUDGE-011': 'shard files of different runs',
  'RPR-REJUDGE-012': 'a shard of N is missing',
  'RPR-REJUDGE-013': "a record outside its shard's range, out of record order",
  'RPR-REJUDGE-014': 'the records do not cover the list exactly once',
  'RPR-REJUDGE-015': 'the shard files make another record than this one',
} as const satisfies RuleDeclarations;

/**
 * The rule ids every kind's (the engine's and the canonical JSON parser's) reports carry, one line each. docs/rules/core.md says each in
 * full (severity and meaning); test/kinds/rules.test.ts holds the two to the same ids.
 */
import type { RuleDeclarations } from './findings.js';

export const CORE_RULES = {
  'RPR-KIND-001': 'the content is not an artifact kind Reprise knows',
  'RPR-REPLAY-001': 'replay was asked of a kind that has nothing to re-execute',
  'RPR-REPLAY-002': 'a replayed case verified an artifact whose kind has nothing to re-execute',
  'RPR-REPORT-001': 'a rule had more than 100 findings',
  ERR_SYNTAX: 'the text is not JSON',
  ERR_UTF8: 'the bytes are not valid UTF-8',
  ERR_BOM: 'a byte-order mark precedes the JSON text',
  ERR_DUPLICATE_KEY: 'a member name occurs twice in one object, compared after unescaping',
  ERR_LONE_SURROGATE: 'a string or member name holds an unpaired UTF-16 surrogate',
  ERR_NONFINITE: 'a number is not a finite double',
  ERR_DEPTH: 'arrays and objects nested deeper than 512',
  ERR_LIMIT: 'text beyond a bound checked before it is parsed',
  WARN_PRECISION: 'a number beyond 2^53 whose double value differs from its text',
  WARN_UNDERFLOW: 'a non-zero number whose nearest double is 0',
} as const satisfies RuleDeclarations;

/**
 * The rule ids the evidence-bundle kind's reports carry, one line each. docs/rules/evidence-bundle.md says each in
 * full (severity and meaning); test/kinds/rules.test.ts holds the two to the same ids.
 */
import type { RuleDeclarations } from '../../core/findings.js';

export const EVIDENCE_BUNDLE_RULES = {
  'RPR-EVB-000': 'summary',
  'RPR-EVB-001':
    'the manifest reprise-evidence-bundle.json is missing, not the first member, not canonical JSON, or not a…',
  'RPR-EVB-002': 'the manifest and the archive disagree on the members',
  'RPR-EVB-003': "a member's SHA-256 or size differs from the manifest's",
  'RPR-EVB-004':
    'report.json is not a reprise.report/v1 report without run, is about another artifact than the manifest…',
  'RPR-EVB-005':
    'checkpoint.json is malformed, differs from the checkpoint the manifest names, is signed by a key absent…',
  'RPR-EVB-006':
    "a judgement's inclusion proof is malformed, is of another entry than its member name says, is not against…",
  'RPR-EVB-007':
    "a judgement entry's signature does not verify, or its author is absent from or revoked in the trust store",
  'RPR-EVB-008': "a judgement's author is in the trust store with a role that may not sign judgements",
  'RPR-EVB-009': "a judgement names another report digest than the bundled report's",
  'RPR-EVB-010': "a judgement's subject is another artifact than the bundle's",
  'RPR-EVB-011': 'no trust store given',
  'RPR-EVB-012': 'a judgement entry is not a well-formed judgement',
  'RPR-EVB-013': 'the attestation does not verify',
  'RPR-EVB-014': "report.html is missing or is not the page this bundle's report, proofs and checkpoint make",
  'RPR-EVB-015': "no judgement in the bundle names the report's digest",
  'RPR-EVB-017':
    "a case bundle's case.json is not a reprise.case/v1 report, or disagrees with itself, the manifest, the reports it bundles or…",
  'RPR-EVB-016': "the bundled report's verdict is FAIL or UNAVAILABLE (the bundle's verdict is never PASS over it)",
  'RPR-EVB-018': "a case bundle's case.json lists a judgement that no proof in the bundle carries",
  'RPR-EVB-019': 'a signed reject is in force on what the bundle carries',
  'RPR-EVB-020':
    'the bundle leaves out what the case or the journal holds on it: an artifact it could not verify, a journal entry…',
} as const satisfies RuleDeclarations;

/** The kind's rules by what they check, as the verifier names them. */
export const R = {
  manifest: 'RPR-EVB-001',
  members: 'RPR-EVB-002',
  digest: 'RPR-EVB-003',
  report: 'RPR-EVB-004',
  checkpoint: 'RPR-EVB-005',
  proof: 'RPR-EVB-006',
  signature: 'RPR-EVB-007',
  role: 'RPR-EVB-008',
  reportDigest: 'RPR-EVB-009',
  artifact: 'RPR-EVB-010',
  trust: 'RPR-EVB-011',
  judgement: 'RPR-EVB-012',
  attestation: 'RPR-EVB-013',
  html: 'RPR-EVB-014',
  unbound: 'RPR-EVB-015',
  carried: 'RPR-EVB-016',
  case: 'RPR-EVB-017',
  unproven: 'RPR-EVB-018',
  leftOut: 'RPR-EVB-020',
} as const satisfies Record<string, keyof typeof EVIDENCE_BUNDLE_RULES>;

/**
 * The rule ids the tg kinds' reports carry, one line each. docs/rules/tg.md says each in
 * full (severity and meaning); test/kinds/rules.test.ts holds the two to the same ids.
 */
import type { RuleDeclarations } from '../../core/findings.js';

export const TG_RULES = {
  'RPR-TG-001': 'the manifest, bundle or --policy file is not strict I-JSON',
  'RPR-TG-002': 'closed format broken',
  'RPR-TG-003': "the bundle's weights do not sum to exactly 1",
  'RPR-TG-004':
    "the bundle's exit thresholds do not strictly decrease ACCEPT > ACCEPT_WITH_CONDITIONS > HUMAN_REVIEW >…",
  'RPR-TG-005': 'createdAtUtc is not an RFC 3339 UTC timestamp',
  'RPR-TG-006': "a bundle modifier's factor is outside [0, 1]",
  'RPR-TG-010': 'an artifact does not hash to its key',
  'RPR-TG-011': 'the policy bundle named by hash is neither embedded nor given with --policy',
  'RPR-TG-012': 'policy resolution refused',
  'RPR-TG-013': 'a TG-SCORE-TRUST execution precedes TG-POLICY-RESOLUTION in executions',
  'RPR-TG-014':
    "an execution's mode is not the one its engine's replay profile declares, the output is undeclared, or the spec fixes it EXACT",
  'RPR-TG-015': 'a BANDED record is missing a pin',
  'RPR-TG-016': 'the ε recorded in a BANDED record differs from the governed ε of the bundle',
  'RPR-TG-017': 'the bundle governs no ε for a BANDED output',
  'RPR-TG-018': 'lineage does not resolve',
  'RPR-TG-019': 'an execution id appears twice',
  'RPR-TG-020': 'a RECORDED output has no artifactHash or no creation-time anchor',
  'RPR-TG-021': 'a RECORDED anchor does not verify',
  'RPR-TG-022': "the anchor postdates the manifest's creation",
  'RPR-TG-023': 'an anchor cannot be proven here',
  'RPR-TG-024': 'the manifest records no output of the claim to replay',
  'RPR-TG-025': 'the bundle governs an ε for an output recorded EXACT: the ε has no effect on it',
  'RPR-TG-030': 'an EXACT output diverges from its recomputation',
  'RPR-TG-031':
    "a BANDED output drifted beyond the governed ε, in exact decimal arithmetic on each number's shortest text",
  'RPR-TG-032': 'the recorded TRUST-SCORE is not the exact aggregation of its recorded vector',
  'RPR-TG-033': 'an output cannot be recomputed from its inputs',
  'RPR-TG-038': 'a rule evaluation',
  'RPR-TG-034': 'the pinned provider or model version is not offered here, or the provider gave no confidence',
  'RPR-TG-035': "TRUST-SCORE's mode is not BANDED exactly when a BANDED A is among its inputs",
  'RPR-TG-036': 'Reprise has no recomputation for this engine/output pair',
  'RPR-TG-037': '--what-if model=…/shape=…',
  'RPR-TG-039': 'a TG kernel output (POLICY-CONTEXT, TRUST-VECTOR, A, TRUST-SCORE…) is recorded under another engine',
  'RPR-TG-040': 'something must be anchored',
  'RPR-TG-041': 'decision-material drift routes to human review, but nothing was anchored',
  'RPR-TG-042': 'the claim was routed to human review',
  'RPR-TG-043':
    "a BANDED output is within ε only by the manifest's own embedded bundle, whose origin is not established",
  'RPR-TG-050': 'drift: a journal does not verify or cannot be read; none of its entries is counted',
  'RPR-TG-051': 'drift: a journal cannot be counted without --trust-store to check its signatures',
  'RPR-TG-052': 'drift: a replay-comparison entry out of bounds or not what a replay records is not counted',
  'RPR-TG-053': 'drift: a replay-comparison entry signed by a key of a role that does not govern drift is not counted',
  'RPR-TG-054': 'drift: a manifest whose replay failed for anything but drift counts no observation',
  'RPR-ATTEST-001': 'the envelope file is not strict JSON, or not exactly its canonical JSON plus one newline',
  'RPR-ATTEST-002': 'not a DSSE envelope',
  'RPR-ATTEST-003': 'the Ed25519 signature does not verify over PAE(payloadType, payload)',
  'RPR-ATTEST-004': 'no trust store, or the signing key is not in it',
  'RPR-ATTEST-005': 'the signing key is revoked, or is not a reviewer key',
  'RPR-ATTEST-006':
    "the payload is not a canonical in-toto Statement v1 with Reprise's predicate type, subject and predicate",
  'RPR-ATTEST-007':
    'the predicate does not disclose the mode composition, or omits the tolerance-policy reference while a…',
  'RPR-ATTEST-008': 'a RECORDED output without an anchor is presented as replayable',
  'RPR-ATTEST-009': '--manifest given',
  'RPR-ATTEST-010': 'the replay the statement attests has the verdict FAIL or UNAVAILABLE',
  'RPR-ATTEST-011':
    "the predicate contradicts its own comparison: comparison.hash is not H(comparison) of its rows, or the verdict is milder than a row's status",
  'DL-104': 'reprise lint',
} as const satisfies RuleDeclarations;

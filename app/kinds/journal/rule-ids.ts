/**
 * The rule ids the journal kind's reports carry, one line each. docs/rules/journal.md says each in
 * full (severity and meaning); test/kinds/rules.test.ts holds the two to the same ids.
 */
import type { RuleDeclarations } from '../../core/findings.js';

export const JOURNAL_RULES = {
  'RPR-JOURNAL-000': 'summary',
  'RPR-JOURNAL-001': 'entries.jsonl or checkpoints.jsonl is missing',
  'RPR-JOURNAL-002': 'a line is empty, not UTF-8, or not I-JSON',
  'RPR-JOURNAL-003': 'a line is not in RFC 8785 canonical form',
  'RPR-JOURNAL-004': "an entry's members or types are wrong",
  'RPR-JOURNAL-005': "seq is not the line's position",
  'RPR-JOURNAL-006': "prev is not the previous entry's hash",
  'RPR-JOURNAL-007': 'a signature',
  'RPR-JOURNAL-008': 'an entry author or checkpoint signer is not in the trust store',
  'RPR-JOURNAL-009': 'an entry author or checkpoint signer is revoked',
  'RPR-JOURNAL-010': 'signed by a retired key',
  'RPR-JOURNAL-011': 'no trust store given',
  'RPR-JOURNAL-012': "an entry's recordedAtUtc is earlier than the entry above it",
  'RPR-JOURNAL-013': 'torn tail',
  'RPR-JOURNAL-014': "a checkpoint's members or types are wrong",
  'RPR-JOURNAL-015':
    "a checkpoint's rootHash differs from the RFC 9162 root recomputed over the first treeSize entry lines",
  'RPR-JOURNAL-016': 'a checkpoint covers more entries than the journal holds',
  'RPR-JOURNAL-017': 'checkpoints are inconsistent',
  'RPR-JOURNAL-018': 'the journal does not extend a checkpoint held elsewhere',
  'RPR-JOURNAL-019': "a checkpoint's timestampUtc is earlier than the checkpoint above it",
  'RPR-JOURNAL-020': 'the last entry has no checkpoint',
  'RPR-JOURNAL-021': 'more than one entry is covered by no checkpoint',
  'RPR-JOURNAL-022':
    'an entry is dated after the checkpoint that first covers it, or after the time of the verification',
  'RPR-JOURNAL-030': 'an inclusion proof document is malformed',
  'RPR-JOURNAL-031': "the proof's entry is not a canonical, well-formed entry line, or entryHash is not its hash",
  'RPR-JOURNAL-032': "the proof's entry seq differs from its leafIndex",
  'RPR-JOURNAL-033': "the audit path does not lead from the entry to the checkpoint's root",
  'RPR-JOURNAL-034': "the proof's checkpoint is for another tree size than the proof",
  'RPR-JOURNAL-035': "the proof's signed note is not a C2SP checkpoint note for the proof's checkpoint, or",
  'RPR-JOURNAL-036': 'a consistency proof',
  'RPR-JOURNAL-040': 'a line of notes.jsonl is not a JSON string holding a C2SP checkpoint note of this journal',
  'RPR-JOURNAL-041':
    "a note's tree size is beyond the journal or smaller than the note above it, or its root differs from the…",
  'RPR-JOURNAL-042': "a note is not signed by a key the trust store knows under the journal's origin",
  'RPR-JOURNAL-043': 'the newest checkpoint has no signed note',
  'RPR-JOURNAL-044': 'journal verify --witness-policy',
  'RPR-JOURNAL-045': "a note's edit (body.supersedes) is one the writer refuses",
  'RPR-JOURNAL-046': 'a checkpoint or note repeats the tree size of the one above it',
  'RPR-JOURNAL-047':
    'state.json, sealed by a trusted key, records a larger tree or another root than the journal holds',
  'RPR-QUAR-001': 'a transition names a case that no earlier quarantine-open entry opened',
  'RPR-QUAR-002': "a transition is not allowed from the case's state",
  'RPR-QUAR-003': "the transition's key lacks the role",
  'RPR-QUAR-004': 'the rationale is missing, blank or below the minimum content',
  'RPR-QUAR-005': "a quarantine entry's body is malformed",
  'RPR-QUAR-006': 'the transition is signed by a retired or revoked key',
  'RPR-QUAR-007': "the transition's subject differs from its case's subject",
  'RPR-QUAR-008': 'a claim id is not NFC, or has whitespace at an end or a control character',
} as const satisfies RuleDeclarations;

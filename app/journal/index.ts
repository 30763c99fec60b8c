/**
 * The evidence journal's programmatic API (journal.md; docs/journal.md).
 *
 * Writing (durable on return: entry fsync'd, then its signed checkpoint fsync'd; single writer by lock):
 *   appendEntry(dir, {kind, subject: {claimRef, artifact?}, body}, signer, opts?) → {seq, entryHash, entry, checkpoint}
 *     (with opts.trustStore, a signer the store does not list or has revoked is refused: signerProblem;
 *      a quarantine-* entry is held to the workflow's rules, as openCase and decideCase are: case-append.ts)
 *   JournalWriter.open(dir, opts) → writer.append(...) many times → writer.close()   (one lock for a batch)
 *   repairJournal(dir, signer) → truncates a torn tail and journals the repair (null when nothing is torn)
 *   breakStaleLock(dir) → removes a lock whose holder provably died (refuses a live one)
 *
 * Reading and verifying (no lock needed; never modifies anything):
 *   verifyJournal(dir, trustStore | null) → {findings, entries, checkpoints, latestCheckpoint, root, cases, torn, ...}
 *   inclusionProof(dir, seq) → self-contained RFC 9162 proof; checkInclusionProof(doc, trustStore) → {findings}
 *
 * Quarantine (each transition is an entry; state is a pure function of the journal):
 *   openCase(dir, {claimRef, artifact?, reason, source, details?}, signer) → {caseId, case, seq, entryHash, checkpoint}
 *   releaseCase / upholdCase / escalateCase(dir, caseRef, rationale, signer, trustStore) → same
 *   listCases(dir, trustStore) → {cases, verification};  caseStates(entries, trustStore) is the pure fold.
 *
 * Errors meant for users are JournalError (code LOCKED, STALE_LOCK, TORN, DAMAGED, REFUSED, ...).
 */

export { JournalError } from './errors.js';
export * from './format.js';
export { journalFilesToShow, type ShownJournalFile } from './read.js';
export {
  MerkleTree,
  leafHash,
  nodeHash,
  merkleRoot,
  verifyInclusion,
  verifyConsistency,
  EMPTY_ROOT,
} from './merkle.js';
export { acquireLock, breakStaleLock, readLock, isStale, type LockInfo } from './lock.js';
export {
  verifyJournal,
  verifyFiles,
  checkHeldCheckpoint,
  entryPointer,
  checkpointPointer,
  type JournalVerification,
  type ParsedEntry,
  type ParsedCheckpoint,
} from './verify.js';
export {
  JournalWriter,
  appendEntry,
  repairJournal,
  MAX_KEPT_TORN_BYTES,
  signerProblem,
  type SignerRule,
  type AppendInput,
  type AppendResult,
  type WriterOptions,
  type RepairResult,
} from './writer.js';
export {
  inclusionProof,
  proofFromVerification,
  checkInclusionProof,
  PROOF_TYPE,
  type InclusionProof,
  type ProofCheck,
} from './proofs.js';
export * from './cases.js';
export {
  openCase,
  decideCase,
  releaseCase,
  upholdCase,
  escalateCase,
  listCases,
  type OpenCaseInput,
  type CaseWriteResult,
} from './quarantine.js';

export * from './note.js';
export * from './witness-policy.js';
export {
  JUDGEMENT_TYPE,
  JUDGEMENT_DECISIONS,
  JUDGEMENT_ROLES,
  reportDigest,
  judgementPointerProblem,
  judgementBodyProblem,
  judgementSignerProblem,
  recordJudgement,
  judgementsIn,
  listJudgements,
  proofState,
  type JudgementDecision,
  type JudgementInput,
  type JudgementReceipt,
  type JudgementRecord,
  type ProofState,
} from './judgement.js';
export {
  recordNote,
  listNotes,
  notesIn,
  appendJudgementBody,
  type JudgementBodyInput,
  type NoteInput,
  type NoteReceipt,
  type NoteRecord,
} from './notes.js';

/**
 * The reviewer's case (`reprise.case/v1`): every artifact of a folder verified together,
 * the links their contents make between them, and one timeline of every timestamp they
 * carry. Written by the engine (app/engine/case/), read by the CLI, the workbench and any
 * outside tool (its JSON Schema is docs/case.schema.json).
 *
 * Everything in a CaseReport is deterministic: the same folder gives the same bytes
 * whatever the worker count and the order verdicts landed in (lists are sorted as each
 * type says). Paths are relative to the case folder, with `/` separators.
 *
 * Not to be confused with a quarantine case (CaseView in api.ts): a claim held in a journal.
 */
import type { Finding, Verdict } from './report.js';

export const CASE_SCHEMA = 'reprise.case/v1' as const;

/** One artifact of the case and its verdict. Sorted by `path`. */
export interface CaseArtifact {
  /** Relative to the case folder (`/` separators); a journal is its directory. */
  path: string;
  /** The kind the engine detected from the content (never from the name). */
  kind: string;
  /**
   * `sha256:<hex>` of the file's bytes; for a journal directory, of its entries file. Null
   * only for a directory whose files could not be read after its verification (a case
   * finding, RPR-CASE-003, says why): no hash stands in for bytes that were not read.
   */
  sha256: string | null;
  verdict: Verdict;
  /** The artifact's own id when its format has one (the report's artifact.id). */
  id: string | null;
  /** The digest of its report without `run` (reportDigest, as the journal anchors it). */
  reportDigest: string;
  /** How many findings of each severity its report holds. */
  counts: { fail: number; unavailable: number; warning: number; info: number };
  /**
   * The options the case ran without that would decide some of its `unavailable` findings
   * (a dump's RDS-007 without a trust store, a package's KERNEL_MISMATCH without a kernel
   * adapter), as its kind declares them (app/kinds/types.ts KindOption.decides), sorted by
   * flag. Absent when there is none, and in case reports of versions before it was written.
   */
  needs?: CaseNeed[];
}

/** An option that would decide findings of an artifact (CaseArtifact.needs). */
export interface CaseNeed {
  /** The EngineOptions member, what the workbench sends (`trustStore`). */
  option: string;
  /** The CLI flag, without its dashes (`trust-store`). */
  flag: string;
  /** The rules of the artifact's unavailable findings it would decide, sorted, each once. */
  rules: string[];
}

/**
 * A link found by content: a field of one artifact that names another (by hash, subject,
 * claim reference). Never by file name. Sorted by from.artifact, from.pointer, relation,
 * to.artifact.
 */
export interface CaseLink {
  /** What made the link: which field of which artifact. */
  from: { artifact: string; pointer: string };
  /** The artifact it names, and where in it when the target is a part (a member, an entry); artifact null when missing. */
  to: { artifact: string | null; pointer: string | null };
  /**
   * What kind of reference it is: `artifact-hash` (a TG RECORDED output's artifact_hash),
   * `subject` (a journal entry's subject.artifact), `bundled-report` (an evidence bundle's
   * report), `material` (a dump's material hash matching a package member), `claim` (a
   * claim reference shared by a manifest and journal cases), `model-run` (a TG BANDED
   * execution's pins matching a dump's frozen run), or another a kind declares.
   */
  relation: string;
  /** The value that matched (a `sha256:` hash, a claim reference, `run:` and a run's pins as JSON). */
  value: string;
  /** `missing`: the field names something the case does not hold (also a finding of the case). */
  status: 'found' | 'missing';
}

/**
 * One timestamp the evidence carries. Sorted by atUtc, then artifact, then pointer, so the
 * order never depends on which verdict landed first.
 */
export interface TimelineEvent {
  /** ISO 8601 in UTC as the artifact wrote it, normalised to `YYYY-MM-DDTHH:MM:SS(.fff)Z`. */
  atUtc: string;
  artifact: string;
  kind: string;
  /** The chain node the event belongs to (the chain view opens there), or null. */
  node: string | null;
  /** The field holding the timestamp (RFC 6901 pointer, `line:<n>` or `entry:<path>`). */
  pointer: string;
  /** What happened, in a few words: "dump captured", "judgement: reject", "checkpoint signed". */
  label: string;
  /** The worst severity of the findings at that node or pointer, or `info` when none. */
  severity: 'fail' | 'unavailable' | 'warning' | 'info';
}

/** A judgement (or a reviewer's note) a journal of the case holds on one of its artifacts. */
export interface CaseJudgement {
  /** The journal directory (relative path) and the entry. */
  journal: string;
  seq: number;
  entryHash: string;
  /** The artifact it is about (relative path), or null when the case does not hold it. */
  artifact: string | null;
  /** `sha256:` of the artifact it names. */
  subject: string;
  /** A judgement's decision (accept, reject…) or `note`. */
  decision: string;
  rationale: string;
  author: string;
  atUtc: string;
  /** A note's edit: the entry hash of the note it supersedes (the old text stays listed). */
  supersedes: string | null;
  /**
   * Whether it counts, by the rules `reprise journal notes` applies (app/journal/notes.ts,
   * judgement-rules.ts) under the trust store the case ran with: `counts`; `does-not-count`
   * (`problem` says why: a body that is no judgement, a signer the trust store does not let
   * sign one, such as a quarantine officer's or a revoked key, an edit of no note it may
   * edit); `unchecked`, the case ran without a trust store, so who signed it could not be
   * judged (its body and edit were). Only an edit that counts supersedes anything. Always
   * written; absent only in case reports written before it was (a reader takes it as unchecked).
   */
  standing?: 'counts' | 'does-not-count' | 'unchecked';
  /** Why it does not count (set exactly when `standing` is `does-not-count`), or null. Absent with `standing`. */
  problem?: string | null;
}

/** How a case ran its artifacts: verified, or replayed (what can be re-executed is, the rest verified). */
export type CaseMode = 'verify' | 'replay';

export interface CaseReport {
  schema: typeof CASE_SCHEMA;
  /** How each artifact was run; absent in the case reports of versions before it was written (they verified). */
  mode?: CaseMode;
  /** The worst verdict of the artifacts and the case's own findings. */
  verdict: Verdict;
  artifacts: CaseArtifact[];
  links: CaseLink[];
  timeline: TimelineEvent[];
  judgements: CaseJudgement[];
  /** The case's own findings (RPR-CASE-*): a missing link target, an unreadable file. */
  findings: Finding[];
}

/**
 * The rule of the case's finding on an artifact it could not verify at all (docs/rules/case.md,
 * declared in app/engine/case/rule-ids.ts): such an artifact has no entry in `artifacts`, so
 * this finding, never bounded by a limit, is the one place a reader of the report (a case
 * bundle's verifier among them) learns that it exists; its pointer is `entry:<path>`.
 */
export const CASE_UNVERIFIED_RULE = 'RPR-CASE-002';

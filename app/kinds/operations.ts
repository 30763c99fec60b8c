/**
 * What a kind may offer beyond verify and replay (attesting a replay, listing an archive's
 * members, exporting evidence, drift telemetry): one small interface the engine calls (engine/operations.ts)
 * without knowing which kind answers. A kind names the operations it offers in its
 * declarations (KindDeclarations.operations, with what each applies to in a refusal's
 * words) and implements them in its code (KindCode.operations), loaded when one is asked for.
 */
import type { PackageMembers } from '../../shared/api.js';
import type { CaseJudgement, CaseReport } from '../../shared/case.js';
import type { Finding, JsonValue, Report, Verdict } from '../../shared/report.js';
import type { TrustStore } from '../core/keys.js';
import type { Checkpoint } from '../journal/format.js';
import type { JudgementRecord } from '../journal/judgement.js';
import type { ZipSource } from '../zip/source.js';
import type { Sniffed } from './sniff.js';
import type { KindContext } from './types.js';

/** A read-only replay's outcome as a statement for the reviewer to sign, or the findings that kept it from being replayed. */
export type AttestOutcome =
  | { statement: Record<string, JsonValue>; verdict: Verdict }
  | { statement: null; verdict: Verdict; findings: Finding[] };

/** An evidence bundle made from a journal: its bytes and what it holds. */
export interface JournalBundle {
  bytes: Buffer;
  judgements: JudgementRecord[];
  checkpoint: Checkpoint;
  reportDigest: string;
  /** The journal's entries on it that the bundle does not carry (none when it carries every one), each listed in its manifest. */
  omitted: OmittedEntry[];
  /**
   * The artifacts of a case that could not be verified (RPR-CASE-002), so that no report of
   * theirs is bundled: each listed in the manifest (`leftOut.artifacts`). Empty for a bundle
   * of one artifact.
   */
  artifactsLeftOut: LeftOutArtifact[];
}

/**
 * Why an entry is left out: `no-judgement`, it does not count as one (its body, or its
 * signer under the trust store), so a bundle carrying it would fail its own verification;
 * `unproven`, it is a judgement no checkpoint covers, so no inclusion proof can be built.
 */
export type OmittedStatus = 'no-judgement' | 'unproven';

/** A `review-rationale` entry an export leaves out, and why. */
export interface OmittedEntry {
  seq: number;
  entryHash: string;
  author: string;
  /** Its body's decision as written (`reject`…; empty when it has none). */
  decision: string;
  status: OmittedStatus;
  /** Why: its body or signer (JudgementRecord.problem), or why no proof can be built. */
  problem: string;
  /** The one line that names it (for stderr): seq, entry hash, signer and why. */
  line: string;
}

/** An artifact of a case left out of its bundle: its path in the case, and why it could not be verified. */
export interface LeftOutArtifact {
  path: string;
  reason: string;
}

/** A report as a bundle holds it (without `run`, which is not deterministic). */
export type BundledReport = Omit<Report, 'run'>;

/** One read-only replay of a model version: whether it drifted, and the governed window and limit of its rate. */
export interface DriftObservation {
  model: string;
  drift: boolean;
  driftRate: { window: number; maxRate: number };
  claimRef: string;
}

/** A model version's drift rate over its window, and whether it raises the recalibration flag. */
export interface DriftRate {
  model: string;
  observations: number;
  window: number;
  inWindow: number;
  drifted: number;
  rate: number;
  maxRate: number;
  flag: boolean;
}

/** Where an anchored flag was appended in the journal. */
export interface FlagAnchor {
  seq: number;
  entryHash: string;
}

/** Drift telemetry (`reprise drift`): what drift rates are computed from, the rates, and their flags anchored in a journal. */
export interface DriftOperations {
  /** The observations of the artifact's replay, read-only: nothing is appended to a journal. */
  observe(s: Sniffed, ctx: KindContext): Promise<DriftObservation[]>;
  /** The observations a journal recorded of earlier replays. */
  fromJournal(dir: string, trust: TrustStore | null): Promise<DriftObservation[]>;
  rates(observations: readonly DriftObservation[]): DriftRate[];
  /** Anchors each raised flag in the journal; the entry of each model flagged. */
  anchorFlags(
    journal: string,
    key: string,
    trust: TrustStore | null,
    rates: readonly DriftRate[],
  ): Promise<Record<string, FlagAnchor>>;
}

/**
 * What an artifact offers a reviewer's case (app/engine/case/): the identities it has
 * besides the SHA-256 of its bytes, the references it makes to other artifacts, and the
 * timestamps it carries. The case engine joins references to identities by value, never by
 * file name; a kind never knows which other kind answers one.
 */
export interface CaseFacts {
  /** Values other artifacts may name this one (or a part of it) by: member hashes, report digests, claim references. */
  identities: CaseIdentity[];
  references: CaseReference[];
  events: CaseEventFact[];
  /** The artifact's `sha256:` when its report has none (a directory kind: a journal's is its entries file's). */
  sha256?: string;
  /** Judgements and notes a journal holds (on any subject; the case keeps those on its artifacts). */
  judgements?: CaseJudgementFact[];
  /**
   * Timestamps the artifact carries that `events` does not hold (a limit of its report kept
   * fewer): how many, and why, in words that say how to have them (the limit to raise). The
   * case says so (RPR-CASE-004), so a timeline is never taken for all there is.
   */
  eventsLeftOut?: { count: number; why: string };
}

/**
 * The conditions a model run is pinned by, in the words of a TG BANDED execution's `pins`
 * (docs/case.md, relation `model-run`): `modelId` is the provider (a dump's
 * `lockedProviderInfo.providerId`) and `modelVersion` the model it serves (a dump's
 * `lockedProviderInfo.modelId`), as TG replay's provider port reads them (tg/ports.ts).
 * `maxTokens` is part of the key only when the manifest pins it.
 */
export interface PinnedRun {
  modelId: unknown;
  modelVersion: unknown;
  promptHash: unknown;
  seed: unknown;
  temperature: unknown;
  topP: unknown;
  /** Absent (or not a number): the key without it. */
  maxTokens?: unknown;
}

const text = (v: unknown): v is string => typeof v === 'string' && v !== '';
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The value a run is named by in a case: `run:` and the pins as JSON, members in a fixed
 * order, so a manifest's pins and a dump's frozen conditions give the same text (numbers by
 * ECMAScript's shortest form on both sides), and a reviewer reads what matched. Each kind
 * passes its fields as it read them; null when a condition is missing or not of its type
 * (the verification says so), since a partial key would name runs it does not describe.
 */
export function modelRunKey(r: PinnedRun): string | null {
  const { modelId, modelVersion, promptHash, seed, temperature, topP, maxTokens } = r;
  if (![modelId, modelVersion, promptHash].every(text) || ![seed, temperature, topP].every(finite)) return null;
  const pins = { modelId, modelVersion, promptHash, seed, temperature, topP };
  return 'run:' + JSON.stringify(finite(maxTokens) ? { ...pins, maxTokens } : pins);
}

export interface CaseIdentity {
  /** A `sha256:` hash or a claim reference (`claim:…`). */
  value: string;
  /** Where in the artifact the part so named lies (RFC 6901 pointer, `entry:<path>`), or null for the whole. */
  pointer: string | null;
  /**
   * The artifact holds a copy of content it names for its own checks (a dump's or a
   * manifest's embedded artifacts), not the content's source: a reference links to such a
   * copy only when its own artifact holds no copy of the value, so a hundred dumps embedding
   * the same prompt do not all link to each other.
   */
  copy?: true;
  /** The values it meets references in: content (hashes, run keys) unless set (CaseSpace). */
  space?: CaseSpace;
}

/**
 * A claim reference is free text: a manifest's `claimRef` may read `sha256:…`, and must still
 * meet only a journal's claim references, never an anchor or a subject by the same text. So
 * claim values are matched among themselves, apart from content values.
 */
export type CaseSpace = 'claim';

export interface CaseReference {
  /** The field that names another artifact (RFC 6901 pointer, `line:<n>`, `entry:<path>`). */
  pointer: string;
  /** shared/case.ts CaseLink.relation: artifact-hash, subject, bundled-report, material, claim… */
  relation: string;
  value: string;
  /** Whether a case without the artifact it names is missing evidence (a finding), not merely one that names more. */
  expected: boolean;
  /** The identities it may name: content ones unless set (CaseSpace). */
  space?: CaseSpace;
  /**
   * The option of its kind that takes the named artifact's path (an exported report's
   * `artifact`): when the case holds that artifact, the case runs this one again with the
   * option set to it (engine/case/rechecks.ts), so what it says is decided against the
   * artifact beside it instead of being left undecided.
   */
  option?: string;
  /**
   * The option takes the artifact that declares the value as one of its identities (a journal
   * holding the named entry), not only one whose bytes the value is. Every such reference of
   * the artifact must name the same holder, or the case sets none (one option, one holder).
   */
  optionTakesHolder?: true;
  /** The option is one a replay writes through (a journal it appends to): the case sets it in a verified case only. */
  optionInVerifyOnly?: true;
}

export interface CaseEventFact {
  /**
   * As the artifact wrote it, whatever its type: the case normalises an RFC 3339 UTC time and
   * lists anything else as a time its timeline lacks (RPR-CASE-004), so a kind passes every
   * time its artifact holds and leaves out only an absent (or null) one.
   */
  atUtc: unknown;
  pointer: string;
  label: string;
  /** The chain node of the report it belongs to, or null. */
  node: string | null;
  /**
   * What part of the document the event stands for, in the terms its report's findings
   * point in, when `pointer` says something narrower or in other terms: an ACGP EVAL's event
   * points at its timestamp, or at `line:9` of a JSON Lines trace (where the editor opens),
   * while it stands for the whole EVAL, whose findings point at `/8/trust_debt/post`. The
   * event's severity is that of the findings there.
   */
  within?: string;
}

/**
 * A judgement or note as the journal holds it; the case adds which journal and which of its
 * artifacts. `names` is the report digest its body names, if any: of the artifacts holding
 * its subject, the case names the one whose report that is (the case report does not carry it).
 */
export type CaseJudgementFact = Omit<CaseJudgement, 'journal' | 'artifact'> & { names?: string };

/** The artifact a kind's caseFacts reads: a file's sniffed bytes, or a directory kind's path. */
export type CaseSubject = { sniffed: Sniffed; dir?: undefined } | { dir: string; sniffed?: undefined };

export interface KindOperations {
  /** Replays the artifact read-only and states the outcome (an in-toto Statement v1) for `reviewer` (a key id) to sign. */
  attest?(s: Sniffed, ctx: KindContext, reviewer: string): Promise<AttestOutcome>;
  /** An archive's members, or one member's bytes; throws MembersError for what the user can fix. */
  members?(archive: Uint8Array | ZipSource, member?: string): Promise<PackageMembers>;
  /** Bundles `report` with every judgement the journal `dir` holds on its artifact. */
  export?(
    dir: string,
    report: Report | BundledReport,
    trust: TrustStore | null,
    attestation: Uint8Array | null,
    /** `--limit` overrides: the bundle must be one its verifier reads under them. */
    limits?: Record<string, number>,
  ): Promise<JournalBundle>;
  /**
   * Opens the bundle of a whole case on the journal `dir`, verified now (refused when it
   * cannot prove judgements), before the case runs; the bundler bundles the case report,
   * each artifact's report (by case path) and every judgement the journal held on them.
   */
  exportCase?(dir: string, trust: TrustStore | null, limits?: Record<string, number>): Promise<CaseBundler>;
  drift?: DriftOperations;
  /** What the artifact offers a case (links and timeline), read after it was verified, with its report. */
  caseFacts?(subject: CaseSubject, report: Report, ctx: KindContext): Promise<CaseFacts>;
}
export type OperationName = keyof KindOperations;

/** KindOperations.exportCase's writer: the case bundle of a case report and its artifacts' reports. */
export type CaseBundler = (
  caseReport: CaseReport,
  reports: ReadonlyMap<string, Report | BundledReport>,
) => JournalBundle;

/** What a kind declares of an operation it offers: what it applies to, in the words of a refusal ("not <what>"). */
export interface OperationOffer {
  readonly what: string;
}

/** What the user can fix in an operation's input (not an archive, a member it lacks): the engine makes it a usage error. */
export class MembersError extends Error {}

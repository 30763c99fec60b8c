/**
 * The typed API between the workbench UI and the engine host. One interface, one method
 * list, one event list: the Electron preload and the loopback WebSocket transport are both
 * generated from API_METHODS and API_EVENTS, so the renderer cannot tell them apart.
 */
import type { CaseArtifact, CaseReport } from './case.js';
import type { DiffResult } from './diff.js';
import type { DiffSideLabel } from './diff-html.js';
import type { Report, Verdict } from './report.js';
import type { JudgementDecision, RationaleRule } from './rationale.js';

export {
  JUDGEMENT_DECISIONS,
  RATIONALE_RULE,
  checkRationale,
  type JudgementDecision,
  type RationaleRule,
} from './rationale.js';

export type CheckMode = 'verify' | 'replay';

export interface EngineInfo {
  version: string;
  /** Every artifact kind the engine knows, in detection order. */
  kinds: string[];
  /** The options a job may name (StartJobRequest.options): paths the kinds read. */
  options: { name: string; help: string }[];
  transport: 'electron' | 'web';
  /**
   * Rules whose findings carry a recomputed value as `expected` against the recorded one as
   * `actual` (the kinds declare them): the window shows those values as recorded / recomputed.
   */
  recomputedRules: string[];
  /** The kinds whose replay takes what-if substitutions (they declare the `whatIf` option). */
  whatIfKinds: string[];
  /**
   * The kinds offering each operation the window shows (app/kinds/operations.ts, declared by
   * the kinds): attesting a replay (the Export view), a package's members (the Chain view).
   */
  offers: { attest: string[]; members: string[] };
  /** True where the host can show native open dialogs (Electron). */
  nativeDialogs: boolean;
}

/**
 * An engine option the workbench may send as a path (a trust store, providers...): the
 * kinds declare them (app/kinds/types.ts, KindOption.workbench) and EngineInfo.options
 * lists them, so shared/ names none; the host refuses any other.
 */
export type ExampleOptionName = string;

export interface ExampleSummary {
  path: string;
  note: string;
  /** The verdict it is made for under its own options: `command`, and `whatIf` substitutions when it is a trainer demonstration. */
  expect?: { verdict: 'pass' | 'fail' | 'unavailable'; rule?: string; command?: CheckMode; whatIf?: string[] };
  /** The engine options the example is opened with (paths relative to the examples). */
  options?: Partial<Record<ExampleOptionName, string>>;
}

/** What a job checks: bytes sent by the window, a built-in example, or a file on disk. */
export type JobSource =
  | { type: 'bytes'; name: string; dataBase64: string }
  | { type: 'example'; path: string }
  | { type: 'path'; path: string }
  /** Bytes sent before in chunks (beginUpload / uploadChunk): large files, no giant messages. */
  | { type: 'upload'; uploadId: string };

export interface StartJobRequest {
  source: JobSource;
  mode: CheckMode;
  /** Trainer mode: what-if substitutions (`model=ref-2`, `shape=...`); always a demonstration. */
  whatIf?: string[];
  /** Engine options as file paths (a trust store, providers...); examples bring their own. */
  options?: Partial<Record<ExampleOptionName, string>>;
  /** A key picked for signing (signingKeys): with options.journal, a replay anchors its drift events and opens their cases. */
  key?: string;
}

export interface JobStarted {
  jobId: string;
}

/**
 * Where a reviewer's case is (shared/case.ts): a folder on the host, under a granted root,
 * or the files the window sent (each added with addCaseUpload to a case folder the host made).
 */
export type CaseSource = { type: 'path'; path: string } | { type: 'uploads'; folderId: string };

export interface StartCaseRequest {
  source: CaseSource;
  mode: CheckMode;
  /** Engine options as file paths (a trust store, providers...), for every artifact of the case. */
  options?: Partial<Record<ExampleOptionName, string>>;
}

export interface CaseStarted {
  caseId: string;
  /**
   * The case folder on the host (absolute): an artifact of the case opens by path as
   * `dir` + its CaseArtifact.path (startJob, source path), the chain view at its node.
   */
  dir: string;
}

/** One file the window sent (beginUpload…) put into a case folder the host makes (folderId absent: a new one). */
export interface AddCaseUploadRequest {
  folderId?: string;
  /** Its path in the case (`/` separators, as the folder picked holds it: a journal is a folder of files). */
  name: string;
  uploadId: string;
}

/**
 * An option sent with a job that its artifact's kind does not read, in the words of its
 * declaration (app/kinds/types.ts KindOption): its name and help.
 */
export interface UnreadOption {
  name: string;
  help: string;
}

/** Events pushed by the host (IPC `webContents.send`, or server-pushed WebSocket messages). */
export type ApiEvent =
  | { type: 'job-progress'; jobId: string; fraction: number; label?: string }
  | {
      type: 'job-done';
      jobId: string;
      report: Report;
      /**
       * The options the window sent (its Open view's fields, an example's own) that the
       * artifact's kind does not read (app/kinds/registry.ts unreadOptions): the verdict was
       * made without them. Said here, not in the report, whose bytes never depend on the host.
       */
      unread?: UnreadOption[];
    }
  | { type: 'job-failed'; jobId: string; message: string; cancelled: boolean }
  /** The shell asks the window to open a file (menu, recent files, second instance). */
  | { type: 'open-path'; path: string; mode: CheckMode }
  /** A case's progress: `done` of `total` artifacts have their verdict; `artifact` is the one that just landed. */
  | { type: 'case-progress'; caseId: string; done: number; total: number; artifact?: CaseArtifact }
  | { type: 'case-done'; caseId: string; report: CaseReport }
  | { type: 'case-failed'; caseId: string; message: string; cancelled: boolean };
export type ApiEventType = ApiEvent['type'];
export const API_EVENTS = [
  'job-progress',
  'job-done',
  'job-failed',
  'open-path',
  'case-progress',
  'case-done',
  'case-failed',
] as const satisfies readonly ApiEventType[];

export interface RecentFile {
  path: string;
  name: string;
  openedAtUtc: string;
}

export interface CaseEventView {
  seq: number;
  entryHash: string;
  decision: string;
  /** The key id that signed the entry. */
  author: string;
  /** As the journal's trust store names the author; null when it does not (or none was given). */
  role: string | null;
  label: string | null;
  atUtc: string;
  text: string;
}

export interface CaseView {
  caseId: string;
  state: 'open' | 'escalated' | 'released' | 'upheld';
  claimRef: string;
  artifact: string | null;
  source: string;
  openedAtUtc: string;
  updatedAtUtc: string;
  /** The evidence recorded when the case was opened (comparison, drift event, exits). */
  evidence: unknown;
  history: CaseEventView[];
  /** Entry hash of the case's opening entry: a decision's signed body names the case by it. */
  openHash?: string;
  /** The decisions the journal allows from this state, each with the roles that may sign it (app/journal TRANSITIONS). */
  decisions?: { decision: CaseDecision; to: CaseView['state']; roles: string[] }[];
  /** The evidence's comparisons with |replayed − original| computed exactly by the host (shared/exact-decimal.ts). */
  deltas?: EvidenceDelta[];
}

/** A comparison in a case's evidence: its numbers as the entry wrote them, and the exact difference. */
export interface EvidenceDelta {
  /** JSON pointer of the comparison in the evidence. */
  pointer: string;
  output: string | null;
  original: string;
  replayed: string;
  /** The delta the entry wrote (its decimal text), or null when it wrote none. */
  written: string | null;
  /** |replayed − original| in exact decimal arithmetic. */
  exact: string;
  /** Whether the written delta is exactly that (a binary float's subtraction is often not: 0.09999999999999998). */
  agrees: boolean;
  /** When it is not: whether it is what the binary float subtraction |replayed − original| gives (the only cause the host can name). */
  floatRounding: boolean;
  epsilon: string | null;
}

export interface JournalStatus {
  dir: string;
  /** pass: every entry, checkpoint and signature verified; fail / unavailable otherwise. */
  verdict: 'pass' | 'fail' | 'unavailable';
  findings: { rule: string; severity: string; message: string; pointer?: string }[];
  entries: number;
  checkpointSize: number | null;
  root: string | null;
  rolesChecked: boolean;
  cases: CaseView[];
}

export interface JournalRequest {
  dir: string;
  trustStore?: string;
}

export type CaseDecision = 'release' | 'uphold' | 'escalate';

export interface DecideCaseRequest extends JournalRequest {
  /** The case's number as shown ("case-N"): words only; the case decided is the one `openHash` names. */
  caseId: string;
  /**
   * The opening entry hash of the case the confirmation showed (CaseView.openHash): the engine
   * decides that case and no other, and refuses when the journal no longer holds it (a journal
   * replaced on disk may hold another case under the same number).
   */
  openHash: string;
  /**
   * The entry hash of the last entry of the case's history the confirmation showed: the
   * engine refuses when the case moved on since (a reviewer's escalation written meanwhile),
   * so nothing is signed over a history the officer did not read.
   */
  shownLast: string;
  decision: CaseDecision;
  rationale: string;
  /** The officer's private key (PKCS#8 PEM file), chosen per case. */
  keyFile: string;
  /** The key id the confirmation showed, read from `keyFile` when it opened: the engine refuses when the file now holds another key. */
  keyId: string;
}

/** Shown only after the signed write returned. */
export interface AnchorReceipt {
  caseId: string;
  state: CaseView['state'];
  seq: number;
  entryHash: string;
  /** The officer key that signed the decision, as the trust store names it. */
  keyId: string;
  role: string | null;
  label: string | null;
  checkpoint: { size: number; root: string; keyId: string | null };
  proofVerified: boolean;
  proofFindings: string[];
}

/** A training journal: fresh open cases, signed by the host's one training officer key, named in its trust store. */
export interface DemoJournal {
  dir: string;
  keyFile: string;
  trustStore: string;
}

/** An artifact's text for the editor: raw, and canonical (RFC 8785) when it is one JSON document. */
/** One side the Compare view asks the engine to diff: where its artifact is, its name, and the engine's report of it. */
export interface CompareSide {
  source: JobSource;
  name: string;
  report: Report;
}

/**
 * Two artifacts' structured diff, made in the engine (app/engine/compare-sides.ts, as
 * `reprise diff` makes it): their reports and content read to the same limit as the CLI's,
 * off the window's thread, so only the differences cross.
 */
export interface CompareResult {
  result: DiffResult;
  left: DiffSideLabel;
  right: DiffSideLabel;
  kind: string;
}

export interface ArtifactContent {
  raw: string | null;
  canonical: string | null;
  /** Why raw or canonical is absent (binary, too large, not JSON...). */
  note: string | null;
  /**
   * A directory artifact's own text files (a journal's entries and checkpoints), each with
   * its text or why it has none. A pointer `line:N` of the directory is a line of the first,
   * `entry:NAME:line:N` a line of the one named (the case's journal events).
   */
  files?: { name: string; raw: string | null; note: string | null }[];
}

export interface PickRequest {
  kind: 'file' | 'directory';
  title: string;
  /**
   * What a picked file is for, which is what it is granted as: a key that signs, or a kernel
   * adapter (which runs as code). Without it the file is one to read (an artifact, a trust
   * store): picking one to open never lets a link name it as a key or an adapter later.
   */
  use?: 'key' | 'adapter';
}

/** Attest a TG manifest's replay (in-toto Statement v1 in a DSSE envelope), signed by the reviewer. */
export interface AttestRequest {
  source: JobSource;
  /** The reviewer's private key (PKCS#8 PEM file) that signs the envelope. */
  keyFile: string;
  /** Engine options as file paths (examples bring their own). */
  options?: Partial<Record<ExampleOptionName, string>>;
}

export interface AttestationExport {
  /** The envelope file's text exactly as `reprise attest` writes it (canonical JSON and a newline). */
  envelope: string;
  /** `sha256:<hex>` of the envelope text's UTF-8 bytes (the saved file's digest). */
  digest: string;
  /** The reviewer key that signed it. */
  keyId: string;
  /** The replay verdict the statement records. */
  verdict: Report['verdict'];
}

/** A journal to record judgements in, with the trust store that names its signers. */
export interface JudgementJournalRequest {
  dir: string;
  trustStore: string;
  /** Create the journal (its directory and empty files) when it does not exist yet. */
  create?: boolean;
}

/** What the reviewer is about to sign: shown in the confirmation before recordJudgement. */
export interface RecordJudgementRequest {
  dir: string;
  trustStore: string;
  /** The reviewer's private key (PKCS#8 PEM file, an absolute path). */
  keyFile: string;
  /** The key id the confirmation showed, read from `keyFile` when it opened: the engine refuses when the file now holds another key. */
  keyId: string;
  /** The report the reviewer read (as a job returned it); its artifact.sha256 is the subject. */
  report: Report;
  /** RFC 6901 into the report: "" the whole report, /findings/N, /comparisons/N or /events/N. */
  pointer: string;
  decision: JudgementDecision;
  rationale: string;
}

/** Shown only after the signed write returned. */
export interface JudgementReceipt {
  seq: number;
  entryHash: string;
  artifact: string;
  reportDigest: string;
  pointer: string;
  decision: JudgementDecision;
  /** The signer as the trust store names it. */
  keyId: string;
  role: string;
  label: string;
  checkpoint: { size: number; root: string; keyId: string };
  proofVerified: boolean;
  proofFindings: string[];
}

/** One judgement recorded on an artifact, with its inclusion proof checked against the latest checkpoint (or why none could be built). */
export interface JudgementView {
  seq: number;
  entryHash: string;
  recordedAtUtc: string;
  decision: string;
  rationale: string;
  pointer: string;
  /** Null for a review rationale recorded on the artifact as a whole (journal record). */
  reportDigest: string | null;
  author: string;
  role: string | null;
  label: string | null;
  /** Why the entry is not a well-formed judgement by a reviewer key, or null. */
  problem: string | null;
  /**
   * False when the journal could not build the entry's inclusion proof (its tree no longer
   * matches its latest checkpoint): still listed, never verified, proofFindings says why.
   */
  proofBuilt: boolean;
  proofVerified: boolean;
  /** Why the proof does not verify (`RULE: message`), or why it could not be built (the engine's message). */
  proofFindings: string[];
  /** A note's edit: the entry hash of the note it supersedes (app/journal/notes.ts). */
  supersedes?: string | null;
}

/** A reviewer's note on an artifact, or an edit of one (supersedes): shown in the confirmation before recordNote. */
export interface RecordNoteRequest {
  dir: string;
  trustStore: string;
  /** The reviewer's private key (PKCS#8 PEM file, an absolute path). */
  keyFile: string;
  /** The key id the confirmation showed (the key file read again as it opened): the engine signs only if the file still holds it. */
  keyId: string;
  /** `sha256:<hex>` of the artifact the note is on. */
  artifact: string;
  text: string;
  /** The entry hash of the note this one edits (its latest version), or null for a new note. */
  supersedes: string | null;
}

/** Shown only after the signed write returned. */
export interface NoteReceipt {
  seq: number;
  entryHash: string;
  /** When the entry was recorded (its recordedAtUtc). */
  atUtc: string;
  artifact: string;
  supersedes: string | null;
  keyId: string;
  role: string;
  label: string;
  checkpoint: { size: number; root: string; keyId: string };
  proofVerified: boolean;
  proofFindings: string[];
}

export interface ListJudgementsRequest {
  dir: string;
  trustStore?: string;
  /** `sha256:<hex>` of the artifact. */
  artifact: string;
  /** The open report: the answer then says which judgements were made on this very report. */
  report?: Report;
}

export interface JudgementList {
  artifact: string;
  /** The digest of the report given (null without one): compare with each judgement's reportDigest. */
  reportDigest: string | null;
  checkpoint: { size: number; root: string } | null;
  judgements: JudgementView[];
  /**
   * The verdict of the journal they were read from, under the listing's trust store (without
   * one, never pass): its judgements are only as good as it, so a reader marks every one of
   * them unproven unless it is `pass`.
   */
  verdict: Verdict;
  /** Its failing and unavailable findings, as `RULE: message`, the first few of them. */
  failures: string[];
  /** How many failing and unavailable findings there are in all. */
  failureCount: number;
}

export interface ExportBundleRequest {
  dir: string;
  trustStore?: string;
  /** The judged report (the one the judgements name). */
  report: Report;
  /** For a TG replay: the attestation envelope text (AttestationExport.envelope). */
  attestation?: string;
}

/** The evidence bundle's bytes, as `reprise export` writes them. */
export interface BundleExport {
  /** A file name to save it under. */
  name: string;
  dataBase64: string;
  sha256: string;
  reportDigest: string;
  judgements: number;
  checkpoint: { size: number; root: string };
  /**
   * The journal's entries on the artifact the bundle leaves out, one line each (seq, entry
   * hash, signer, why): entries that are no judgement, and judgements no checkpoint covers.
   */
  omitted: string[];
  /**
   * How many of those are judgements left out for want of an inclusion proof: the bundle is
   * then incomplete, and `reprise verify` of it says UNAVAILABLE (RPR-EVB-020), exit 2.
   */
  unproven: number;
}

/** A key file this host may sign with (`reprise serve --key`, a key picked in a dialog, the training key). */
export interface SigningKey {
  path: string;
  /** Null when the file does not hold an Ed25519 private key. */
  keyId: string | null;
  /** As the trust store given names the key; null when it does not (or none was given). */
  role: string | null;
  label: string | null;
  status: string | null;
}

/** The rationale rule and the decisions, as the engine enforces them. */
export interface JudgementRules extends RationaleRule {
  decisions: readonly JudgementDecision[];
}

/** What a provider registry offers to replay on (the trainer's pickers and version comparison). */
export interface ProviderOffers {
  /** The registry file, or "(built-in)". */
  source: string;
  providers: { providerId: string; models: string[]; computeShapes: string[] }[];
}

export type UploadChunkRequest =
  | { uploadId: string; data: Uint8Array; dataBase64?: undefined }
  | { uploadId: string; dataBase64: string; data?: undefined };

/**
 * The WebSocket transport's binary frame: a request whose first parameter carries raw
 * `data` travels as [u32 big-endian header length][header: UTF-8 JSON {id, method, params}
 * without that member][the data], so a file's bytes are neither base64- nor JSON-encoded.
 */
export const BINARY_HEADER_BYTES = 4;

export interface RepriseApi {
  engineInfo(): Promise<EngineInfo>;
  listExamples(): Promise<ExampleSummary[]>;
  startJob(req: StartJobRequest): Promise<JobStarted>;
  cancelJob(req: { jobId: string }): Promise<boolean>;
  recentFiles(): Promise<RecentFile[]>;
  /** A native dialog (Electron); null where there is none (the browser: type the path). */
  pickPath(req: PickRequest): Promise<string | null>;
  journalStatus(req: JournalRequest): Promise<JournalStatus>;
  decideCase(req: DecideCaseRequest): Promise<AnchorReceipt>;
  createDemoJournal(): Promise<DemoJournal>;
  artifactContent(req: { source: JobSource }): Promise<ArtifactContent>;
  /** The structured diff of two artifacts of one kind (their reports and content); two kinds are refused. */
  compareArtifacts(req: { left: CompareSide; right: CompareSide }): Promise<CompareResult>;
  /**
   * `arriving`: the host writes the bytes to a file a job can follow while they arrive
   * (the web host's POST /upload/ID), so a job on this upload may start before they are sent.
   */
  beginUpload(req: { name: string; size: number }): Promise<{ uploadId: string; arriving?: boolean }>;
  /** One chunk of an upload: raw `data` (a binary WebSocket frame / structured clone), or base64 text. */
  uploadChunk(req: UploadChunkRequest): Promise<{ received: number }>;
  /** Replays a TG manifest read-only and signs its attestation in the engine's process. */
  attestReplay(req: AttestRequest): Promise<AttestationExport>;
  /** Opens (or with create, creates) a journal to record judgements in; its verification status. */
  openJudgementJournal(req: JudgementJournalRequest): Promise<JournalStatus>;
  /** Signs and anchors a judgement; returns after the entry and its checkpoint are on disk. */
  recordJudgement(req: RecordJudgementRequest): Promise<JudgementReceipt>;
  /** Every judgement the journal holds on an artifact, each with its checked inclusion proof. */
  listJudgements(req: ListJudgementsRequest): Promise<JudgementList>;
  /** Signs and anchors a reviewer's note on an artifact (or an edit that supersedes one); returns after the write. */
  recordNote(req: RecordNoteRequest): Promise<NoteReceipt>;
  /** The evidence bundle of the judged report (same bytes as `reprise export`). */
  exportBundle(req: ExportBundleRequest): Promise<BundleExport>;
  /** The rationale rule and the closed set of decisions the engine enforces. */
  judgementRules(): Promise<JudgementRules>;
  /** The key files this host may sign with, each named as the trust store (if given) names it. */
  signingKeys(req: { trustStore?: string }): Promise<SigningKey[]>;
  /** The models and compute shapes a registry offers: `providers` (an absolute path), an example's own, or the built-in one. */
  providerOffers(req: { providers?: string; example?: string }): Promise<ProviderOffers>;
  /** A Nemosyne package's members with their recorded and recomputed digests, and one member's content. */
  packageMembers(req: PackageMembersRequest): Promise<PackageMembers>;
  /** Verifies every artifact of a case folder; progress, each verdict as it lands and the case report arrive as events. */
  startCase(req: StartCaseRequest): Promise<CaseStarted>;
  cancelCase(req: { caseId: string }): Promise<boolean>;
  /** Puts one sent file into a case folder on the host (a multi-file pick or drop becomes a case). */
  addCaseUpload(req: AddCaseUploadRequest): Promise<{ folderId: string; files: number }>;
}

export const API_METHODS = [
  'engineInfo',
  'listExamples',
  'startJob',
  'cancelJob',
  'recentFiles',
  'pickPath',
  'journalStatus',
  'decideCase',
  'createDemoJournal',
  'artifactContent',
  'compareArtifacts',
  'beginUpload',
  'uploadChunk',
  'attestReplay',
  'openJudgementJournal',
  'recordJudgement',
  'listJudgements',
  'recordNote',
  'exportBundle',
  'judgementRules',
  'signingKeys',
  'providerOffers',
  'packageMembers',
  'startCase',
  'cancelCase',
  'addCaseUpload',
] as const satisfies readonly (keyof RepriseApi)[];
export type ApiMethod = (typeof API_METHODS)[number];

/** The renderer's side: the API plus the event subscription (generated from API_EVENTS). */
export interface RepriseClient extends RepriseApi {
  onEvent(listener: (e: ApiEvent) => void): () => void;
}

/** Wire messages of the WebSocket transport (and the IPC channel names). */
export type ApiResponse = { id: number; result: unknown } | { id: number; error: { message: string; usage: boolean } };
/** A server-pushed message: no id, one of API_EVENTS. */
export interface ApiEventMessage {
  event: ApiEvent;
}

export const IPC_PREFIX = 'reprise:';
export const IPC_EVENT_CHANNEL = 'reprise:event';

export function isApiMethod(m: unknown): m is ApiMethod {
  return typeof m === 'string' && (API_METHODS as readonly string[]).includes(m);
}

export function isApiEvent(e: unknown): e is ApiEvent {
  return (
    typeof e === 'object' &&
    e !== null &&
    (API_EVENTS as readonly string[]).includes((e as { type?: unknown }).type as string)
  );
}

/** One member of a Nemosyne package (packageMembers), with the digest its manifest records for it. */
export interface PackageMember {
  path: string;
  size: number;
  /** manifest, envelope, command log, dataset, forma, or other. */
  role: string;
  /** SHA-256 of the member's exact bytes (sha256:<hex>); null when it could not be inflated. */
  sha256: string | null;
  /** What the manifest records for it (sha256:<hex> of the bytes, or the dataset identity), if anything. */
  recordedDigest: string | null;
  /** The same digest recomputed here (for the dataset, its sha256-canonical-dataset-v1 identity). */
  recomputedDigest: string | null;
  /** Which digest recordedDigest and recomputedDigest are. */
  digestName: string | null;
}

/** A member's content: JSON as raw and canonical text (as ArtifactContent), the dataset also as a table. */
export interface PackageMemberContent extends ArtifactContent {
  path: string;
  table: { columns: string[]; rows: string[][]; totalRows: number } | null;
}

export interface PackageMembersRequest {
  source: JobSource;
  /** A member to read (one of the listed paths); absent: only the list. */
  path?: string;
}

export interface PackageMembers {
  members: PackageMember[];
  member: PackageMemberContent | null;
}

/**
 * Judgement operations for the workbench (open a journal, record a judgement or a note, list
 * the judgements on an artifact, export its evidence bundle), run in the journal worker thread
 * with the other journal operations (journal-ops.ts dispatches them here). Thin adapters
 * over app/journal/judgement.ts and the evidence-bundle kind: they check the request,
 * shape results for the UI, and nothing more.
 */
import { isAbsolute } from 'node:path';
import type {
  SigningKey,
  BundleExport,
  ExportBundleRequest,
  JournalStatus,
  JudgementJournalRequest,
  JudgementList,
  JudgementReceipt,
  JudgementView,
  ListJudgementsRequest,
  NoteReceipt,
  RecordJudgementRequest,
  RecordNoteRequest,
} from '../../shared/api.js';
import { JUDGEMENT_DECISIONS } from '../../shared/rationale.js';
import { REPORT_SCHEMA, verdictOf, type Report } from '../../shared/report.js';
import { UsageError } from '../../app/core/errors.js';
import { hashBytes, isHashString } from '../../app/core/hash.js';
import { loadSigner, loadTrustStore } from '../../app/core/keys.js';
import {
  JournalWriter,
  listJudgements as journalJudgements,
  recordJudgement as journalRecord,
  recordNote as journalNote,
  reportDigest,
  type JudgementRecord,
} from '../../app/journal/index.js';
import { ENTRIES_FILE, isJournalDir } from '../../app/journal/layout.js';
import { bundleFromJournal } from '../../app/engine/evidence.js';
import { journalStatus, shownSigner } from './journal-ops.js';

export type JudgementOp =
  | { op: 'judge-open'; req: JudgementJournalRequest }
  | { op: 'judge-record'; req: RecordJudgementRequest }
  | { op: 'judge-list'; req: ListJudgementsRequest }
  | { op: 'judge-note'; req: RecordNoteRequest }
  | { op: 'judge-export'; req: ExportBundleRequest }
  | { op: 'judge-keys'; keys: string[]; trustStore?: string };

const isStr = (v: unknown): v is string => typeof v === 'string' && v !== '';

function dirOf(req: { dir?: unknown } | undefined): string {
  if (!isStr(req?.dir)) throw new UsageError('choose a journal directory');
  return req.dir;
}

/** A report as the engine returns it (the window sends back the one it shows). */
function reportOf(r: unknown): Report {
  const x = r as Report | null;
  if (
    typeof x !== 'object' ||
    x === null ||
    x.schema !== REPORT_SCHEMA ||
    typeof x.artifact !== 'object' ||
    x.artifact === null ||
    !Array.isArray(x.findings)
  )
    throw new UsageError(`the judged report is not a ${REPORT_SCHEMA} report`);
  if (!isHashString(x.artifact.sha256))
    throw new UsageError('the report names no artifact SHA-256: judgements are recorded on an artifact file');
  return x;
}

/** Opens, or creates, a journal with its trust store (which must parse: it names who may sign). */
export async function openJudgementJournal(req: JudgementJournalRequest): Promise<JournalStatus> {
  const dir = dirOf(req);
  if (!isStr(req.trustStore))
    throw new UsageError('a journal for judgements needs the trust store that names its reviewers');
  await loadTrustStore(req.trustStore);
  if (!(await isJournalDir(dir))) {
    if (req.create !== true)
      throw new UsageError(`${dir} is not a journal (no ${ENTRIES_FILE}): tick "Create the journal" to make one there`);
    // Creating takes the writer's lock and creates the files (durably): no entry is written.
    const w = await JournalWriter.open(dir, { create: true });
    await w.close();
  }
  // An existing journal is only read: one that fails verification is shown with its
  // findings (the writer would refuse to open it, and every append onto it).
  return journalStatus({ dir, trustStore: req.trustStore });
}

export async function recordJudgement(req: RecordJudgementRequest): Promise<JudgementReceipt> {
  const dir = dirOf(req);
  if (!isStr(req.trustStore)) throw new UsageError('a judgement needs the trust store that names the reviewer');
  if (!isStr(req.keyFile) || !isAbsolute(req.keyFile))
    throw new UsageError('choose the reviewer key file (an absolute path) that signs the judgement');
  if (!JUDGEMENT_DECISIONS.includes(req.decision))
    throw new UsageError(`the decision is one of ${JUDGEMENT_DECISIONS.join(', ')}`);
  if (typeof req.pointer !== 'string' || typeof req.rationale !== 'string')
    throw new UsageError('a judgement needs the item pointer and the rationale');
  const report = reportOf(req.report);
  const trust = await loadTrustStore(req.trustStore);
  const signer = await shownSigner(req.keyFile, req.keyId);
  const r = await journalRecord(
    dir,
    { report, pointer: req.pointer, decision: req.decision, rationale: req.rationale },
    signer,
    trust,
    // The window creates a journal only when asked ("Create the journal", openJudgementJournal).
    { create: false },
  );
  const k = trust.get(signer.keyId)!; // recordJudgement refused an unknown key
  return {
    seq: r.seq,
    entryHash: r.entryHash,
    artifact: report.artifact.sha256!,
    reportDigest: r.reportDigest,
    pointer: req.pointer,
    decision: req.decision,
    keyId: signer.keyId,
    role: k.role,
    label: k.label,
    checkpoint: { size: r.checkpoint.treeSize, root: r.checkpoint.rootHash, keyId: r.checkpoint.signer },
    proofVerified: r.proofVerified,
    proofFindings: r.proofFindings,
  };
}

function view(j: JudgementRecord): JudgementView {
  return {
    seq: j.seq,
    entryHash: j.entryHash,
    recordedAtUtc: j.entry.recordedAtUtc,
    decision: j.decision,
    rationale: j.rationale,
    pointer: j.pointer,
    reportDigest: j.reportDigest,
    author: j.author,
    role: j.role,
    label: j.label,
    problem: j.problem,
    proofBuilt: j.proof !== null,
    proofVerified: j.proofVerified,
    proofFindings: j.proofFindings,
    supersedes: j.supersedes,
  };
}

/** A reviewer's note on an artifact, or an edit of one (app/journal/notes.ts): refused unless the journal verifies. */
export async function recordNote(req: RecordNoteRequest): Promise<NoteReceipt> {
  const dir = dirOf(req);
  if (!isStr(req.trustStore)) throw new UsageError('a note needs the trust store that names the reviewer');
  if (!isStr(req.keyFile) || !isAbsolute(req.keyFile))
    throw new UsageError('choose the reviewer key file (an absolute path) that signs the note');
  if (!isHashString(req.artifact)) throw new UsageError('a note is on an artifact, named by its sha256:<64 hex> hash');
  if (typeof req.text !== 'string') throw new UsageError('a note needs its text');
  const supersedes = req.supersedes ?? null;
  if (supersedes !== null && !isHashString(supersedes))
    throw new UsageError('a note edits another by its entry hash (sha256:<64 hex>)');
  const trust = await loadTrustStore(req.trustStore);
  const signer = await shownSigner(req.keyFile, req.keyId);
  const r = await journalNote(dir, { artifact: req.artifact, text: req.text, supersedes }, signer, trust, {
    create: false,
  });
  const k = trust.get(signer.keyId)!; // recordNote refused an unknown key
  return {
    seq: r.seq,
    entryHash: r.entryHash,
    atUtc: r.entry.recordedAtUtc,
    artifact: req.artifact,
    supersedes,
    keyId: signer.keyId,
    role: k.role,
    label: k.label,
    checkpoint: { size: r.checkpoint.treeSize, root: r.checkpoint.rootHash, keyId: r.checkpoint.signer },
    proofVerified: r.proofVerified,
    proofFindings: r.proofFindings,
  };
}

/** The most failing findings a listing names (the journal's verification has them all: `reprise journal verify`). */
export const LISTED_FAILURES = 5;

/**
 * The judgements a journal holds on an artifact, with the journal's verdict. A folder that
 * is not a journal (missing, or without entries.jsonl) is a usage error saying so, never an
 * empty listing: "no judgement" and "no journal here" must not read alike.
 */
export async function listJudgements(req: ListJudgementsRequest): Promise<JudgementList> {
  const dir = dirOf(req);
  if (!isHashString(req.artifact)) throw new UsageError('an artifact is named by its sha256:<64 hex> hash');
  const trust = isStr(req.trustStore) ? await loadTrustStore(req.trustStore) : null;
  if (!(await isJournalDir(dir))) throw new UsageError(`${dir} is not a journal (no ${ENTRIES_FILE})`, 'path');
  const { judgements, verification } = await journalJudgements(dir, req.artifact, trust);
  const cp = verification.latestCheckpoint;
  const failing = verification.findings.filter((f) => f.severity === 'fail' || f.severity === 'unavailable');
  return {
    artifact: req.artifact,
    reportDigest: req.report ? reportDigest(reportOf(req.report)) : null,
    checkpoint: cp ? { size: cp.treeSize, root: cp.rootHash } : null,
    judgements: judgements.map(view),
    verdict: verdictOf(verification.findings),
    failures: failing.slice(0, LISTED_FAILURES).map((f) => `${f.rule}: ${f.message}`),
    failureCount: failing.length,
  };
}

export async function exportBundle(req: ExportBundleRequest): Promise<BundleExport> {
  const dir = dirOf(req);
  const report = reportOf(req.report);
  const trust = isStr(req.trustStore) ? await loadTrustStore(req.trustStore) : null;
  if (req.attestation !== undefined && typeof req.attestation !== 'string')
    throw new UsageError('the attestation is the envelope text');
  const b = await bundleFromJournal(dir, report, trust, req.attestation ? Buffer.from(req.attestation, 'utf8') : null);
  return {
    name: `evidence-${report.artifact.sha256!.slice(7, 19)}.zip`,
    dataBase64: b.bytes.toString('base64'),
    sha256: hashBytes(b.bytes),
    reportDigest: b.reportDigest,
    judgements: b.judgements.length,
    checkpoint: { size: b.checkpoint.treeSize, root: b.checkpoint.rootHash },
    omitted: b.omitted.map((o) => o.line),
    unproven: b.omitted.filter((o) => o.status === 'unproven').length,
  };
}

/** Each granted key file named by its key id and, when a trust store is given, its role and label. */
export async function signingKeys(keys: string[], trustStore: string | undefined): Promise<SigningKey[]> {
  const trust = trustStore ? await loadTrustStore(trustStore) : null;
  const out: SigningKey[] = [];
  for (const path of keys) {
    let keyId: string | null = null;
    try {
      keyId = (await loadSigner(path)).keyId;
    } catch {
      /* not a usable key: listed without an id, so the user sees why it cannot sign */
    }
    const k = keyId ? trust?.get(keyId) : undefined;
    out.push({ path, keyId, role: k?.role ?? null, label: k?.label ?? null, status: k?.status ?? null });
  }
  return out;
}

export async function runJudgementOp(op: JudgementOp): Promise<unknown> {
  switch (op.op) {
    case 'judge-open':
      return openJudgementJournal(op.req);
    case 'judge-record':
      return recordJudgement(op.req);
    case 'judge-list':
      return listJudgements(op.req);
    case 'judge-note':
      return recordNote(op.req);
    case 'judge-export':
      return exportBundle(op.req);
    case 'judge-keys':
      return signingKeys(op.keys, op.trustStore);
  }
}

/**
 * Journal and quarantine operations for the workbench, run in a worker thread
 * (journal-worker.ts) so the process talking to the window never hashes or verifies.
 * Thin adapters over app/journal: they shape results for the UI and nothing more.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { decodeJsonBytes, JcsError, parseCanonical } from '../../app/core/jcs.js';
import { openRegular, readOpened, withReadConfinement } from '../../app/core/files.js';
import type {
  AnchorReceipt,
  ArtifactContent,
  AttestationExport,
  CaseView,
  DecideCaseRequest,
  DemoJournal,
  EvidenceDelta,
  JournalRequest,
  JournalStatus,
} from '../../shared/api.js';
import { UsageError } from '../../app/core/errors.js';
import { attestManifest, type Attestation } from '../../app/engine/attest.js';
import { formatAttestationText } from '../../app/engine/report-text.js';
import type { PackageMembers } from '../../shared/api.js';
import { readPackageMembers } from '../../app/engine/package-members.js';
import { diffSides, readContent, type SideRead, type SidesDiff } from '../../app/engine/compare-sides.js';
import { NumberLiterals } from '../../shared/diff.js';
import { sha256Hex } from '../../app/core/hash.js';
import type { EngineOptions } from '../../app/kinds/types.js';
import { verdictOf, type Report } from '../../shared/report.js';
import { isPlainObject } from '../../shared/plain-object.js';
import { escapePointerToken } from '../../shared/json-pointer.js';
import { exact, exactText } from '../../shared/exact-decimal.js';
import { isHashString } from '../../shared/hash-format.js';
import {
  generateSigner,
  loadSigner,
  loadTrustStore,
  trustStoreEntry,
  writePrivateKey,
  TRUST_STORE_TYPE,
  type Signer,
  type TrustStore,
} from '../../app/core/keys.js';
import {
  checkInclusionProof,
  decideCase,
  inclusionProof,
  JournalError,
  journalFilesToShow,
  openCase,
  TRANSITIONS,
  verifyJournal,
  type CaseState,
  type Decision,
} from '../../app/journal/index.js';

export type JournalOp =
  | { op: 'status'; req: JournalRequest }
  | { op: 'decide'; req: DecideCaseRequest }
  | { op: 'demo' }
  | { op: 'content'; path?: string; bytes?: Uint8Array }
  | { op: 'members'; path?: string; bytes?: Uint8Array; member?: string }
  | { op: 'compare'; left: CompareOpSide; right: CompareOpSide }
  | {
      op: 'attest';
      name: string;
      path?: string;
      bytes?: Uint8Array;
      keyFile: string;
      options: EngineOptions;
      /** What the replay may open (confined-op.ts); the temp file bytes go to is added here. */
      readRoots?: string[];
    };

/** One side of a diff as the worker reads it: the report, and the artifact's path or bytes. */
export interface CompareOpSide {
  name: string;
  report: Report;
  path?: string;
  bytes?: Uint8Array;
}

/** Largest artifact shown in the editor. */
export const MAX_EDITOR_BYTES = 8 * 1024 * 1024;

/** Raw and canonical text of an artifact for the editor (the engine's own canonicalizer). */
export async function artifactContent(
  path: string | undefined,
  given: Uint8Array | undefined,
): Promise<ArtifactContent> {
  let bytes: Uint8Array;
  if (given) bytes = given;
  else if (path) {
    // A path from the API: a FIFO would block this read for ever and /dev/zero never ends,
    // so only a regular file (or a directory, which has a note) is read, and never past the cap.
    const opened = await openRegular(path, { allowDirectory: true });
    try {
      if (opened.stat.isDirectory()) return await directoryContent(path);
      if (opened.stat.size > MAX_EDITOR_BYTES)
        return {
          raw: null,
          canonical: null,
          note: `larger than ${MAX_EDITOR_BYTES / 1048576} MiB: not shown in the editor`,
        };
      bytes = await readOpened(path, opened, MAX_EDITOR_BYTES);
    } finally {
      await opened.fh.close().catch(() => undefined);
    }
  } else throw new UsageError('no artifact');
  if (bytes.length > MAX_EDITOR_BYTES)
    return {
      raw: null,
      canonical: null,
      note: `larger than ${MAX_EDITOR_BYTES / 1048576} MiB: not shown in the editor`,
    };
  if (bytes[0] === 0x50 && bytes[1] === 0x4b)
    return { raw: null, canonical: null, note: 'a zip package: binary, not shown as text' };
  const { raw, note } = shownText(bytes);
  if (note !== null) return { raw, canonical: null, note };
  try {
    return { raw, canonical: parseCanonical(raw).canonical, note: null };
  } catch (e) {
    return {
      raw,
      canonical: null,
      note: e instanceof JcsError ? `no canonical form: ${e.message}` : 'not a single JSON document: no canonical form',
    };
  }
}

/** A directory's content: a journal's two files as text (the only directory kind), or a note. */
async function directoryContent(dir: string): Promise<ArtifactContent> {
  const files = await journalFilesToShow(dir, MAX_EDITOR_BYTES);
  if (files.length === 0)
    return { raw: null, canonical: null, note: "a directory without a journal's files: open its files one by one" };
  return {
    raw: null,
    canonical: null,
    note: 'a journal: its entries and checkpoints files, one at a time',
    files: files.map((f) =>
      f.bytes ? { name: f.name, ...shownText(f.bytes) } : { name: f.name, raw: null, note: f.note },
    ),
  };
}

/** Bytes as the editor shows them: strict UTF-8 (the engine's decoder), or with replacement characters and a note saying so. */
function shownText(bytes: Uint8Array): { raw: string; note: string | null } {
  try {
    return { raw: decodeJsonBytes(bytes), note: null };
  } catch {
    return {
      raw: new TextDecoder('utf-8', { fatal: false }).decode(bytes),
      note: 'not valid UTF-8: shown with replacement characters',
    };
  }
}

async function trustOf(path: string | undefined): Promise<TrustStore | null> {
  return path ? loadTrustStore(path) : null;
}

/** A key as the trust store names it: its role and label, or nulls when it does not (or none was given). */
function named(trust: TrustStore | null, keyId: string): { role: string | null; label: string | null } {
  return trust?.holder(keyId) ?? { role: null, label: null };
}

/** Comparisons in evidence are found this deep at most (the training journal's are at depth 1). */
const MAX_EVIDENCE_DEPTH = 8;
/** And at most this many are listed. */
const MAX_EVIDENCE_DELTAS = 100;

/**
 * A recorded number as the exact decimal it stands for, in plain digits up to 40 places:
 * String(1e-7) is "1e-7", which beside the exact column's 0.0000001 reads as another value;
 * beyond 40 places (5e-324, 1.7976931348623157e308) the exponent form, as the exact column,
 * since 330 or 630 digits crush the table.
 */
const plain = (n: number): string => exactText(exact(n));

/**
 * Every comparison in a case's evidence (an object with numeric `original` and `replayed`),
 * with |replayed − original| in exact decimal arithmetic, held against the delta the entry
 * wrote: the window shows decimals, and does no arithmetic on binary floats itself.
 */
export function evidenceDeltas(evidence: unknown, at = '', depth = 0, out: EvidenceDelta[] = []): EvidenceDelta[] {
  if (depth > MAX_EVIDENCE_DEPTH || out.length >= MAX_EVIDENCE_DELTAS) return out;
  if (Array.isArray(evidence)) evidence.forEach((v, i) => evidenceDeltas(v, `${at}/${i}`, depth + 1, out));
  if (!isPlainObject(evidence)) return out;
  const { original, replayed, delta, epsilon, output } = evidence;
  if (typeof original === 'number' && typeof replayed === 'number') {
    const d = exact(replayed).minus(exact(original)).abs();
    out.push({
      pointer: at,
      output: typeof output === 'string' ? output : null,
      original: plain(original),
      replayed: plain(replayed),
      written: typeof delta === 'number' ? plain(delta) : null,
      exact: exactText(d),
      agrees: typeof delta === 'number' && exact(Math.abs(delta)).eq(d),
      // Only then is the cause known: the delta is what a binary float subtraction gives.
      floatRounding:
        typeof delta === 'number' && !exact(Math.abs(delta)).eq(d) && Math.abs(delta) === Math.abs(replayed - original),
      epsilon: typeof epsilon === 'number' ? plain(epsilon) : null,
    });
  }
  for (const [k, v] of Object.entries(evidence))
    if (typeof v === 'object') evidenceDeltas(v, `${at}/${escapePointerToken(k)}`, depth + 1, out);
  return out;
}

/** The decisions the journal allows from a state, with the roles that may sign each (app/journal/cases.ts). */
const decisionsFrom = (state: CaseState['state']): NonNullable<CaseView['decisions']> =>
  (Object.keys(TRANSITIONS) as Decision[])
    .filter((d) => TRANSITIONS[d].from.includes(state))
    .map((d) => ({ decision: d, to: TRANSITIONS[d].to, roles: [...TRANSITIONS[d].roles] }));

function caseView(c: CaseState, trust: TrustStore | null): CaseView {
  const { evidence } = c;
  return {
    caseId: c.caseId,
    state: c.state,
    claimRef: c.subject.claimRef,
    artifact: c.subject.artifact ?? null,
    source: c.source,
    openedAtUtc: c.openedAtUtc,
    updatedAtUtc: c.updatedAtUtc,
    evidence,
    history: c.history.map((h) => ({ ...h, ...named(trust, h.author) })),
    openHash: c.openHash,
    decisions: decisionsFrom(c.state),
    deltas: evidenceDeltas(evidence),
  };
}

export async function journalStatus(req: JournalRequest): Promise<JournalStatus> {
  if (typeof req?.dir !== 'string' || req.dir === '') throw new UsageError('choose a journal directory');
  const trust = await trustOf(req.trustStore);
  const v = await verifyJournal(req.dir, trust);
  // v.findings already holds the case fold's findings (verify.ts finish()): each is listed once.
  // Listed after them, as `journal verify` lists them: its RPR-QUAR-008 warnings, once per distinct
  // claim id that may draw as another claim's (app/journal/claim-ids.ts), outside the verdict.
  return {
    dir: req.dir,
    verdict: verdictOf(v.findings),
    findings: [...v.findings, ...v.claimIds].map((f) => ({
      rule: f.rule,
      severity: f.severity,
      message: f.message,
      ...(f.pointer ? { pointer: f.pointer } : {}),
    })),
    entries: v.entryLines,
    checkpointSize: v.latestCheckpoint?.treeSize ?? null,
    root: v.latestCheckpoint?.rootHash ?? null,
    rolesChecked: v.cases.rolesChecked,
    cases: v.cases.cases.map((c) => caseView(c, trust)),
  };
}

/**
 * The signer a confirmation showed: the key file is read once, here, and signs only when it
 * still holds the key id the confirmation showed (read when it opened). A file replaced in
 * between (another officer's key copied over it) is refused, and nothing is signed.
 */
export async function shownSigner(keyFile: string, shownKeyId: unknown): Promise<Signer> {
  if (typeof shownKeyId !== 'string' || shownKeyId === '')
    throw new UsageError('a signature needs the key id its confirmation showed');
  const signer = await loadSigner(keyFile);
  if (signer.keyId !== shownKeyId)
    throw new UsageError(
      `the key file changed since it was shown: ${basename(keyFile)} now holds ${signer.keyId}, the confirmation showed ${shownKeyId}; nothing was signed (review it again)`,
    );
  return signer;
}

export async function decide(req: DecideCaseRequest): Promise<AnchorReceipt> {
  if (
    !req ||
    typeof req.dir !== 'string' ||
    typeof req.caseId !== 'string' ||
    typeof req.keyFile !== 'string' ||
    req.keyFile === ''
  )
    throw new UsageError('a decision needs the journal directory, the case, and the officer key file');
  if (!isHashString(req.openHash))
    throw new UsageError("a decision names the case by its opening entry's hash (sha256:<64 hex>), as it was shown");
  if (!isHashString(req.shownLast))
    throw new UsageError("a decision names the last entry of the case's history it showed (sha256:<64 hex>)");
  if (!['release', 'uphold', 'escalate'].includes(req.decision))
    throw new UsageError('the decision is release, uphold or escalate');
  if (typeof req.trustStore !== 'string' || req.trustStore === '')
    throw new UsageError('a decision needs the trust store that names the officer');
  const trust = await loadTrustStore(req.trustStore);
  const signer = await shownSigner(req.keyFile, req.keyId);
  // The case shown, by its opening entry: never "whatever case holds this number now".
  const r = await decideCase(req.dir, req.openHash, req.decision, String(req.rationale ?? ''), signer, trust, {
    shownLast: req.shownLast,
  }).catch((e: unknown) => {
    if (e instanceof JournalError && e.code === 'NOT_FOUND')
      throw new JournalError(
        `${req.caseId} is not the case shown: the journal holds no case opened by entry ${req.openHash} (it changed since it was shown); nothing was signed`,
        'NOT_FOUND',
      );
    throw e;
  });
  // The receipt: prove the new entry under the checkpoint the write returned, then check that proof.
  const proof = await inclusionProof(req.dir, r.seq);
  const check = checkInclusionProof(JSON.parse(JSON.stringify(proof)) as unknown, trust);
  const bad = check.findings.filter((f) => f.severity === 'fail' || f.severity === 'unavailable');
  return {
    caseId: r.caseId,
    state: r.case.state,
    seq: r.seq,
    entryHash: r.entryHash,
    keyId: signer.keyId,
    ...named(trust, signer.keyId),
    checkpoint: { size: r.checkpoint.treeSize, root: r.checkpoint.rootHash, keyId: r.checkpoint.signer ?? null },
    proofVerified: bad.length === 0,
    proofFindings: bad.map((f) => `${f.rule}: ${f.message}`),
  };
}

interface TrainingOfficer {
  root: string;
  keyFile: string;
  trustStore: string;
  officer: Signer;
}

/**
 * The one training officer of this host: a key and the trust store naming it, in a temp
 * folder, made for the first training journal and reused by every later one. The host
 * grants each training key for signing, and a grant lasts: a fresh key per journal left
 * the earlier ones in the key list, each "not in the trust store" of the journal open.
 */
let training: Promise<TrainingOfficer> | null = null;

async function makeTrainingOfficer(): Promise<TrainingOfficer> {
  // The real path: the host grants keys by their real path, and the window matches the key it chose against them.
  const root = await realpath(await mkdtemp(join(tmpdir(), 'reprise-training-')));
  // The key, the trust store and each journal in a folder of its own: the host grants the
  // journal and the trust store's folder as readable (journal-side.ts), and a readable folder
  // holding the private key would hand its PEM to whoever holds the API.
  const [keyDir, trustDir] = [join(root, 'key'), join(root, 'trust')];
  await Promise.all([mkdir(keyDir, { mode: 0o700 }), mkdir(trustDir)]);
  const keyFile = join(keyDir, 'officer.key.pem');
  const trustStore = join(trustDir, 'trust-store.json');
  const officer = generateSigner();
  await writePrivateKey(keyFile, officer);
  await writeFile(
    trustStore,
    JSON.stringify(
      { type: TRUST_STORE_TYPE, keys: [trustStoreEntry(officer, 'quarantine-officer', 'training officer')] },
      null,
      2,
    ) + '\n',
  );
  return { root, keyFile, trustStore, officer };
}

/** The training officer, made again when its files are gone (a temp folder cleaned) or no longer agree. */
export async function trainingOfficer(): Promise<TrainingOfficer> {
  const current = training;
  const known = current ? await current.catch(() => null) : null;
  const intact =
    known !== null &&
    (await Promise.all([loadSigner(known.keyFile), loadTrustStore(known.trustStore)]).then(
      ([key, trust]) => key.keyId === known.officer.keyId && trust.get(key.keyId)?.role === 'quarantine-officer',
      () => false,
    ));
  if (intact) return known;
  // A call made meanwhile may already have made the next one: every caller shares it.
  if (training === current || training === null) training = makeTrainingOfficer();
  return training;
}

/** The training case's comparison: its delta as a TG replay writes it, the exact decimal |replayed − original|. */
const TRAINING_ORIGINAL = 0.7193599213366195;
const TRAINING_REPLAYED = 0.6193599213366195;
const trainingDelta = (): number => Number(exact(TRAINING_REPLAYED).minus(exact(TRAINING_ORIGINAL)).abs().toString());

/** A training journal (a new one each time, in the officer's folder): two open cases. */
export async function demoJournal(): Promise<DemoJournal> {
  const { root, keyFile, trustStore, officer } = await trainingOfficer();
  const dir = await mkdtemp(join(root, 'journal-'));
  await openCase(
    dir,
    {
      claimRef: 'claim:2026-11-0104',
      reason: 'decision-material drift on comp.TG.OUTPUT.CONFIDENCE-SCORE.v1_0 routed to HUMAN_REVIEW',
      source: 'routing',
      details: {
        comparison: {
          output: 'comp.TG.OUTPUT.CONFIDENCE-SCORE.v1_0',
          mode: 'BANDED',
          original: TRAINING_ORIGINAL,
          replayed: TRAINING_REPLAYED,
          delta: trainingDelta(),
          epsilon: 0.03,
          status: 'fail',
        },
        driftEvent: {
          type: 'comp.TG.EVENT.REPLAY-DRIFT.v1_0',
          executionId: 'x3',
          routing: 'HUMAN_REVIEW',
          decisionMaterial: true,
        },
        originalExit: 'ACCEPT',
        replayedExit: 'ACCEPT_WITH_CONDITIONS',
      },
    },
    officer,
  );
  await openCase(
    dir,
    {
      claimRef: 'claim:2026-11-0107',
      reason: 'opened by hand: the reviewer asked for a second look at a RECORDED output',
      source: 'manual',
    },
    officer,
  );
  return { dir, keyFile, trustStore };
}

/** The options an attestation's replay reads (it writes no journal: attest reads only). */
const ATTEST_OPTIONS = ['trustStore', 'policy', 'providers', 'journal'] as const;

/**
 * The name the window's bytes are written under, in their private temp folder: their own
 * when it is one plain file name, else manifest.json. It is only the temp file's label (the
 * statement names the manifest by its claim and digest, never by a file name), so a name
 * that is none (empty, `.`, `..`, a path, a NUL, longer than a file system takes) is
 * replaced rather than refused: it must not lead the write out of the folder, nor stop the
 * attestation of bytes that are a manifest.
 */
export function attestFileName(name: unknown): string {
  const plain =
    typeof name === 'string' &&
    name !== '' &&
    name !== '.' &&
    name !== '..' &&
    !/[/\\\0]/.test(name) &&
    Buffer.byteLength(name) <= 255;
  return plain ? name : 'manifest.json';
}

/**
 * An error as the window may read it: a UsageError's first line, and no temp folder's path
 * (`hidden`; the longest first, so a real path is hidden whole before a path it ends with).
 * Another error keeps its code, which the journal worker tells a file problem by.
 */
function withoutTemp(e: unknown, hidden: string[]): unknown {
  const paths = [...hidden].sort((a, b) => b.length - a.length);
  const hide = (text: string): string => paths.reduce((t, h) => t.split(h).join('…'), text);
  if (e instanceof UsageError) return new UsageError(hide(e.message.split('\n')[0]!), e.usageCode);
  if (!(e instanceof Error) || hide(e.message) === e.message) return e;
  return Object.assign(new Error(hide(e.message)), { code: (e as NodeJS.ErrnoException).code });
}

/** The replay an attestation signs, reading the options it reads, confined to `roots`. */
function replayAndSign(op: Extract<JournalOp, { op: 'attest' }>, file: string, roots?: string[]): Promise<Attestation> {
  const options: EngineOptions = {};
  for (const k of ATTEST_OPTIONS) if (op.options[k]) options[k] = op.options[k];
  return withReadConfinement(roots, () => attestManifest(file, op.keyFile, () => options));
}

/**
 * The attestation of a TG replay, made by the engine's attestation operation, the one
 * `reprise attest` calls (read-only replay, the statement, the DSSE envelope signed with
 * the reviewer's key): the window gets the very bytes the CLI would write. Bytes from the
 * window go to a file in a private temp folder, removed whatever happens (the write is
 * inside the try), whose path never reaches a message.
 */
export async function attest(op: Extract<JournalOp, { op: 'attest' }>): Promise<AttestationExport> {
  if (typeof op.keyFile !== 'string' || op.keyFile === '')
    throw new UsageError('choose the reviewer key file that signs the attestation');
  let tmp: string | null = null;
  const hidden: string[] = [];
  try {
    let file = op.path;
    let roots = op.readRoots;
    if (op.bytes) {
      tmp = await mkdtemp(join(tmpdir(), 'reprise-attest-'));
      const real = await realpath(tmp);
      hidden.push(real, tmp);
      file = join(tmp, attestFileName(op.name));
      await writeFile(file, op.bytes, { flag: 'wx', mode: 0o600 });
      // Confined as the operation is (confined-op.ts), the temp file of the window's bytes with it.
      if (roots) roots = [...roots, real];
    }
    if (!file) throw new UsageError('no manifest to attest');
    return exported(await replayAndSign(op, file, roots));
  } catch (e) {
    throw withoutTemp(e, hidden);
  } finally {
    if (tmp) await rm(tmp, { recursive: true, force: true });
  }
}

/** An attestation as the window takes it; or why there is none, when the manifest could not be replayed. */
function exported(a: Attestation): AttestationExport {
  if (!a.attested) {
    const text = formatAttestationText(
      '(cannot be attested: the manifest could not be replayed)',
      a.verdict,
      a.findings,
    );
    const why = text
      .split('\n')
      .filter((l) => l.trim())
      .slice(1, 3)
      .map((l) => l.trim().replace(/\s+/g, ' '))
      .join('; ');
    throw new UsageError(
      `this manifest cannot be attested: it could not be replayed${why ? ` (${why})` : ''}`,
      'refused',
    );
  }
  return {
    envelope: a.envelope,
    digest: `sha256:${sha256Hex(Buffer.from(a.envelope, 'utf8'))}`,
    keyId: a.keyId,
    verdict: a.verdict,
  };
}

/** A Nemosyne package's members (app/engine/package-members.ts). */
function membersOf(op: Extract<JournalOp, { op: 'members' }>): Promise<PackageMembers> {
  return readPackageMembers(op.bytes ? { bytes: op.bytes } : { ...(op.path ? { path: op.path } : {}) }, op.member);
}

/** Two artifacts' diff (app/engine/compare-sides.ts): their content read here, off the window's thread. */
async function compare(op: Extract<JournalOp, { op: 'compare' }>): Promise<SidesDiff> {
  const literals = new NumberLiterals();
  const read = async (s: CompareOpSide): Promise<SideRead> => ({
    name: s.name,
    report: s.report,
    content: await readContent(s.bytes ? { bytes: s.bytes } : { path: s.path ?? '' }, literals),
  });
  const [l, r] = [await read(op.left), await read(op.right)];
  return diffSides(l, r, literals);
}

export async function runJournalOp(op: JournalOp): Promise<unknown> {
  switch (op.op) {
    case 'status':
      return journalStatus(op.req);
    case 'decide':
      return decide(op.req);
    case 'demo':
      return demoJournal();
    case 'content':
      return artifactContent(op.path, op.bytes);
    case 'attest':
      return attest(op);
    case 'members':
      return membersOf(op);
    case 'compare':
      return compare(op);
  }
}

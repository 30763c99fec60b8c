/**
 * `verifyJournal`: every rule of journal.md, each break a finding naming its line.
 * Entries: UTF-8, canonical, shape, seq continuous, prev chained, timestamps
 * non-decreasing, author known/active, signature valid. Checkpoints: shape, size within
 * the journal, root equal to the recomputed RFC 9162 root, signer known and signature
 * valid, timestamps non-decreasing, each consistent (RFC 9162 consistency proof) with the
 * one before. Tail: torn lines, entries no checkpoint covers. Cases: RPR-QUAR findings.
 * Claim ids that may draw as another's: RPR-QUAR-008 warnings, kept apart (`claimIds`).
 * The writer's sealed state.json: the journal still holds the tree it records (RPR-JOURNAL-047).
 */
import type { Finding } from '../../shared/report.js';
import { isPlainObject } from '../core/closed.js';
import { BoundedFindings, changedNumbers, fail, info, unavailable, warning } from '../core/findings.js';
import { formatHash, ZERO_HASH } from '../core/hash.js';
import { JcsError, parseCanonical } from '../core/jcs.js';
import type { KeyObject } from 'node:crypto';
import { rawPublicKey, verifyBytes, type TrustStore } from '../core/keys.js';
import { epochMs, isRfc3339Utc } from '../core/time.js';
import { caseStates, type CaseFold } from './cases.js';
import { LookalikeClaims } from './claim-ids.js';
import { NoteEditRule, noteEditFinding } from './note-edit-rule.js';
import {
  checkCheckpointShape,
  checkEntryShape,
  CHECKPOINTS_FILE,
  ENTRIES_FILE,
  entryHash,
  journalOrigin,
  NOTES_FILE,
  unsignedDigest,
  unsignedDigestOfLine,
  type Checkpoint,
  type Entry,
} from './format.js';
import { verifySignatures, type NoteKey } from './note.js';
import { readNoteLine } from './note-line.js';
import {
  ContinuedTree,
  frontierBase,
  leafHash,
  MerkleTree,
  nodeHash,
  verifyConsistency,
  verifyInclusion,
  type MerkleView,
} from './merkle.js';
import {
  frontierRoot,
  identityMismatch,
  identityOf,
  indexBytes,
  INDEX_FILE,
  openJournalFile,
  readIndex,
  readState,
  STATE_FILE,
  TREE_FILE,
  treeBytes,
  TreeFile,
  type FilePlace,
  type IndexRecord,
  type TrustedState,
} from './frontier.js';
import { sealedStateFinding, type SealKey } from './sealed-state.js';
import { lstat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { compareTimestamps } from '../../shared/timestamps.js';
import {
  MAX_LINE_BYTES,
  streamLines,
  type OverlongLine,
  type RawFile,
  type RawLine,
  type StreamedFile,
  type TornTail,
} from './read.js';

export interface ParsedEntry {
  line: number;
  entry: Entry;
  /** `H(entry without sig)` */
  hash: string;
  /** The exact line text (its UTF-8 bytes are the Merkle leaf). */
  text: string;
}

export interface ParsedCheckpoint {
  line: number;
  checkpoint: Checkpoint;
  text: string;
}

export interface JournalVerification {
  dir: string;
  findings: Finding[];
  /** Number of entry lines (complete lines, whatever their content): the Merkle tree's size. */
  entryLines: number;
  checkpointLines: number;
  /** Entries that parsed and have the right shape, in line order (with `keep: false`, only quarantine entries). */
  entries: ParsedEntry[];
  /** Well-formed checkpoints (empty with `keep: false`). */
  checkpoints: ParsedCheckpoint[];
  /** The last well-formed checkpoint line (what a recipient should hold). */
  latestCheckpoint: Checkpoint | null;
  /** The recomputed root over every entry line. */
  root: string;
  tree: MerkleView;
  torn: TornTail[];
  cases: CaseFold;
  /**
   * RPR-QUAR-008 warnings: one per distinct claim id of the entries read that may draw as
   * another claim's (claim-ids.ts). Apart from `findings`, which say whether the journal holds:
   * the journal's report carries them (result.ts), and so do `quarantine list|show` and the
   * workbench's journal view, beside their findings.
   */
  claimIds: Finding[];
  /** Where the latest well-formed checkpoint starts in checkpoints.jsonl. */
  latestCheckpointOffset: number | null;
  /** The last entry's hash and timestamp when it was readable. */
  head: { hash: string; ts: string } | null;
  /** Entry 0's hash when it was readable. */
  firstHash: string | null;
  /** The newest checkpoint note (notes.jsonl), as written. */
  latestNote?: string | null;
  /** The line of notes.jsonl the newest note was read from. */
  latestNoteLine?: number | null;
  /** Where the complete lines of notes.jsonl end. */
  notesEnd?: { offset: number; line: number };
  /** Bytes of complete lines in each file. */
  entriesBytes: number;
  checkpointsBytes: number;
  collected?: Collected;
  /** The keys whose signatures this pass checked (entries and checkpoints), for the origin statement. */
  signers: SignerKeyList;
}

/** The distinct signing keys of a journal, sorted: the SIGNER_KEYS_KEPT first in that order, and whether it had more. */
export interface SignerKeyList {
  keys: string[];
  more: boolean;
  /** The held checkpoint's tree size a `--since` pass started after (0: every entry was checked). */
  from: number;
}

/** How many distinct signing keys a verification names: a journal signed by a million keys must not hold a million strings. */
export const SIGNER_KEYS_KEPT = 32;

/** The distinct keys a pass checked a signature of: the SIGNER_KEYS_KEPT first in code-unit order, whatever order they came in. */
class SignerKeys {
  private readonly keys: string[] = [];
  private more = false;

  constructor(private readonly from = 0) {}

  add(keyId: string): void {
    let i = this.keys.length;
    while (i > 0 && this.keys[i - 1]! > keyId) i--;
    if (i > 0 && this.keys[i - 1] === keyId) return;
    if (this.keys.length < SIGNER_KEYS_KEPT) this.keys.splice(i, 0, keyId);
    else {
      // Full: a key after every kept one is left out; one before the last takes its place.
      this.more = true;
      if (i < SIGNER_KEYS_KEPT) {
        this.keys.splice(i, 0, keyId);
        this.keys.pop();
      }
    }
  }

  list(): SignerKeyList {
    return { keys: [...this.keys], more: this.more, from: this.from };
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export const entryPointer = (line: number) => `line:${line}`;
/** Pointers: `line:N` for entries.jsonl (journal.md), `entry:checkpoints.jsonl:line:N` for the other file of the journal. */
export const checkpointPointer = (line: number) => `entry:${CHECKPOINTS_FILE}:line:${line}`;

/**
 * How far a journal's newest time may be ahead of a machine's clock before it is not taken
 * for clock drift (Kerberos' default limit for clock skew): the writer refuses to append
 * behind an entry dated further ahead of its clock, and verification warns of an entry
 * dated further ahead of its own time (RPR-JOURNAL-022, docs/journal.md).
 */
export const CLOCK_TOLERANCE_MS = 5 * 60_000;

/** RPR-JOURNAL-002/003: decode, strict-parse and canonical-check one line. */
function parseLine(
  raw: RawLine,
  decoded: string | undefined,
  pointer: string,
  what: string,
  out: Finding[],
): { value: unknown; text: string } | null {
  if (raw.bytes.length === 0) {
    out.push(fail('RPR-JOURNAL-002', `${what} is an empty line`, { pointer }));
    return null;
  }
  let text: string;
  if (decoded !== undefined) text = decoded;
  else
    try {
      text = UTF8.decode(raw.bytes);
    } catch {
      out.push(fail('RPR-JOURNAL-002', `${what} is not valid UTF-8`, { pointer }));
      return null;
    }
  let parsed;
  try {
    parsed = parseCanonical(text);
  } catch (e) {
    out.push(
      fail('RPR-JOURNAL-002', `${what} is not valid I-JSON: ${e instanceof JcsError ? e.message : String(e)}`, {
        pointer,
      }),
    );
    return null;
  }
  if (parsed.warnings.length > 0) {
    // A number the parse changed (`1E-400` read as 0): the signed, chained value is not the
    // line's. Not I-JSON (002), rather than "not canonical" with a rounded text to compare.
    out.push(
      ...changedNumbers(
        parsed.warnings,
        { rule: 'RPR-JOURNAL-002', subject: `${what} is not I-JSON` },
        { at: pointer },
      ),
    );
    return null;
  }
  if (parsed.canonical !== text) {
    out.push(
      fail(
        'RPR-JOURNAL-003',
        `${what} is not in canonical form (RFC 8785): it was altered or written by another tool`,
        { pointer, expected: parsed.canonical, actual: text },
      ),
    );
    return null;
  }
  return { value: parsed.value, text };
}

/**
 * The text of every line from one strict decode of the whole file (a `\n` byte is never part
 * of a multi-byte UTF-8 sequence, so the split lines are exactly the byte lines); when the
 * file is not UTF-8, undefined, and each line is decoded alone to name the bad one.
 */
function lineTexts(file: RawFile): string[] | undefined {
  if (!file.data) return undefined;
  try {
    return UTF8.decode(file.data).split('\n');
  } catch {
    return undefined;
  }
}

/**
 * A checkpoint line has one fixed shape, so a well-formed one can be recognized without a
 * JSON parse: this pattern accepts exactly the RFC 8785 canonical text of a checkpoint whose
 * members all pass checkCheckpointShape (members in code-unit order, strings made only of
 * characters JCS writes verbatim, an integer without leading zeros), plus the calendar and
 * safe-integer checks below. Anything else goes through parseCanonical and the shape checks,
 * which name what is wrong. This is a recognizer for one shape, not a canonicalizer.
 */
const CHECKPOINT_LINE =
  /^\{"rootHash":"(sha256:[0-9a-f]{64})","sig":"([A-Za-z0-9+/]{85}[AQgw]==)","signer":"(ed25519:[0-9a-f]{64})","timestampUtc":"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z)","treeSize":([1-9]\d{0,15})\}$/;

export function recognizeCheckpoint(
  text: string | undefined,
): { value: Checkpoint; cp: Checkpoint; text: string } | null {
  if (text === undefined) return null;
  const m = CHECKPOINT_LINE.exec(text);
  if (!m) return null;
  const treeSize = Number(m[5]);
  if (!Number.isSafeInteger(treeSize) || !isRfc3339Utc(m[4])) return null;
  const cp: Checkpoint = { rootHash: m[1]!, sig: m[2]!, signer: m[3]!, timestampUtc: m[4]!, treeSize };
  return { value: cp, cp, text };
}

interface KeyCheck {
  rule: string;
  ok: boolean;
}

/** RPR-JOURNAL-008/009/010/007: the signing key is known, not revoked, and the signature verifies. */
function checkSignature(
  trust: TrustStore,
  keyId: string,
  digest: Buffer,
  sig: string,
  pointer: string | undefined,
  what: string,
  out: Finding[],
): KeyCheck {
  const k = trust.get(keyId);
  if (!k) {
    out.push(
      fail('RPR-JOURNAL-008', `${what} is signed by ${keyId}, which is not in the trust store`, {
        pointer,
        actual: keyId,
      }),
    );
    return { rule: 'RPR-JOURNAL-008', ok: false };
  }
  if (k.status === 'revoked') {
    out.push(
      fail('RPR-JOURNAL-009', `${what} is signed by a revoked key (${keyId}, ${k.label || k.role})`, {
        pointer,
        expected: 'a key the trust store has not revoked',
        actual: keyId,
      }),
    );
    return { rule: 'RPR-JOURNAL-009', ok: false };
  }
  if (!verifyBytes(k.publicKey, digest, sig)) {
    out.push(badSignature(what, keyId, pointer));
    return { rule: 'RPR-JOURNAL-007', ok: false };
  }
  if (k.status === 'retired')
    out.push(warning('RPR-JOURNAL-010', `${what} is signed by a retired key (${keyId})`, { pointer }));
  return { rule: '', ok: true };
}

function tornFinding(t: TornTail, lines: number, dir: string): Finding {
  const pointer =
    t.file === ENTRIES_FILE
      ? entryPointer(lines + 1)
      : t.file === NOTES_FILE
        ? notePointer(lines + 1)
        : checkpointPointer(lines + 1);
  return fail(
    'RPR-JOURNAL-013',
    `${t.file} ends with a torn line: ${t.length} byte(s) after the last newline (a write was cut short). Nothing is repaired silently: run 'reprise journal repair ${dir} --key KEY' to truncate it (the repair is journaled)`,
    { pointer },
  );
}

export interface VerifyOptions {
  /**
   * Keep every parsed entry and checkpoint in the result (default true: the workbench lists
   * them, proofs need them). `false` keeps only quarantine entries (what the case fold
   * needs): `reprise journal verify` and `reprise verify DIR` use it to spare memory and GC.
   */
  keep?: boolean;
  /** Progress callback (0..1). */
  progress?: (fraction: number) => void;
  /** Findings kept per rule while reading (`--limit findings-per-rule`; default MAX_FINDINGS_PER_RULE). */
  maxFindingsPerRule?: number;
  /** Collect every line's offset (a writer rebuilding its index). */
  collect?: boolean;
  /** Without a trust store, check the signatures of these keys (a writer's own) and report the others as unavailable. */
  ownKeys?: ReadonlyMap<string, KeyObject>;
  /** The clock of this verification (default Date.now): an entry dated after it by more than CLOCK_TOLERANCE_MS is RPR-JOURNAL-022. */
  clock?: () => number;
}

/** Verifies the journal in `dir`, streaming both files (memory stays bounded whatever their size). */
export async function verifyJournal(
  dir: string,
  trustStore: TrustStore | null,
  opts: VerifyOptions = {},
): Promise<JournalVerification> {
  const pass = newPass(trustStore, opts, new MerkleTree());
  const state = await readStateFirst(dir);
  const es = new EntrySteps(pass, { seq: 0, prevHash: ZERO_HASH, prevTs: null });
  const ef = await streamLines(
    dir,
    ENTRIES_FILE,
    (lines, texts) => lines.forEach((raw, i) => es.step(raw, texts?.[i])),
    (l) => es.overlong(l),
  );
  const cs = new CheckpointSteps(pass, ef.lines, null);
  const cf = await streamLines(
    dir,
    CHECKPOINTS_FILE,
    (lines, texts) => lines.forEach((raw, i) => cs.step(raw, texts?.[i])),
    (l) => cs.overlong(l),
  );
  const ns = new NoteSteps(pass, es.first, ef.lines);
  const nf = await streamLines(
    dir,
    NOTES_FILE,
    (lines, texts) => lines.forEach((raw, i) => ns.step(raw, texts?.[i])),
    (l) => ns.overlong(l),
  );
  ns.finish(cs.out.latest);
  if (!nf.exists) ns.missing(cs.out.latest, await writerWasHere(dir));
  checkSealedState(pass, state, es.first, 0);
  return {
    ...finish(dir, pass, { ef, cf, nf }, es, cs, opts),
    latestNote: ns.latest,
    latestNoteLine: ns.latestLine,
    notesEnd: { offset: nf.size, line: nf.lines },
  };
}

/**
 * state.json, read before the entries: a writer records it only after its entries are on
 * disk, so a state read first never describes more entries than are read after it, even
 * while a writer appends (no false RPR-JOURNAL-047).
 */
const readStateFirst = (dir: string): Promise<TrustedState | null> => readState(dir);

/** RPR-JOURNAL-047: the sealed state against the tree read (sizes from `from` on, for a pass continued from a held checkpoint). */
function checkSealedState(pass: Pass, state: TrustedState | null, firstHash: string | null, from: number): void {
  const tree = pass.tree;
  const rootAt = (n: number): Buffer | null => {
    try {
      return n >= from && n <= tree.size ? tree.root(n) : null;
    } catch {
      return null; // a tree continued from a held checkpoint may not hold every size
    }
  };
  const keyOf = (id: string): SealKey => {
    if (pass.trust) return pass.trust.get(id);
    const own = pass.ownKeys?.get(id);
    return own ? { publicKey: own, status: 'active' } : undefined;
  };
  const f = sealedStateFinding(state, { size: tree.size, firstHash, rootAt }, keyOf);
  if (f) pass.findings.push(f);
}

export const notePointer = (line: number) => `entry:${NOTES_FILE}:line:${line}`;

/** Whether a Reprise writer left its state in the journal's folder (state.json is there, whatever it holds). */
async function writerWasHere(dir: string): Promise<boolean> {
  return lstat(join(dir, STATE_FILE)).then(
    () => true,
    () => false,
  );
}

/**
 * The checkpoints again as C2SP signed notes (notes.jsonl, one JSON string per line): each
 * names this journal (its origin), gives the root recomputed at its size, and is signed by a
 * key the trust store knows under the origin's name; signatures by other keys (a witness's
 * cosignature) are ignored here, as the signed-note spec says.
 */
class NoteSteps {
  latest: string | null = null;
  /** The line of notes.jsonl `latest` was read from. */
  latestLine: number | null = null;
  private latestSize = 0;
  private readonly origin: string | null;
  private readonly known: NoteKey[];

  constructor(
    private readonly pass: Pass,
    firstHash: string | null,
    private readonly size: number,
  ) {
    this.origin = firstHash ? journalOrigin(firstHash) : null;
    const origin = this.origin;
    this.known =
      origin && pass.trust
        ? pass.trust.keys
            .filter((k) => k.status !== 'revoked')
            .map((k) => ({ name: origin, publicKey: rawPublicKey(k.publicKey) }))
        : [];
  }

  overlong(l: OverlongLine): void {
    this.pass.findings.push(
      fail(
        'RPR-JOURNAL-040',
        `the note at ${NOTES_FILE} line ${l.line} is ${l.length} bytes long: not a checkpoint note`,
        { pointer: notePointer(l.line) },
      ),
    );
  }

  step(raw: RawLine, text: string | undefined): void {
    const pointer = notePointer(raw.line);
    const what = `the note at ${NOTES_FILE} line ${raw.line}`;
    const bad = (rule: string, why: string) => this.pass.findings.push(fail(rule, `${what} ${why}`, { pointer }));
    const read = readNoteLine(text ?? raw.bytes.toString('utf8'));
    if (typeof read === 'string') return void bad('RPR-JOURNAL-040', read);
    const { note, checkpoint: cp } = read;
    if (this.origin !== null && cp.origin !== this.origin)
      return void bad(
        'RPR-JOURNAL-040',
        `names the log ${JSON.stringify(cp.origin)}, not this journal (${this.origin})`,
      );
    if (cp.treeSize < this.latestSize)
      bad('RPR-JOURNAL-041', `is for tree ${cp.treeSize}, smaller than the note above it (${this.latestSize})`);
    else if (this.latest !== null && cp.treeSize === this.latestSize)
      this.pass.findings.push(repeated(what, 'note', cp.treeSize, pointer));
    if (cp.treeSize === 0 || cp.treeSize > this.size)
      bad('RPR-JOURNAL-041', `is for tree ${cp.treeSize} but the journal holds ${this.size} entries`);
    else if (!this.pass.tree.root(cp.treeSize).equals(cp.rootHash))
      bad(
        'RPR-JOURNAL-041',
        `gives a root for tree ${cp.treeSize} that differs from the root recomputed over the entries`,
      );
    if (this.pass.trust) {
      const v = verifySignatures(read.parsed, this.known);
      if (!v.ok) bad('RPR-JOURNAL-042', `is not signed by a key the trust store knows: ${v.problems.join('; ')}`);
    }
    this.latest = note;
    this.latestLine = raw.line;
    this.latestSize = cp.treeSize;
    this.pass.collect?.notes.push({ offset: raw.offset, line: raw.line - 1, treeSize: cp.treeSize });
  }

  /**
   * No notes.jsonl at all. A journal written before notes, or by another program, has none
   * (nothing to say); but a writer that left its state here (state.json) writes a note for
   * every checkpoint, so the file was removed, and outside tools lost every signed note.
   */
  missing(latest: Checkpoint | null, writerWasHere: boolean): void {
    if (latest && writerWasHere)
      this.pass.findings.push(
        warning(
          'RPR-JOURNAL-043',
          `${NOTES_FILE} is missing, though the writer whose state is here (${STATE_FILE}) signs a note for every checkpoint: the notes were removed, and tools that are not Reprise cannot read any checkpoint (those in ${CHECKPOINTS_FILE}, up to tree ${latest.treeSize}, are unharmed); the next write starts ${NOTES_FILE} again`,
          { pointer: `entry:${NOTES_FILE}` },
        ),
      );
  }

  /** A journal that writes notes writes one for every checkpoint: the newest checkpoint without one was written by something else. */
  finish(latest: Checkpoint | null): void {
    if (this.latest !== null && latest && latest.treeSize > this.latestSize)
      this.pass.findings.push(
        warning(
          'RPR-JOURNAL-043',
          `the newest checkpoint (tree ${latest.treeSize}) has no signed note; the newest note is for tree ${this.latestSize}: a write was interrupted between a checkpoint and its note (that write was never acknowledged; the next write's note covers the tree), or a writer without notes wrote after it`,
          { pointer: `entry:${NOTES_FILE}` },
        ),
      );
  }
}

/**
 * The same verification over files already read whole (tests, and callers holding the bytes),
 * synchronous, without notes.jsonl.
 */
export function verifyFiles(
  dir: string,
  ef: RawFile,
  cf: RawFile,
  trust: TrustStore | null,
  opts: VerifyOptions = {},
): JournalVerification {
  const pass = newPass(trust, opts, new MerkleTree());
  const es = new EntrySteps(pass, { seq: 0, prevHash: ZERO_HASH, prevTs: null });
  const eTexts = lineTexts(ef);
  ef.lines.forEach((raw, i) => es.step(raw, eTexts?.[i]));
  const cs = new CheckpointSteps(pass, ef.lines.length, null);
  const cTexts = lineTexts(cf);
  cf.lines.forEach((raw, i) => cs.step(raw, cTexts?.[i]));
  const streamed = (f: RawFile): StreamedFile => ({
    name: f.name,
    exists: f.exists,
    lines: f.lines.length,
    torn: f.torn,
    size: f.torn ? f.torn.offset : f.size,
  });
  return finish(dir, pass, { ef: streamed(ef), cf: streamed(cf), nf: null }, es, cs, opts);
}

function newPass(trust: TrustStore | null, opts: VerifyOptions, tree: GrowingTree, since = false): Pass {
  // Bounded: a journal of many damaged lines must not hold millions of findings.
  const bounded = new BoundedFindings();
  if (opts.maxFindingsPerRule !== undefined) bounded.maxPerRule = opts.maxFindingsPerRule;
  const findings: Finding[] = bounded;
  if (!trust)
    findings.push(
      unavailable('RPR-JOURNAL-011', 'no trust store given (--trust-store): authors and signatures cannot be checked'),
    );
  // Progress by lines read: the total is not known while streaming, so it approaches 1 and is 1 at the end.
  let seen = 0;
  const tick = (): void => {
    if (opts.progress && ++seen % 4096 === 0) opts.progress(Math.min(0.99, 1 - 1 / (1 + seen / 100_000)));
  };
  const pass: Pass = {
    trust,
    edits: null,
    keepAll: opts.keep !== false,
    findings,
    tree,
    tick,
    times: new EntryTimes(tree.size),
    latestAllowed: new Date((opts.clock ?? Date.now)() + CLOCK_TOLERANCE_MS).toISOString(),
    signers: new SignerKeys(since ? tree.size : 0),
    claims: new LookalikeClaims(opts.maxFindingsPerRule),
    ...(opts.collect ? { collect: { entryOffsets: [], checkpoints: [], notes: [] } } : {}),
    ...(opts.ownKeys ? { ownKeys: opts.ownKeys } : {}),
  };
  pass.edits = new NoteEdits(pass, since);
  return pass;
}

/** After both files: missing files, torn tails, coverage, the case fold, and the summary. */
function finish(
  dir: string,
  pass: Pass,
  { ef, cf, nf }: { ef: StreamedFile; cf: StreamedFile; nf: StreamedFile | null },
  es: EntrySteps,
  cs: CheckpointSteps,
  opts: VerifyOptions,
  caseRules = true,
): JournalVerification {
  const { findings, tree } = pass;
  const torn: TornTail[] = [];
  if (!ef.exists)
    findings.unshift(fail('RPR-JOURNAL-001', `${ENTRIES_FILE} is missing`, { pointer: `entry:${ENTRIES_FILE}` }));
  if (!cf.exists && (ef.lines > 0 || !ef.exists))
    findings.push(fail('RPR-JOURNAL-001', `${CHECKPOINTS_FILE} is missing`, { pointer: `entry:${CHECKPOINTS_FILE}` }));
  // A torn line of any of the three files a write appends to (docs/journal.md, crash states).
  for (const f of [ef, cf, nf]) {
    if (!f?.torn) continue;
    torn.push(f.torn);
    findings.push(tornFinding(f.torn, f.lines, dir));
  }
  const size = tree.size;
  if (es.future) findings.push(futureFinding(es.future));
  checkCoverage(size, cs.out.covered, cs.out.wellFormed === cs.lines, findings);
  const cases = caseStates(
    caseRules ? es.entries.map((p) => ({ entry: p.entry, hash: p.hash, line: p.line })) : [],
    pass.trust,
  );
  findings.push(...cases.findings);
  if (findings.length === 0 || findings.every((f) => f.severity !== 'fail'))
    findings.push(
      info(
        'RPR-JOURNAL-000',
        `${size} entries, ${cf.lines} checkpoints; Merkle root ${formatHash(tree.root().toString('hex'))}`,
      ),
    );
  opts.progress?.(1);
  return {
    dir,
    findings,
    entryLines: size,
    checkpointLines: cf.lines,
    entries: es.entries,
    checkpoints: cs.out.checkpoints,
    latestCheckpoint: cs.out.latest,
    latestCheckpointOffset: cs.out.latestOffset,
    root: formatHash(tree.root().toString('hex')),
    tree,
    torn,
    cases,
    claimIds: pass.claims.findings(),
    head: es.head,
    firstHash: es.first,
    entriesBytes: ef.size,
    checkpointsBytes: cf.size,
    ...(pass.collect ? { collected: pass.collect } : {}),
    signers: pass.signers.list(),
  };
}

/** A tree a verification grows: the whole tree in memory, or one continued from a held checkpoint. */
export type GrowingTree = MerkleView & { appendLeafHash(h: Buffer): unknown };

/** What one verification pass shares between its entry and checkpoint steps. */
interface Pass {
  trust: TrustStore | null;
  /** RPR-JOURNAL-045: the notes read so far and their edits. */
  edits: NoteEdits | null;
  /** Keep every parsed line (else only quarantine entries). */
  keepAll: boolean;
  findings: Finding[];
  /** The Merkle tree over the entry lines, grown by the entry step. */
  tree: GrowingTree;
  tick: () => void;
  /** Where each line starts (only when a writer rebuilds its index from this pass). */
  collect?: Collected;
  /** Without a trust store: the keys whose signatures can still be checked (a writer's own). */
  ownKeys?: ReadonlyMap<string, KeyObject>;
  /** Each entry's time, for the checkpoint that first covers it (RPR-JOURNAL-022). */
  times: EntryTimes;
  /** The latest time an entry may carry: this verification's clock plus CLOCK_TOLERANCE_MS (RPR-JOURNAL-022). */
  latestAllowed: string;
  /** Every key a signature was checked of. */
  signers: SignerKeys;
  /** RPR-QUAR-008: the claim ids read that may draw as another claim's. */
  claims: LookalikeClaims;
}

/**
 * Each entry's time in ms since the epoch (8 bytes an entry, NaN where the line was not an
 * entry), from entry `base` on: the checkpoint that first covers an entry is checked not to be
 * dated before it, and the checkpoints are read after every entry.
 */
class EntryTimes {
  private ms = new Float64Array(1024);
  private n = 0;

  constructor(readonly base: number) {}

  push(ts: string | null): void {
    if (this.n === this.ms.length) {
      const grown = new Float64Array(this.ms.length * 2);
      grown.set(this.ms);
      this.ms = grown;
    }
    this.ms[this.n++] = ts === null ? NaN : epochMs(ts);
  }

  /** Entry `seq`'s time (NaN when unknown). */
  at(seq: number): number {
    const i = seq - this.base;
    return i >= 0 && i < this.n ? this.ms[i]! : NaN;
  }
}

/**
 * RPR-JOURNAL-045: a note's edit in the journal obeys the rule its writer applies to every edit
 * it signs (note-edit-rule.ts), so a journal written by another tool or by hand does not pass
 * with an edit the writer would refuse.
 */
class NoteEdits {
  private readonly rule: NoteEditRule;

  constructor(
    private readonly pass: Pass,
    since: boolean,
  ) {
    this.rule = new NoteEditRule(pass.trust, since);
  }

  /** Since a held checkpoint: edits naming an entry before it, which this pass did not read. */
  get unchecked(): number {
    return this.rule.unchecked;
  }

  step(e: Entry, hash: string, line: number): void {
    const why = this.rule.step(e, hash, line);
    if (why) this.pass.findings.push(noteEditFinding(line, why, e.body['supersedes']));
  }
}

/** Entries dated after the verification's time (beyond the tolerance): the first, and how many. */
interface FutureEntries {
  line: number;
  ts: string;
  count: number;
}

/** RPR-JOURNAL-007, naming the key whose signature failed (the origin statement names it too). */
function badSignature(what: string, keyId: string, pointer: string | undefined): Finding {
  return fail('RPR-JOURNAL-007', `${what}: the signature does not verify with ${keyId}`, { pointer, actual: keyId });
}

/** A line's signature: against the trust store, or (without one) against the keys the caller holds. */
function checkSigned(pass: Pass, keyId: string, digest: Buffer, sig: string, pointer: string, what: string): void {
  pass.signers.add(keyId);
  if (pass.trust) {
    checkSignature(pass.trust, keyId, digest, sig, pointer, what, pass.findings);
    return;
  }
  if (!pass.ownKeys) return;
  const own = pass.ownKeys.get(keyId);
  if (!own)
    pass.findings.push(
      unavailable(
        'RPR-JOURNAL-011',
        `${what} is signed by ${keyId}, which only the journal's trust store can check (--trust-store)`,
        { pointer },
      ),
    );
  else if (!verifyBytes(own, digest, sig)) pass.findings.push(badSignature(what, keyId, pointer));
}

/** Line offsets a writer's index is rebuilt from. */
export interface Collected {
  entryOffsets: number[];
  /** Each well-formed checkpoint and note: where it starts (offset, lines before it) and its tree size. */
  checkpoints: { offset: number; line: number; treeSize: number }[];
  notes: { offset: number; line: number; treeSize: number }[];
}

/** Entries, one line at a time: shape, seq, prev hash, timestamp order and signature; every line a Merkle leaf. */
class EntrySteps {
  readonly entries: ParsedEntry[] = [];
  private prevHash: string | null; // null: the previous line could not be read
  private prevTs: string | null;
  private i: number;
  /** The last readable entry's hash and timestamp (the chain head a writer continues). */
  head: { hash: string; ts: string } | null = null;
  /** Entry 0's hash (the journal's origin derives from it). */
  first: string | null = null;
  /** Entries dated after this verification's time (RPR-JOURNAL-022). */
  future: FutureEntries | null = null;

  constructor(
    private readonly pass: Pass,
    from: { seq: number; prevHash: string | null; prevTs: string | null },
  ) {
    this.i = from.seq;
    this.prevHash = from.prevHash;
    this.prevTs = from.prevTs;
  }

  /** A line too long to hold is a leaf of the tree and a finding, and breaks the chain. */
  overlong(l: OverlongLine): void {
    this.pass.tree.appendLeafHash(l.leaf);
    this.pass.times.push(null);
    this.pass.collect?.entryOffsets.push(l.offset);
    this.pass.findings.push(
      fail(
        'RPR-JOURNAL-002',
        `entry at line ${l.line} is ${l.length} bytes long, over the ${MAX_LINE_BYTES}-byte limit of a journal line`,
        { pointer: entryPointer(l.line) },
      ),
    );
    this.prevHash = null;
    this.head = null;
    this.i++;
  }

  step(raw: RawLine, text: string | undefined): void {
    const { keepAll, findings, tree } = this.pass;
    const i = this.i++;
    this.pass.tick();
    tree.appendLeafHash(leafHash(raw.bytes));
    this.pass.collect?.entryOffsets.push(raw.offset);
    const pointer = entryPointer(raw.line);
    const what = `entry at line ${raw.line}`;
    const p = parseLine(raw, text, pointer, what, findings);
    const shape = p ? checkEntryShape(p.value, pointer) : [];
    if (!p || shape.length > 0) {
      findings.push(...shape);
      this.pass.times.push(null);
      this.prevHash = null;
      this.head = null;
      return;
    }
    const e = p.value as Entry;
    this.pass.times.push(e.recordedAtUtc);
    this.checkNotFuture(e.recordedAtUtc, raw.line);
    const digest = unsignedDigestOfLine(p.text, e.sig, 'subject') ?? unsignedDigest(e);
    const hash = formatHash(digest.toString('hex'));
    // RPR-JOURNAL-005: seq counts from 0 without gaps (a removed or reordered line breaks it).
    if (e.seq !== i)
      findings.push(
        fail(
          'RPR-JOURNAL-005',
          `${what} has seq ${e.seq}; line ${raw.line} must hold seq ${i} (an entry was removed, inserted or reordered)`,
          { pointer, expected: i, actual: e.seq },
        ),
      );
    // RPR-JOURNAL-006: prev is the previous entry's hash.
    if (this.prevHash !== null && e.prev !== this.prevHash)
      findings.push(
        fail(
          'RPR-JOURNAL-006',
          `${what}: prev is not the hash of the entry before it (an entry was altered, removed or reordered)`,
          { pointer, expected: this.prevHash, actual: e.prev },
        ),
      );
    // RPR-JOURNAL-012: timestamps never go backwards.
    if (this.prevTs !== null && compareTimestamps(e.recordedAtUtc, this.prevTs) < 0)
      findings.push(
        fail('RPR-JOURNAL-012', `${what} is recorded before the entry above it (timestamps go backwards)`, {
          pointer,
          expected: `>= ${this.prevTs}`,
          actual: e.recordedAtUtc,
        }),
      );
    this.prevTs = e.recordedAtUtc;
    checkSigned(this.pass, e.author, digest, e.sig, pointer, what);
    this.prevHash = hash;
    this.head = { hash, ts: e.recordedAtUtc };
    if (i === 0) this.first = hash;
    this.pass.edits?.step(e, hash, raw.line);
    this.pass.claims.step(e, raw.line);
    if (keepAll || e.kind.startsWith('quarantine-'))
      this.entries.push({ line: raw.line, entry: e, hash, text: p.text });
  }

  /** RPR-JOURNAL-022 (reported once, in finish): an entry dated after this verification's time. */
  private checkNotFuture(ts: string, line: number): void {
    if (compareTimestamps(ts, this.pass.latestAllowed) <= 0) return;
    if (this.future) this.future.count++;
    else this.future = { line, ts, count: 1 };
  }
}

/** RPR-JOURNAL-022: the entries dated after the verification's time, as one warning at the first. */
function futureFinding(f: FutureEntries): Finding {
  const more = f.count > 1 ? ` (${f.count} entries from it on are dated so)` : '';
  return warning(
    'RPR-JOURNAL-022',
    `entry at line ${f.line} is dated ${f.ts}, later than the time of this verification by more than ${CLOCK_TOLERANCE_MS / 60_000} minutes${more}: it was written by a machine whose clock was ahead, or its time is false. An entry is never dated before the one above it, so entries written after it carry its date too, not the moments they were made`,
    {
      pointer: entryPointer(f.line),
      expected: `not after the time of this verification (+${CLOCK_TOLERANCE_MS / 60_000} minutes)`,
      actual: f.ts,
    },
  );
}

/** A checkpoint already read, as the next one is checked against it. */
interface PriorCheckpoint {
  cp: Checkpoint;
  line: number;
  /** Its root equals the root recomputed over its prefix of the entry lines. */
  rootOk: boolean;
}

interface CheckpointPass {
  checkpoints: ParsedCheckpoint[];
  latest: Checkpoint | null;
  /** Where the latest well-formed checkpoint's line starts in its file. */
  latestOffset: number | null;
  /** The largest tree size any checkpoint covers. */
  covered: number;
  wellFormed: number;
}

/** Checkpoints, one line at a time: shape, signature, root over the entry lines, and consistency with the one above it. */
class CheckpointSteps {
  readonly out: CheckpointPass = { checkpoints: [], latest: null, latestOffset: null, covered: 0, wellFormed: 0 };
  lines = 0;

  constructor(
    private readonly pass: Pass,
    /** Entry lines in the journal. */
    private readonly size: number,
    /** The checkpoint the first one is checked against (a held one, for a verification since it). */
    private prevCp: PriorCheckpoint | null,
  ) {
    // Since a held checkpoint, what it covers is covered.
    if (prevCp) this.out.covered = prevCp.cp.treeSize;
  }

  overlong(l: OverlongLine): void {
    this.lines++;
    this.pass.findings.push(
      fail(
        'RPR-JOURNAL-014',
        `checkpoint at ${CHECKPOINTS_FILE} line ${l.line} is ${l.length} bytes long: not a checkpoint`,
        { pointer: checkpointPointer(l.line) },
      ),
    );
  }

  step(raw: RawLine, text: string | undefined): void {
    const { keepAll, findings, tree } = this.pass;
    const { out, size } = this;
    this.lines++;
    this.pass.tick();
    const pointer = checkpointPointer(raw.line);
    const what = `checkpoint at ${CHECKPOINTS_FILE} line ${raw.line}`;
    const fast = recognizeCheckpoint(text);
    const p = fast ?? parseLine(raw, text, pointer, what, findings);
    if (!p) return;
    const shape = fast ? [] : checkCheckpointShape(p.value, pointer);
    if (shape.length > 0) {
      findings.push(...shape);
      return;
    }
    const cp = fast ? fast.cp : (p.value as Checkpoint);
    out.latest = cp;
    out.latestOffset = raw.offset;
    out.wellFormed++;
    this.checkCoveredDates(cp, pointer, what);
    if (cp.treeSize > out.covered) out.covered = cp.treeSize;
    this.pass.collect?.checkpoints.push({ offset: raw.offset, line: raw.line - 1, treeSize: cp.treeSize });
    if (keepAll) out.checkpoints.push({ line: raw.line, checkpoint: cp, text: p.text });
    checkSigned(
      this.pass,
      cp.signer,
      unsignedDigestOfLine(p.text, cp.sig, 'signer') ?? unsignedDigest(cp),
      cp.sig,
      pointer,
      what,
    );
    let rootOk = false;
    if (cp.treeSize > size) {
      findings.push(
        fail(
          'RPR-JOURNAL-016',
          `${what} covers ${cp.treeSize} entries but ${ENTRIES_FILE} holds ${size}: signed entries from line ${size + 1} on were removed (truncated)`,
          { pointer, expected: cp.treeSize, actual: size },
        ),
      );
    } else {
      const root = formatHash(tree.root(cp.treeSize).toString('hex'));
      rootOk = root === cp.rootHash;
      if (!rootOk)
        findings.push(
          fail(
            'RPR-JOURNAL-015',
            `${what}: rootHash differs from the Merkle root recomputed over the first ${cp.treeSize} entry lines`,
            { pointer, expected: root, actual: cp.rootHash },
          ),
        );
    }
    if (this.prevCp) checkAgainstPrior(cp, rootOk, this.prevCp, size, tree, pointer, what, findings);
    this.prevCp = { cp, line: raw.line, rootOk };
  }

  /** RPR-JOURNAL-022: an entry this checkpoint is the first to cover (and so signs into the tree) is not dated after it. */
  private checkCoveredDates(cp: Checkpoint, pointer: string, what: string): void {
    const signedAt = epochMs(cp.timestampUtc);
    const end = Math.min(cp.treeSize, this.size);
    for (let seq = this.out.covered; seq < end; seq++) {
      const t = this.pass.times.at(seq);
      if (!(t > signedAt)) continue;
      this.pass.findings.push(
        warning(
          'RPR-JOURNAL-022',
          `entry at line ${seq + 1} is dated after ${what}, the first checkpoint that covers it: an entry cannot be made after the tree head that signs it, so one of the two times is false (a clock was wrong, or the entry was dated on purpose)`,
          {
            pointer: entryPointer(seq + 1),
            expected: `<= ${cp.timestampUtc} (${pointer})`,
            actual: new Date(t).toISOString(),
          },
        ),
      );
    }
  }
}

/**
 * RPR-JOURNAL-046: a checkpoint or note for the same tree as the one above it. The writer
 * signs one of each per entry it appends, so the sizes grow line by line; a repeated one
 * (a line copied in, or written by another program) changes no root, so it is a warning.
 */
function repeated(what: string, above: string, treeSize: number, pointer: string): Finding {
  return warning(
    'RPR-JOURNAL-046',
    `${what} repeats tree size ${treeSize} of the ${above} above it: a writer signs one per entry it appends, so this line was copied in or written by another program`,
    { pointer },
  );
}

/** A checkpoint against the one above it: time order, size order, and (where a root differs) an RFC 9162 consistency proof. */
function checkAgainstPrior(
  cp: Checkpoint,
  rootOk: boolean,
  prevCp: PriorCheckpoint,
  size: number,
  tree: GrowingTree,
  pointer: string,
  what: string,
  findings: Finding[],
): void {
  const a = prevCp.cp;
  if (compareTimestamps(cp.timestampUtc, a.timestampUtc) < 0)
    findings.push(
      fail('RPR-JOURNAL-019', `${what} is timestamped before the checkpoint above it (timestamps go backwards)`, {
        pointer,
        expected: `>= ${a.timestampUtc}`,
        actual: cp.timestampUtc,
      }),
    );
  // Line 0 is no line of the file: the checkpoint an auditor holds (verify --since), which the file's own line repeats.
  if (cp.treeSize === a.treeSize && prevCp.line > 0)
    findings.push(repeated(what, `checkpoint at line ${prevCp.line}`, cp.treeSize, pointer));
  if (cp.treeSize < a.treeSize) {
    findings.push(
      fail(
        'RPR-JOURNAL-017',
        `${what} has treeSize ${cp.treeSize}, smaller than the checkpoint above it (${a.treeSize}): checkpoints are inconsistent`,
        { pointer, expected: `>= ${a.treeSize}`, actual: cp.treeSize },
      ),
    );
  } else if (cp.treeSize <= size && !(rootOk && prevCp.rootOk)) {
    // RFC 9162 2.1.4: prove the earlier tree head is a prefix of this one. When both
    // roots equal the roots recomputed over prefixes of the same entry lines, the
    // earlier tree *is* a prefix of the later one (a stronger fact than a proof), so
    // the proof is only built and checked where a root differs, to name the fork.
    const proof = tree.consistencyProof(a.treeSize, cp.treeSize);
    const ok = verifyConsistency(
      a.treeSize,
      cp.treeSize,
      Buffer.from(a.rootHash.slice(7), 'hex'),
      Buffer.from(cp.rootHash.slice(7), 'hex'),
      proof,
    );
    if (!ok)
      findings.push(
        fail(
          'RPR-JOURNAL-017',
          `${what} is not consistent (RFC 9162 consistency proof) with the checkpoint at line ${prevCp.line}`,
          {
            pointer,
            expected: `extends tree ${a.treeSize} ${a.rootHash}`,
            actual: `tree ${cp.treeSize} ${cp.rootHash}`,
          },
        ),
      );
  }
}

/**
 * Coverage: the writer leaves at most one entry without a checkpoint (a crash between
 * the two fsyncs); that entry was never acknowledged. More than one is a removed checkpoint.
 */
function checkCoverage(size: number, covered: number, allCheckpointsWellFormed: boolean, findings: Finding[]): void {
  if (size <= covered) return;
  const n = size - covered;
  const pointer = entryPointer(covered + 1);
  if (n === 1 && allCheckpointsWellFormed)
    findings.push(
      warning(
        'RPR-JOURNAL-020',
        `the last entry (line ${size}) has no checkpoint: a write was interrupted before its checkpoint (the entry was never acknowledged); the next write covers it`,
        { pointer },
      ),
    );
  else
    findings.push(
      fail(
        'RPR-JOURNAL-021',
        `${n} entries (from line ${covered + 1}) are covered by no checkpoint: checkpoints were removed or never written`,
        { pointer, expected: size, actual: covered },
      ),
    );
}

/** A checkpoint held elsewhere: its shape, and (with a trust store) its signer and signature. */
export function checkHeldShapeAndSignature(held: unknown, trust: TrustStore | null): Finding[] {
  // Nothing held (null, or a report that carries no checkpoint) is refused: never read as "no held checkpoint".
  if (!isPlainObject(held))
    return [
      fail(
        'RPR-JOURNAL-014',
        'the held file holds no checkpoint: it must be a checkpoint, or a report whose details.latestCheckpoint is one (a journal report of a journal with a checkpoint)',
      ),
    ];
  const shape = checkCheckpointShape(held, undefined);
  if (shape.length > 0) return shape;
  const cp = held as unknown as Checkpoint;
  const out: Finding[] = [];
  if (trust) checkSignature(trust, cp.signer, unsignedDigest(cp), cp.sig, undefined, 'the held checkpoint', out);
  return out;
}

/**
 * Checks a checkpoint held elsewhere (from an earlier report or export) against the journal:
 * the journal must still extend it. Its size must not exceed the journal (truncation), its
 * root must equal the recomputed root at its size, and an RFC 9162 consistency proof from
 * it to the journal's latest checkpoint must verify. Breaks are RPR-JOURNAL-018.
 */
export function checkHeldCheckpoint(v: JournalVerification, held: unknown, trust: TrustStore | null): Finding[] {
  const pointer = undefined; // the held checkpoint is outside the journal: messages name it
  const out = checkHeldShapeAndSignature(held, trust);
  if (out.some((f) => f.rule === 'RPR-JOURNAL-014')) return out;
  const cp = held as Checkpoint;
  if (cp.treeSize > v.entryLines) {
    out.push(
      fail(
        'RPR-JOURNAL-018',
        `the held checkpoint covers ${cp.treeSize} entries but the journal holds ${v.entryLines}: entries were removed since it was issued`,
        { pointer, expected: `>= ${cp.treeSize} entries`, actual: v.entryLines },
      ),
    );
    return out;
  }
  const root = formatHash(v.tree.root(cp.treeSize).toString('hex'));
  if (root !== cp.rootHash)
    out.push(
      fail(
        'RPR-JOURNAL-018',
        `the journal's first ${cp.treeSize} entries no longer hash to the held checkpoint's root: the journal was rewritten`,
        { pointer, expected: cp.rootHash, actual: root },
      ),
    );
  const latest = v.latestCheckpoint;
  if (latest && latest.treeSize >= cp.treeSize && latest.treeSize <= v.entryLines) {
    const proof = v.tree.consistencyProof(cp.treeSize, latest.treeSize);
    if (
      !verifyConsistency(
        cp.treeSize,
        latest.treeSize,
        Buffer.from(cp.rootHash.slice(7), 'hex'),
        Buffer.from(latest.rootHash.slice(7), 'hex'),
        proof,
      )
    )
      out.push(
        fail(
          'RPR-JOURNAL-018',
          `the latest checkpoint (tree ${latest.treeSize}) is not consistent with the held checkpoint (tree ${cp.treeSize}) by an RFC 9162 consistency proof`,
          { pointer, expected: `extends ${cp.rootHash}`, actual: latest.rootHash },
        ),
      );
  }
  if (out.length === 0)
    out.push(
      info(
        'RPR-JOURNAL-000',
        `the journal extends the held checkpoint (tree ${cp.treeSize}, ${cp.rootHash}) consistently (RFC 9162)`,
        { pointer },
      ),
    );
  return out;
}

/** What a verification since the held checkpoint of tree `m` read anew, the journal holding `lines` entries. */
function readSince(m: number, lines: number): string {
  if (lines <= m) return 'no entry was added after it';
  const entries = lines === m + 1 ? `entry ${lines}` : `entries ${m + 1} to ${lines}`;
  return `${entries} and the checkpoints after it`;
}

/**
 * `journal verify --since CHECKPOINT`: what an auditor who already holds a checkpoint needs,
 * without re-reading what it commits to. The held checkpoint's root must be the root the
 * journal's tree file gives at its size (so the frontier read from that file is the held
 * tree's own); the entry before it is proven included in the held tree (so its hash is
 * the chain's anchor); then only the entries, checkpoints and notes after it are read and
 * checked as a full verification checks them, on a tree continued from the frontier, and
 * an RFC 9162 consistency proof from the held checkpoint to the newest one must verify.
 * Null when the journal's index cannot be used (absent, stale, or not matching): the caller
 * verifies in full and checks the held checkpoint against that.
 */
export async function verifyJournalSince(
  dir: string,
  held: Checkpoint,
  trust: TrustStore | null,
  opts: VerifyOptions = {},
): Promise<JournalVerification | null> {
  const m = held.treeSize;
  const anchor = await sinceAnchor(dir, held);
  if (!anchor) return null;
  const state = await readStateFirst(dir);
  const pass = newPass(trust, opts, new ContinuedTree(m, frontierBase(m, anchor.frontier)), true);
  const es = new EntrySteps(pass, { seq: m, prevHash: anchor.prevHash, prevTs: anchor.prevTs });
  try {
    const ef = await streamLines(
      dir,
      ENTRIES_FILE,
      (lines, texts) => lines.forEach((raw, i) => es.step(raw, texts?.[i])),
      (l) => es.overlong(l),
      { offset: anchor.record.entryOffset, line: m },
    );
    const cs = new CheckpointSteps(pass, ef.lines, { cp: held, line: 0, rootOk: true });
    const cf = await streamLines(
      dir,
      CHECKPOINTS_FILE,
      (lines, texts) => lines.forEach((raw, i) => cs.step(raw, texts?.[i])),
      (l) => cs.overlong(l),
      anchor.record.checkpoints,
    );
    const ns = new NoteSteps(pass, anchor.firstHash, ef.lines);
    const nf = await streamLines(
      dir,
      NOTES_FILE,
      (lines, texts) => lines.forEach((raw, i) => ns.step(raw, texts?.[i])),
      (l) => ns.overlong(l),
      anchor.record.notes,
    );
    ns.finish(cs.out.latest);
    pass.findings.push(...sinceConsistency(held, cs.out.latest, pass.tree));
    checkSealedState(pass, state, anchor.firstHash, m);
    const unchecked = pass.edits?.unchecked ?? 0;
    if (unchecked > 0)
      pass.findings.push(
        info(
          'RPR-JOURNAL-045',
          `${unchecked} note edit(s) after the held checkpoint name an entry before it: whether that is a note on the same artifact that nothing superseded yet needs the whole journal ('journal verify' without --since)`,
        ),
      );
    pass.findings.push(
      info(
        'RPR-JOURNAL-000',
        `verified since the held checkpoint (tree ${m}, ${held.rootHash}): ${readSince(m, ef.lines)}. Entries 1 to ${m} were not parsed or signature-checked again: ${anchor.vouched === 'state' ? `the held root is the one the journal's tree file gives, and every journal file is as the last writer left it (state.json's identities), so none was changed outside a writer since` : `their lines were hashed again and give the held root`}. The quarantine case rules need the whole journal ('journal verify' without --since)`,
      ),
    );
    return {
      ...finish(dir, pass, { ef, cf, nf }, es, cs, opts, false),
      // Entry 0 is not read again: its hash comes from the anchor (it names the journal's origin).
      firstHash: anchor.firstHash,
      latestNote: ns.latest,
      latestNoteLine: ns.latestLine,
    };
  } catch (e) {
    // A checkpoint or note after the held one for a tree smaller than it: the index pointed at the wrong place.
    if (e instanceof RangeError) return null;
    throw e;
  }
}

/** RFC 9162 2.1.4: the newest checkpoint extends the held one, by a consistency proof over the continued tree. */
function sinceConsistency(held: Checkpoint, latest: Checkpoint | null, tree: MerkleView): Finding[] {
  if (!latest || latest.treeSize > tree.size || latest.treeSize < held.treeSize) return [];
  const proof = tree.consistencyProof(held.treeSize, latest.treeSize);
  const ok = verifyConsistency(
    held.treeSize,
    latest.treeSize,
    Buffer.from(held.rootHash.slice(7), 'hex'),
    Buffer.from(latest.rootHash.slice(7), 'hex'),
    proof,
  );
  return [
    ok
      ? info(
          'RPR-JOURNAL-000',
          `the newest checkpoint (tree ${latest.treeSize}) extends the held checkpoint (tree ${held.treeSize}): RFC 9162 consistency proof of ${proof.length} hashes verified`,
        )
      : fail(
          'RPR-JOURNAL-018',
          `the newest checkpoint (tree ${latest.treeSize}) is not consistent with the held checkpoint (tree ${held.treeSize}) by an RFC 9162 consistency proof`,
          { expected: `extends ${held.rootHash}`, actual: latest.rootHash },
        ),
  ];
}

interface SinceAnchor {
  frontier: Buffer[];
  record: IndexRecord;
  prevHash: string;
  prevTs: string;
  firstHash: string | null;
  /** What vouches for the entries before the held size, which a verification since it does not parse or re-check. */
  vouched: 'state' | 'rehashed';
}

/**
 * Where reading starts since a held checkpoint of m entries, and what makes its root the
 * root of the journal's first m entry lines. The entries before it are not re-verified (that
 * is the point of --since), but a derived file an attacker can edit (tree.bin, index.bin) must
 * not be what makes a PASS. So the derived files are used as they are only when they are
 * provably the last writer's, by the writer's own identity check (state.json: every file's
 * device, inode, size, mtime and ctime as the writer left them after stamping each with a time
 * of its own, docs/journal.md "The trusted state"): an edit made outside a writer changes
 * them. Otherwise the first m lines are re-hashed (SHA-256 only: no parse, no signature) and
 * their own frontier, not tree.bin's, must give the held root. Null (the caller verifies in
 * full) when neither holds. Left: an adversary who edits entries.jsonl and rewrites state.json
 * to match (the identity check's limit, as for the writer); the report says what vouched.
 */
async function sinceAnchor(dir: string, held: Checkpoint): Promise<SinceAnchor | null> {
  const m = held.treeSize;
  const opened: FileHandle[] = [];
  try {
    const [treeFh, indexFh, entriesFh] = await Promise.all(
      [TREE_FILE, INDEX_FILE, ENTRIES_FILE].map(async (f) => openJournalFile(dir, f, 'read')),
    );
    opened.push(treeFh!, indexFh!, entriesFh!);
    if ((await treeFh!.stat()).size < treeBytes(m) || (await indexFh!.stat()).size < indexBytes(m)) return null;
    const tree = new TreeFile(treeFh!, m, []);
    const vouched = (await writerLeftThem(dir, { tree: treeFh!, index: indexFh!, entries: entriesFh! }, opened))
      ? 'state'
      : 'rehashed';
    const real = vouched === 'rehashed' ? await prefixFrontier(dir, m) : null;
    if (vouched === 'rehashed' && !real) return null;
    const frontier = real ? real.frontier : tree.readFrontier(m);
    if (formatHash(frontierRoot(frontier)!.toString('hex')) !== held.rootHash) return null;
    const before = await readIndex(indexFh!, m - 1);
    const record = (await indexFh!.stat()).size >= indexBytes(m + 1) ? await readIndex(indexFh!, m) : null;
    const line = await readLineAt(entriesFh!, before.entryOffset);
    const end = before.entryOffset + line.length + 1;
    if (real) {
      // The index must point at the lines just hashed: entry m-1 is the last of them, entry m follows.
      if (!leafHash(line).equals(real.last) || end !== real.end || (record && record.entryOffset !== end)) return null;
    } else if (
      !verifyInclusion(
        leafHash(line),
        m - 1,
        m,
        tree.inclusionProof(m - 1, m),
        Buffer.from(held.rootHash.slice(7), 'hex'),
      )
    )
      return null;
    const e = parseCanonical(line.toString('utf8')).value as Entry;
    if (checkEntryShape(e, '').length > 0) return null;
    const first = m === 1 ? entryHash(e) : await firstEntryHash(entriesFh!);
    // Where the newer checkpoints and notes begin: index.bin's word only when the state vouches
    // for it, else read from those files, so that no line for a tree after the held one is skipped.
    const places = real ? await placesAfterHeld(dir, m) : { checkpoints: before.checkpoints, notes: before.notes };
    return {
      frontier,
      record: { entryOffset: record?.entryOffset ?? end, ...places },
      prevHash: entryHash(e),
      prevTs: e.recordedAtUtc,
      firstHash: first,
      vouched,
    };
  } catch {
    return null;
  } finally {
    await Promise.allSettled(opened.map((f) => f.close()));
  }
}

/** The writer's identity check (state.json): every journal file, derived ones included, is as the last writer recorded it. */
async function writerLeftThem(
  dir: string,
  fhs: { tree: FileHandle; index: FileHandle; entries: FileHandle },
  opened: FileHandle[],
): Promise<boolean> {
  const rec = await readState(dir);
  if (!rec) return false;
  const checkpoints = await openJournalFile(dir, CHECKPOINTS_FILE, 'read');
  opened.push(checkpoints);
  const notes = await openJournalFile(dir, NOTES_FILE, 'read');
  opened.push(notes);
  const now = {
    entries: await identityOf(fhs.entries),
    checkpoints: await identityOf(checkpoints),
    notes: await identityOf(notes),
    tree: await identityOf(fhs.tree),
    index: await identityOf(fhs.index),
  };
  return (
    identityMismatch(rec, now) === null &&
    now.tree.size === treeBytes(rec.treeSize) &&
    now.index.size === indexBytes(rec.treeSize) &&
    now.entries.size === rec.entriesBytes
  );
}

/**
 * The frontier (compact range) of the tree over the first m entry lines as they are on disk,
 * their last leaf, and where line m starts: O(m) SHA-256 over the bytes and O(log m) memory.
 * Null when the file has fewer than m lines.
 */
async function prefixFrontier(
  dir: string,
  m: number,
): Promise<{ frontier: Buffer[]; last: Buffer; end: number } | null> {
  const sizes: number[] = [];
  const frontier: Buffer[] = [];
  let n = 0;
  let last: Buffer | null = null;
  let end = 0;
  const add = (leaf: Buffer, offset: number, length: number): void => {
    if (n >= m) return;
    n++;
    last = leaf;
    end = offset + length + 1;
    let h = leaf;
    let size = 1;
    // Equal neighbours merge, as the tree's aligned blocks do: the stack stays one hash per set bit of n.
    while (sizes.length > 0 && sizes[sizes.length - 1] === size) {
      h = nodeHash(frontier.pop()!, h);
      size += sizes.pop()!;
    }
    frontier.push(h);
    sizes.push(size);
  };
  await streamLines(
    dir,
    ENTRIES_FILE,
    (lines) => lines.forEach((l) => add(leafHash(l.bytes), l.offset, l.bytes.length)),
    (l) => add(l.leaf, l.offset, l.length),
  );
  return n === m && last ? { frontier, last, end } : null;
}

/** Where the checkpoints and notes for trees of m entries and more begin, read from checkpoints.jsonl and notes.jsonl. */
async function placesAfterHeld(dir: string, m: number): Promise<{ checkpoints: FilePlace; notes: FilePlace }> {
  const checkpointSize = (text: string) => recognizeCheckpoint(text)?.cp.treeSize ?? null;
  const noteSize = (text: string) => {
    const read = readNoteLine(text);
    return typeof read === 'string' ? null : read.checkpoint.treeSize;
  };
  return {
    checkpoints: await firstPlaceFrom(dir, CHECKPOINTS_FILE, m, checkpointSize),
    notes: await firstPlaceFrom(dir, NOTES_FILE, m, noteSize),
  };
}

/**
 * Where a verification since a held tree of m entries starts reading a file of checkpoints or
 * notes: at its first line that is not a well-formed line for a smaller tree (one for tree m or
 * more, or one that cannot be read), else at the end of its complete lines. Everything from
 * there on is read and checked; only a leading run of lines for older trees is passed over.
 */
async function firstPlaceFrom(
  dir: string,
  name: string,
  m: number,
  treeSizeOf: (text: string) => number | null,
): Promise<FilePlace> {
  let place: FilePlace | null = null;
  const found = (l: { offset: number; line: number }) => void (place ??= { offset: l.offset, line: l.line - 1 });
  const file = await streamLines(
    dir,
    name,
    (lines, texts) => {
      for (let i = 0; i < lines.length && place === null; i++) {
        const size = texts ? treeSizeOf(texts[i]!) : null;
        if (size === null || size >= m) found(lines[i]!);
      }
    },
    found,
  );
  return place ?? { offset: file.size, line: file.lines };
}

/** Entry 0's hash (the notes' origin comes from it): the first line of entries.jsonl. */
async function firstEntryHash(fh: FileHandle): Promise<string | null> {
  try {
    return entryHash(parseCanonical((await readLineAt(fh, 0)).toString('utf8')).value as Entry);
  } catch {
    return null;
  }
}

/** The line starting at `offset` (up to its newline; at most MAX_LINE_BYTES). */
async function readLineAt(fh: FileHandle, offset: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let pos = offset;
  for (let total = 0; total <= MAX_LINE_BYTES;) {
    const b = Buffer.alloc(64 * 1024);
    const { bytesRead } = await fh.read(b, 0, b.length, pos);
    if (bytesRead === 0) break;
    const nl = b.subarray(0, bytesRead).indexOf(0x0a);
    if (nl !== -1) {
      parts.push(b.subarray(0, nl));
      return Buffer.concat(parts);
    }
    parts.push(b.subarray(0, bytesRead));
    pos += bytesRead;
    total += bytesRead;
  }
  throw new RangeError('no complete line at the indexed offset');
}

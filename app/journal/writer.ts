/**
 * The journal writer: one process at a time (lock.ts), every write durable before it
 * returns. An append writes the entry line with O_APPEND and fsyncs it, then writes the
 * checkpoint line covering it and fsyncs that; when a file is created, the directory is
 * fsynced too so the new name survives a power cut. An append is all or nothing: on any
 * failure (a full disk, a file-size limit, an I/O error) every file it touched is cut back
 * to its length before the append and fsynced, under the lock, before the error is thrown,
 * so "not recorded" is always true; if that undo fails, the error says the state is
 * unknown. A torn tail (left only by a crash) refuses appends until an explicit repair
 * (which is itself journaled and equally all or nothing); nothing is repaired silently.
 * Quarantine entries are held to the workflow's rules here, not only by their commands, and
 * a note's edit to the rule `journal verify` holds it to (note-edit-rule.ts).
 */
import { lstat, mkdir, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import { fstatSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { FileReadError, fsyncPath, isMissing } from '../core/files.js';
import { formatHash, sha256Hex } from '../core/hash.js';
import { type Signer, type TrustStore } from '../core/keys.js';
import { signerProblem } from './signers.js';

export { signerProblem, type SignerRule } from './signers.js';
import { epochMs, nowUtc } from '../core/time.js';
import { ioReason, JournalError } from './errors.js';
import {
  checkSubject,
  CHECKPOINTS_FILE,
  ENTRIES_FILE,
  ENTRY_KINDS,
  journalOrigin,
  NOTES_FILE,
  COSIGNATURES_FILE,
  signCheckpoint,
  signEntry,
  type Checkpoint,
  type Entry,
  type EntryKind,
  type JsonObject,
  type Subject,
} from './format.js';
import {
  frontierRoot,
  INDEX_FILE,
  indexBytes,
  indexRecord,
  openJournalFile,
  readAt,
  readIndex,
  type IndexRecord,
  STATE_FILE,
  TREE_FILE,
  TreeFile,
  writeAllAt,
} from './frontier.js';
import { acquireLock, type HeldLock } from './lock.js';
import { caseEntryProblem, hashedQuarantine } from './case-append.js';
import { newEntryClaimProblem } from './claim-ids.js';
import { caseStates, decisionOfKind, type CaseFold } from './cases.js';
import { isNoteEdit, NOTE_EDIT_RULE, NoteEditRule, readNoteEdits, type NoteEditView } from './note-edit-rule.js';
import {
  fromFullVerification,
  fromTrustedState,
  readLastNote,
  refuseFindings,
  saveState,
  sealerFor,
  type Handles,
  type WriterState,
} from './trusted-state.js';
import { ContinuedTree, leafHash, verifyConsistency, type MerkleView } from './merkle.js';
import { checkpointBody, signNote } from './note.js';
import { PROOF_TYPE, type InclusionProof } from './proofs.js';
import { MAX_LINE_BYTES, readJournalFile, readJournalFiles, type TornTail } from './read.js';
import { CLOCK_TOLERANCE_MS } from './verify.js';
import { compareTimestamps } from '../../shared/timestamps.js';

export interface AppendInput {
  kind: EntryKind;
  subject: Subject;
  body: JsonObject;
}

export interface AppendResult {
  seq: number;
  entryHash: string;
  entry: Entry;
  checkpoint: Checkpoint;
  /** The entry's line as written (its Merkle leaf). */
  line: string;
}

export interface WriterOptions {
  /** Create the directory and files when absent (default true). */
  create?: boolean;
  /** Clock for recordedAtUtc/timestampUtc (tests and deterministic examples). */
  clock?: () => number;
  /** fsync after each write (default true). Only benchmarks and generators turn it off. */
  fsync?: boolean;
  /** The trust store the journal is verified with before it is written to (without one, only the signer's own signatures can be checked). */
  trustStore?: TrustStore | null;
}

/** Whether a name is taken (a link to nothing included: it is not a file this writer may create, nor remove). */
async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** Creates the journal directory when allowed; returns the first directory it made (to remove if nothing gets recorded). */
async function prepareDir(dir: string, create: boolean): Promise<string | undefined> {
  if (!create) {
    if (!(await exists(join(dir, ENTRIES_FILE))))
      throw new JournalError(`${dir} is not a journal (no ${ENTRIES_FILE})`, 'NOT_FOUND');
    return undefined;
  }
  try {
    const made = await mkdir(dir, { recursive: true });
    // A new directory's own name must survive a power cut too.
    if (made !== undefined) await fsyncPath(dirname(made));
    return made;
  } catch (e) {
    throw new JournalError(`not recorded: cannot create journal directory ${dir} (${ioReason(e)})`, 'IO');
  }
}

/** Opens the journal's files (creating them, and then fsyncing the directory, when absent). */
async function openFiles(dir: string): Promise<{ fhs: Handles; created: string[] }> {
  const names = [ENTRIES_FILE, CHECKPOINTS_FILE, NOTES_FILE, TREE_FILE, INDEX_FILE] as const;
  const created: string[] = [];
  const handles: FileHandle[] = [];
  try {
    await checkStateFile(dir);
    for (const name of names) {
      if (!(await exists(join(dir, name)))) created.push(name);
      handles.push(await openJournalFile(dir, name, name === TREE_FILE || name === INDEX_FILE ? 'update' : 'append'));
    }
    if (created.length > 0) await fsyncPath(dir);
    return {
      fhs: {
        entries: handles[0]!,
        checkpoints: handles[1]!,
        notes: handles[2]!,
        tree: handles[3]!,
        index: handles[4]!,
      },
      created,
    };
  } catch (e) {
    await Promise.allSettled(handles.map((h) => h.close()));
    for (const f of created) await unlink(join(dir, f)).catch(() => undefined);
    throw new JournalError(
      `not recorded: cannot open journal ${dir} for writing (${e instanceof FileReadError ? `${e.path}: ${e.reason}` : ioReason(e)})`,
      'IO',
    );
  }
}

/**
 * state.json, when there, must be a journal file as the others are (no link, a regular file,
 * one link), since the writer replaces it when it closes: a link there is not the journal's,
 * and is refused with the journal rather than replaced silently.
 */
async function checkStateFile(dir: string): Promise<void> {
  try {
    await (await openJournalFile(dir, STATE_FILE, 'read')).close();
  } catch (e) {
    if (!isMissing(e)) throw e;
  }
}

/** A file an append touches, and its length before the append: what a failed append is cut back to. */
interface Mark {
  name: string;
  fh: FileHandle;
  size: number;
}

/** Cuts every touched file back to its mark and fsyncs it; returns what could not be restored (empty: the journal is as before). */
async function cutBack(marks: readonly Mark[]): Promise<string[]> {
  const problems: string[] = [];
  for (const m of marks) {
    try {
      await m.fh.truncate(m.size);
      await m.fh.sync();
      const now = (await m.fh.stat()).size;
      if (now !== m.size) problems.push(`${m.name} is ${now} bytes, not ${m.size}`);
    } catch (e) {
      problems.push(`${m.name}: ${ioReason(e)}`);
    }
  }
  return problems;
}

/** Writes all of `buf` (a short write on a full disk writes part of it) and fsyncs when asked. */
async function writeAll(fh: FileHandle, buf: Buffer, fsync: boolean): Promise<void> {
  // A line is a few hundred bytes into the page cache: written in place, not through the
  // thread pool, whose round trips cost more than the writes (the fsync stays asynchronous).
  let off = 0;
  while (off < buf.length) off += writeSync(fh.fd, buf, off, buf.length - off);
  if (fsync) await fh.sync();
}

export interface OpenOptions extends WriterOptions {
  /** Open a journal with a torn tail (only `repair` does, to cut it). */
  allowTorn?: boolean;
  /** Without a trust store, whose signatures the journal is checked with before an append (the signer's own key). */
  signer?: Signer;
}

/**
 * A held journal: the lock, the open files, the tree file and the chain head. Opening it
 * establishes that the journal verifies from its last trusted state (cheaply when the
 * recorded state still matches the files, by a full verification otherwise); an append is
 * refused, with the failing rule and nothing written, when it does not. Close it when done.
 */
export class JournalWriter {
  /** Set when a failed write could not be undone: the writer refuses further appends. */
  private broken = false;
  /** Set when an append failed and was undone (then close() removes files this writer created, if still empty). */
  private failed = false;
  /** Set when the derived files could not be written: state.json is not rewritten, and the next writer verifies in full. */
  private derivedStale = false;
  private appended = 0;
  /** The note edit rule as read from this journal, and the tree size it was read at (read again when the tree grew). */
  private edits: { size: number; rule: NoteEditRule } | null = null;

  private constructor(
    readonly dir: string,
    private readonly lock: HeldLock,
    private readonly fhs: Handles,
    private readonly tree: TreeFile,
    private readonly st: WriterState,
    private readonly opts: Required<Pick<WriterOptions, 'fsync'>> & WriterOptions,
    /** What open() created (files, and the first directory made), removed again on close when nothing was recorded. */
    private readonly createdFiles: readonly string[],
    private readonly madeDir: string | undefined,
    /** How the journal was found to verify: from its recorded state, or by a full verification. */
    readonly verifiedBy: 'trusted-state' | 'full-verification',
    /** Whether state.json was first written by this writer (removed again when its only append is undone). */
    private readonly createdState: boolean,
  ) {}

  /** Opens (creating when allowed) and locks the journal, and checks that it verifies from its last trusted state. */
  static async open(dir: string, opts: OpenOptions = {}): Promise<JournalWriter> {
    // A signer the store refuses is refused before the directory is touched: no file made,
    // none rebuilt or stamped (append checks again, for a writer opened without its signer).
    if (opts.signer && opts.trustStore) refuseSigner(opts.signer.keyId, opts.trustStore, dir);
    const madeDir = await prepareDir(dir, opts.create ?? true);
    let lock: HeldLock;
    try {
      lock = await acquireLock(dir);
    } catch (e) {
      if (madeDir !== undefined) await removeDirs(dir, madeDir);
      throw e;
    }
    let fhs: Handles | undefined;
    let created: readonly string[] = [];
    try {
      const opened = await openFiles(dir);
      fhs = opened.fhs;
      created = opened.created;
      const hadState = await exists(join(dir, STATE_FILE));
      const recorded = await fromTrustedState(dir, fhs, opts);
      const found = recorded ?? (await fromFullVerification(dir, fhs, opts));
      return new JournalWriter(
        dir,
        lock,
        fhs,
        found.tree,
        found.state,
        { ...opts, fsync: opts.fsync ?? true },
        opened.created,
        madeDir,
        recorded ? 'trusted-state' : 'full-verification',
        !hadState,
      );
    } catch (e) {
      if (fhs) await Promise.allSettled(Object.values(fhs).map((h: FileHandle) => h.close()));
      // Refused (or failed) before anything was appended: the files this open created go again,
      // so a refusal leaves the directory exactly as it was.
      for (const f of created) await unlink(join(dir, f)).catch(() => undefined);
      await lock.release();
      if (madeDir !== undefined) await removeDirs(dir, madeDir);
      throw e;
    }
  }

  get size(): number {
    return this.tree.size;
  }

  /** The quarantine entries' lines with their seqs (what the case fold reads), each one positional read. */
  async quarantineLines(): Promise<{ seq: number; text: string }[]> {
    const out: { seq: number; text: string }[] = [];
    for (const seq of this.st.quarantine) out.push({ seq, text: (await this.lineOf(seq)).toString('utf8') });
    return out;
  }

  /**
   * The quarantine cases as this journal's entries fold them, with the writer's trust store
   * (roles unchecked without one): what a case decision is checked against under the lock.
   * A new fold each time: what a caller does with it changes nothing the writer checks.
   */
  async cases(): Promise<CaseFold> {
    return caseStates(hashedQuarantine(await this.quarantineLines()), this.opts.trustStore ?? null);
  }

  /**
   * Refuses a quarantine entry the case fold would refuse, whoever appends it (case-append.ts):
   * first a journal whose quarantine entries already fold with a finding (it does not verify,
   * whatever its state.json says), then the entry's own transition, role and rationale.
   */
  private async refuseCaseEntry(input: AppendInput, author: string): Promise<void> {
    const fold = await this.cases();
    refuseFindings(this.dir, fold.findings);
    const p = caseEntryProblem({ ...input, author }, fold, this.opts.trustStore ?? null);
    if (p)
      throw new JournalError(
        `${decisionOfKind(input.kind) ?? input.kind} refused (${p.rule}): ${p.message}; nothing was written`,
        'REFUSED',
      );
  }

  /**
   * The journal's notes and their edits as `journal verify` reads them (note-edit-rule.ts),
   * read under the lock once per tree size: what an edit is checked against before it is
   * signed. UNVERIFIED when an edit there already breaks the rule: the journal does not verify,
   * whatever its state.json says, and nothing is signed onto it.
   */
  async noteEdits(): Promise<NoteEditView> {
    if (this.edits?.size === this.tree.size) return this.edits.rule;
    const rule = new NoteEditRule(this.opts.trustStore ?? null);
    refuseFindings(this.dir, await readNoteEdits(this.dir, rule, this.tree.size, (seq) => this.tree.leaf(seq)));
    this.edits = { size: this.tree.size, rule };
    return rule;
  }

  /** Refuses a note's edit the rule refuses (RPR-JOURNAL-045), whoever appends it: `journal verify` would fail it. */
  private async refuseNoteEdit(input: AppendInput, author: string): Promise<void> {
    const why = (await this.noteEdits()).problem({ ...input, author });
    if (why) throw new JournalError(`note edit refused (${NOTE_EDIT_RULE}): ${why}; nothing was written`, 'REFUSED');
  }

  /** Entry `seq`'s line, through the index (checked against the tree's leaf: a stale index cannot hand over another line). */
  private async lineOf(seq: number): Promise<Buffer> {
    const { entryOffset } = await readIndex(this.fhs.index, seq);
    const end =
      seq + 1 < this.tree.size ? (await readIndex(this.fhs.index, seq + 1)).entryOffset : this.st.entriesBytes;
    const line = await readAt(this.fhs.entries, entryOffset, end - entryOffset - 1);
    if (!leafHash(line).equals(this.tree.leaf(seq)))
      throw new JournalError(
        `journal ${this.dir}: ${INDEX_FILE} does not point at entry ${seq}; run 'reprise journal verify ${this.dir}'`,
        'DAMAGED',
      );
    return line;
  }

  /**
   * Appends one entry signed by `signer`, then a checkpoint signed by the same key; durable
   * on return. The new tree must extend the last trusted checkpoint (an RFC 9162 consistency
   * proof from it is built and checked before anything is written). All or nothing: on any
   * failure both files are cut back to their lengths before the append (and fsynced) before
   * this throws, so "not recorded" is true. A quarantine entry must first pass the workflow's
   * rules (refuseCaseEntry), a note's edit the edit rule (refuseNoteEdit), and every entry's
   * claim id the form claims are compared in (refuseNewClaim), whoever calls this: no caller
   * signs an entry that the case fold or `journal verify` refuses, or one whose claim draws as
   * another's.
   */
  async append(input: AppendInput, signer: Signer): Promise<AppendResult> {
    if (this.broken)
      throw new JournalError(
        `a write to journal ${this.dir} failed earlier and could not be undone; close this writer and run 'reprise journal verify ${this.dir}'`,
        'UNKNOWN',
      );
    checkInput(input);
    if (this.opts.trustStore) refuseSigner(signer.keyId, this.opts.trustStore, this.dir);
    refuseNewClaim(input);
    if (input.kind.startsWith('quarantine-')) await this.refuseCaseEntry(input, signer.keyId);
    if (isNoteEdit(input)) await this.refuseNoteEdit(input, signer.keyId);
    const ts = this.entryTime();
    const seq = this.tree.size;
    const { entry, hash, line } = signEntry(
      {
        seq,
        prev: this.st.head,
        recordedAtUtc: ts,
        kind: input.kind,
        subject: input.subject,
        body: input.body,
        author: signer.keyId,
      },
      signer,
    );
    // A line a reader would not hold whole fails verification (RPR-JOURNAL-002): never written.
    const lineBytes = Buffer.byteLength(line, 'utf8') + 1;
    if (lineBytes > MAX_LINE_BYTES)
      throw new JournalError(
        `not recorded: the entry would be a line of ${lineBytes} bytes, over the ${MAX_LINE_BYTES} a journal line may hold (its body or rationale is too long). Nothing was written`,
        'USAGE',
      );
    const leaf = leafHash(line);
    const grown = this.tree.grow(leaf);
    const root = frontierRoot(grown.frontier)!;
    this.checkExtendsTrusted(leaf, root);
    const cp = signCheckpoint(
      { treeSize: seq + 1, rootHash: formatHash(root.toString('hex')), timestampUtc: ts, signer: signer.keyId },
      signer,
    );
    const origin = this.st.origin ?? journalOrigin(hash);
    const note = signNote(checkpointBody(origin, seq + 1, root), origin, signer);
    const entryBytes = Buffer.from(line + '\n', 'utf8');
    const cpBytes = Buffer.from(cp.line + '\n', 'utf8');
    const noteBytes = Buffer.from(JSON.stringify(note) + '\n', 'utf8');
    const marks = await this.mark();
    try {
      // The entry is on disk before the checkpoint that covers it (a crash between them leaves an uncovered entry, never a checkpoint without its entry).
      await writeAll(this.fhs.entries, entryBytes, this.opts.fsync);
      await writeAll(this.fhs.checkpoints, cpBytes, this.opts.fsync);
      await writeAll(this.fhs.notes, noteBytes, this.opts.fsync);
    } catch (e) {
      return this.undo(marks, e);
    }
    // Recorded. The derived files follow; if they cannot be written the entry stays recorded
    // and the next writer rebuilds them by a full verification.
    const { checkpointsEnd: cpAt, notesEnd: notesAt } = this.st;
    await this.writeDerived(grown, { entryOffset: this.st.entriesBytes, checkpoints: cpAt, notes: notesAt });
    this.st.trusted = { line: cp.line, offset: cpAt.offset, checkpoint: cp.checkpoint };
    // The state is sealed by whoever signed the newest checkpoint (trusted-state.ts).
    this.st.sealer = sealerFor({ ...this.opts, signer });
    this.st.entriesBytes += entryBytes.length;
    this.st.checkpointsEnd = { offset: cpAt.offset + cpBytes.length, line: cpAt.line + 1 };
    this.st.notesEnd = { offset: notesAt.offset + noteBytes.length, line: notesAt.line + 1 };
    this.st.head = hash;
    this.st.origin = origin;
    this.st.lastNote = note;
    this.st.lastTs = ts;
    if (input.kind.startsWith('quarantine-')) this.st.quarantine.push(seq);
    this.appended++;
    return { seq, entryHash: hash, entry, checkpoint: cp.checkpoint, line };
  }

  /**
   * The new entry's time: this machine's clock, or the last entry's time when the clock is
   * behind it by at most CLOCK_TOLERANCE_MS (timestamps never go backwards, spec). Further
   * behind, the entry would carry the last entry's future date instead of the moment it is
   * made, for every entry after it: refused before anything is written (docs/journal.md).
   */
  private entryTime(): string {
    const now = nowUtc(this.opts.clock);
    const last = this.st.lastTs;
    if (last === null || compareTimestamps(now, last) >= 0) return now;
    const ahead = epochMs(last) - epochMs(now);
    if (!(ahead > CLOCK_TOLERANCE_MS)) return last;
    const seq = this.tree.size - 1;
    throw new JournalError(
      `not recorded: the last entry of journal ${this.dir} (seq ${seq}, line ${seq + 1}) is dated ${last}, later than this machine's clock (${now}) by more than ${CLOCK_TOLERANCE_MS / 60_000} minutes; an entry is never dated before the one above it, so this one would carry that date instead of the moment it is made. Nothing was written. If this machine's clock is wrong, correct it; if the entry's date is wrong (a machine whose clock was ahead wrote it), keep this journal as evidence and record in a new one ('reprise journal verify ${this.dir}' names the entry: RPR-JOURNAL-022)`,
      'REFUSED',
    );
  }

  /** RFC 9162 2.1.4: the tree with `leaf` appended must extend the last trusted checkpoint; checked before anything is written. */
  private checkExtendsTrusted(leaf: Buffer, root: Buffer): void {
    const t = this.st.trusted?.checkpoint;
    if (!t) return;
    const next = new ContinuedTree(this.tree.size, (l, k) => this.tree.block(l, k));
    next.appendLeafHash(leaf);
    const proof = next.consistencyProof(t.treeSize, next.size);
    if (!verifyConsistency(t.treeSize, next.size, Buffer.from(t.rootHash.slice(7), 'hex'), root, proof))
      throw new JournalError(
        `refused: the new tree of journal ${this.dir} would not extend its last trusted checkpoint (tree ${t.treeSize}, ${t.rootHash}); nothing was written; run 'reprise journal verify ${this.dir}'`,
        'UNVERIFIED',
      );
  }

  /** Appends the new leaf's stored hashes to tree.bin and its record to index.bin (no fsync: they are checked, and rebuilt, on open). */
  private async writeDerived(grown: { hashes: Buffer[]; frontier: Buffer[] }, record: IndexRecord): Promise<void> {
    if (this.derivedStale) return;
    try {
      const seq = this.tree.size;
      await Promise.all([this.tree.commit(grown), writeAllAt(this.fhs.index, indexRecord(record), indexBytes(seq))]);
    } catch {
      this.derivedStale = true;
    }
  }

  /** The tree as this writer holds it (reads from tree.bin): proofs between any of its sizes. */
  get merkle(): MerkleView {
    return this.tree;
  }

  /** The last trusted checkpoint and its signed note (the last line of notes.jsonl, checked to be for the same tree). */
  async latestNote(): Promise<{ checkpoint: Checkpoint; note: string; origin: string } | null> {
    const cp = this.st.trusted?.checkpoint;
    if (!cp || !this.st.origin || this.st.notesEnd.line === 0) return null;
    const note = this.st.lastNote ?? (await readLastNote(this.fhs.notes, this.st.notesEnd.offset));
    return { checkpoint: cp, note, origin: this.st.origin };
  }

  /** An inclusion proof of an entry this writer appended, against the latest checkpoint (O(log² n) reads). */
  proofOf(r: AppendResult): InclusionProof {
    const cp = this.st.trusted!.checkpoint;
    return {
      type: PROOF_TYPE,
      leafIndex: r.seq,
      treeSize: cp.treeSize,
      entry: r.line,
      entryHash: r.entryHash,
      auditPath: this.tree.inclusionProof(r.seq, cp.treeSize).map((h) => formatHash(h.toString('hex'))),
      checkpoint: cp,
      ...(this.st.lastNote && this.st.trusted?.checkpoint === cp ? { note: this.st.lastNote } : {}),
    };
  }

  /** Each file's length before an append. */
  private async mark(): Promise<Mark[]> {
    try {
      const files = [
        { name: ENTRIES_FILE, fh: this.fhs.entries },
        { name: CHECKPOINTS_FILE, fh: this.fhs.checkpoints },
        { name: NOTES_FILE, fh: this.fhs.notes },
      ];
      const sizes = files.map((f) => fstatSync(f.fh.fd).size);
      return files.map((f, i) => ({ ...f, size: sizes[i]! }));
    } catch (e) {
      throw new JournalError(
        `not recorded: cannot read the state of journal ${this.dir} (${ioReason(e)}); nothing was written`,
        'IO',
      );
    }
  }

  /** Undoes a failed append and says truthfully what the journal holds now. */
  private async undo(marks: readonly Mark[], cause: unknown): Promise<never> {
    const problems = await cutBack(marks);
    if (problems.length === 0) {
      this.failed = true;
      throw new JournalError(
        `not recorded: writing to journal ${this.dir} failed (${ioReason(cause)}); the partial write was undone and the journal is unchanged`,
        'IO',
      );
    }
    this.broken = true;
    throw new JournalError(
      `writing to journal ${this.dir} failed (${ioReason(cause)}) and undoing the partial write failed too (${problems.join('; ')}): whether the entry is recorded is unknown; run 'reprise journal verify ${this.dir}' before writing again`,
      'UNKNOWN',
    );
  }

  async close(): Promise<void> {
    if (!this.broken && !this.derivedStale && !(this.failed && this.appended === 0))
      await this.saveState().catch(() => undefined);
    await Promise.allSettled(Object.values(this.fhs).map((h: FileHandle) => h.close()));
    // A journal this writer created and never recorded anything in is removed again: a
    // refused first write leaves the directory as it was.
    const leaveNothing =
      this.failed && !this.broken && this.tree.size === 0 && this.createdFiles.includes(ENTRIES_FILE);
    // An append that failed and was undone leaves the directory as it found it: the derived
    // files this writer made for it go too (the next writer rebuilds them).
    const undone = this.failed && !this.broken && this.appended === 0;
    const derived: string[] = this.createdFiles.filter((f) => f === TREE_FILE || f === INDEX_FILE || f === NOTES_FILE);
    const remove = leaveNothing
      ? [...this.createdFiles, STATE_FILE]
      : undone
        ? [...derived, ...(this.createdState ? [STATE_FILE] : [])]
        : [];
    if (remove.length > 0) {
      for (const f of remove) await unlink(join(this.dir, f)).catch(() => undefined);
      await fsyncPath(this.dir).catch(() => undefined);
    }
    await this.lock.release();
    if (leaveNothing && this.madeDir !== undefined) await removeDirs(this.dir, this.madeDir);
  }

  /** Records the state as this writer leaves it (state.json), with each file's identity. */
  private async saveState(): Promise<void> {
    if (this.opts.fsync && this.appended > 0) await Promise.all([this.fhs.tree.sync(), this.fhs.index.sync()]);
    await saveState(this.dir, this.fhs, this.tree, this.st);
  }
}

/** Removes the (empty) directories from `dir` up to `made`, the first one mkdir created. */
async function removeDirs(dir: string, made: string): Promise<void> {
  for (let d = resolve(dir); ; d = dirname(d)) {
    try {
      await rmdir(d);
    } catch {
      return;
    }
    if (d === resolve(made) || dirname(d) === d) return;
  }
}

/**
 * Throws (REFUSED, nothing written) when `keyId` may not sign a new entry onto `dir` under
 * `trust`: the journal's rule (signerProblem), and one more of the writer's own: a retired key
 * signs nothing new. Retiring a key takes it out of service; what it signed before still
 * verifies (RPR-JOURNAL-010 warns of each such signature), but a retired key that could
 * still append would let whoever holds an old key keep writing under the store's trust.
 */
function refuseSigner(keyId: string, trust: TrustStore, dir: string): void {
  const who = signerProblem(keyId, trust);
  if (who)
    throw new JournalError(
      `not recorded: ${who}; verified with that trust store, journal ${dir} would fail the entry and the checkpoint this key signs (${trust.get(keyId) ? 'RPR-JOURNAL-009' : 'RPR-JOURNAL-008'}), and nothing could be written onto it afterwards. Nothing was written`,
      'REFUSED',
    );
  const k = trust.get(keyId)!;
  if (k.status !== 'active')
    throw new JournalError(
      `not recorded: ${keyId} (${k.label || k.role}) is ${k.status} in the trust store, and a key taken out of service signs no new entry (what it signed before still verifies, with RPR-JOURNAL-010's warning); sign with an active key. Nothing was written`,
      'REFUSED',
    );
}

function checkInput(input: AppendInput): void {
  if (!ENTRY_KINDS.includes(input.kind))
    throw new JournalError(`kind ${JSON.stringify(input.kind)} is not one of ${ENTRY_KINDS.join(', ')}`, 'USAGE');
  const s = checkSubject(input.subject, '');
  if (s.length > 0) throw new JournalError(s.map((f) => f.message).join('; '), 'USAGE');
  if (typeof input.body !== 'object' || input.body === null || Array.isArray(input.body))
    throw new JournalError('the body must be a JSON object', 'USAGE');
}

/**
 * Refuses (REFUSED, nothing written) a new entry whose claim id may draw as another claim's
 * (RPR-QUAR-008, claim-ids.ts): any kind but a quarantine decision, which names its case's
 * claim as the journal recorded it. Asked by append, and by callers before the writer opens,
 * so a refused entry leaves the directory as it was.
 */
export function refuseNewClaim(input: Pick<AppendInput, 'kind' | 'subject'>): void {
  const p = newEntryClaimProblem(input);
  if (p) throw new JournalError(`${input.kind} refused (${p.rule}): ${p.message}; nothing was written`, 'REFUSED');
}

/** Appends one entry (lock, write, fsync, checkpoint, fsync, unlock). */
export async function appendEntry(
  dir: string,
  input: AppendInput,
  signer: Signer,
  opts: WriterOptions = {},
): Promise<AppendResult> {
  // What needs no journal is asked before the writer opens: a refusal leaves the directory untouched.
  checkInput(input);
  refuseNewClaim(input);
  const w = await JournalWriter.open(dir, { ...opts, signer });
  try {
    return await w.append(input, signer);
  } finally {
    await w.close();
  }
}

export interface RepairResult {
  truncated: { file: string; offset: number; length: number; sha256: string }[];
  /** The journal-repair entry recording what was removed. */
  entry: AppendResult;
}

/** Most torn bytes kept verbatim (base64) in the repair entry; a longer tail keeps only its hash. */
export const MAX_KEPT_TORN_BYTES = 64 * 1024;

/** Cuts each torn tail off and fsyncs; on a failure puts back what was cut, then throws. */
async function cutTorn(dir: string, torn: readonly TornTail[]): Promise<void> {
  // Opened as every journal file is (never through a link), though the writer holds the lock
  // and has just read them: the cosignatures file is not among those it holds open.
  for (const t of torn) {
    try {
      const fh = await openJournalFile(dir, t.file, 'update');
      try {
        await fh.truncate(t.offset);
        await fh.sync();
      } finally {
        await fh.close();
      }
    } catch (e) {
      return restoreTorn(dir, torn, e);
    }
  }
}

/**
 * Puts the torn bytes back where they were (each file is then byte-identical to before
 * the repair), so a repair that could not be journaled removed nothing; then throws.
 */
async function restoreTorn(dir: string, torn: readonly TornTail[], cause: unknown): Promise<never> {
  const problems: string[] = [];
  for (const t of torn) {
    try {
      const fh = await openJournalFile(dir, t.file, 'update');
      try {
        const size = (await fh.stat()).size;
        if (size === t.offset) await fh.write(t.bytes, 0, t.bytes.length, t.offset);
        await fh.sync();
        const now = (await fh.stat()).size;
        if (now !== t.offset + t.bytes.length)
          problems.push(`${t.file} is ${now} bytes, not ${t.offset + t.bytes.length}`);
      } finally {
        await fh.close();
      }
    } catch (e) {
      problems.push(`${t.file}: ${ioReason(e)}`);
    }
  }
  const why = cause instanceof JournalError ? cause.message.replace(/^not recorded: /, '') : ioReason(cause);
  if (problems.length === 0)
    throw new JournalError(
      `not repaired, not recorded: the repair could not be journaled (${why}); the torn tail was put back and the journal is unchanged`,
      'IO',
    );
  throw new JournalError(
    `the repair of journal ${dir} could not be journaled (${why}) and putting the torn tail back failed (${problems.join('; ')}): the journal's state is unknown; run 'reprise journal verify ${dir}'`,
    'UNKNOWN',
  );
}

/**
 * Truncates torn tails (only when asked) and journals the repair: the repair entry records
 * each file, offset, length, hash and (up to MAX_KEPT_TORN_BYTES) the discarded bytes.
 * All or nothing: if the repair entry cannot be written, the torn bytes are put back.
 */
export async function repairJournal(
  dir: string,
  signer: Signer,
  opts: WriterOptions = {},
): Promise<RepairResult | null> {
  // One lock for the whole repair: nobody can write between the truncation and its record.
  const w = await JournalWriter.open(dir, { ...opts, signer, create: false, allowTorn: true });
  try {
    // The notes and cosignatures files too: a crash while a line was written leaves a torn
    // tail that the next append would continue (one line of two), losing both for good.
    const [files, notes, cosignatures] = await Promise.all([
      readJournalFiles(dir),
      readJournalFile(dir, NOTES_FILE),
      readJournalFile(dir, COSIGNATURES_FILE),
    ]);
    const torn = [files.entries.torn, files.checkpoints.torn, notes.torn, cosignatures.torn].filter(
      (t): t is TornTail => t !== null,
    );
    if (torn.length === 0) return null;
    const truncated = torn.map((t) => ({
      file: t.file,
      offset: t.offset,
      length: t.bytes.length,
      sha256: formatHash(sha256Hex(t.bytes)),
    }));
    const body: JsonObject = {
      action: 'truncate-torn-tail',
      truncated: torn.map((t, i) => ({
        ...truncated[i]!,
        ...(t.bytes.length <= MAX_KEPT_TORN_BYTES ? { bytesBase64: t.bytes.toString('base64') } : {}),
      })),
    };
    await cutTorn(dir, torn);
    let entry: AppendResult;
    try {
      entry = await w.append({ kind: 'journal-repair', subject: { claimRef: 'journal:repair' }, body }, signer);
    } catch (e) {
      // An append that could not be undone has left the files in an unknown state: do not write into them.
      if (e instanceof JournalError && e.code === 'UNKNOWN') throw e;
      return restoreTorn(dir, torn, e);
    }
    return { truncated, entry };
  } finally {
    await w.close();
  }
}

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
 */
import { mkdir, open, rmdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import { randomInt } from 'node:crypto';
import { fstatSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { FileReadError } from '../core/files.js';
import { formatHash, sha256Hex, ZERO_HASH } from '../core/hash.js';
import { parseCanonical } from '../core/jcs.js';
import { verifyBytes, type Signer, type TrustStore } from '../core/keys.js';
import { nowUtc } from '../core/time.js';
import { ioReason, JournalError } from './errors.js';
import { checkEntryShape, checkSubject, CHECKPOINTS_FILE, ENTRIES_FILE, ENTRY_KINDS, entryHash, journalOrigin, NOTES_FILE, signCheckpoint, signEntry, unsignedDigest, type Checkpoint, type Entry, type EntryKind, type JsonObject, type Subject } from './format.js';
import {
  frontierRoot,
  hex,
  identityMismatch,
  identityOf,
  INDEX_FILE,
  indexBytes,
  indexRecord,
  openJournalFile,
  readAt,
  readIndex,
  readState,
  type FilePlace,
  type IndexRecord,
  STATE_FILE,
  STATE_TYPE,
  TREE_FILE,
  treeBytes,
  TreeFile,
  writeAllAt,
  writeState,
  type TrustedState,
} from './frontier.js';
import { acquireLock, type HeldLock } from './lock.js';
import { ContinuedTree, frontierBlocks, leafHash, verifyConsistency, type MerkleView } from './merkle.js';
import { checkpointBody, signNote } from './note.js';
import { PROOF_TYPE, type InclusionProof } from './proofs.js';
import { readJournalFiles, type TornTail } from './read.js';
import { compareTimestamps, entryPointer, recognizeCheckpoint, verifyJournal, type JournalVerification } from './verify.js';

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

async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

/** Creates the journal directory when allowed; returns the first directory it made (to remove if nothing gets recorded). */
async function prepareDir(dir: string, create: boolean): Promise<string | undefined> {
  if (!create) {
    if (!(await exists(join(dir, ENTRIES_FILE)))) throw new JournalError(`${dir} is not a journal (no ${ENTRIES_FILE})`, 'NOT_FOUND');
    return undefined;
  }
  try {
    const made = await mkdir(dir, { recursive: true });
    // A new directory's own name must survive a power cut too.
    if (made !== undefined) await fsyncDir(dirname(made));
    return made;
  } catch (e) {
    throw new JournalError(`not recorded: cannot create journal directory ${dir} (${ioReason(e)})`, 'IO');
  }
}

/** The four files a writer holds open: the two the journal is made of, and the two derived from them. */
interface Handles {
  entries: FileHandle;
  checkpoints: FileHandle;
  notes: FileHandle;
  tree: FileHandle;
  index: FileHandle;
}

/** Opens the journal's files (creating them, and then fsyncing the directory, when absent). */
async function openFiles(dir: string): Promise<{ fhs: Handles; created: string[] }> {
  const names = [ENTRIES_FILE, CHECKPOINTS_FILE, NOTES_FILE, TREE_FILE, INDEX_FILE] as const;
  const created: string[] = [];
  const handles: FileHandle[] = [];
  try {
    for (const name of names) {
      if (!(await exists(join(dir, name)))) created.push(name);
      handles.push(await openJournalFile(dir, name, name === TREE_FILE || name === INDEX_FILE ? 'update' : 'append'));
    }
    if (created.length > 0) await fsyncDir(dir);
    return { fhs: { entries: handles[0]!, checkpoints: handles[1]!, notes: handles[2]!, tree: handles[3]!, index: handles[4]! }, created };
  } catch (e) {
    await Promise.allSettled(handles.map((h) => h.close()));
    for (const f of created) await unlink(join(dir, f)).catch(() => undefined);
    throw new JournalError(`not recorded: cannot open journal ${dir} for writing (${e instanceof FileReadError ? `${e.path}: ${e.reason}` : ioReason(e)})`, 'IO');
  }
}

/** What the writer knows of the journal between appends (state.json holds it between writers). */
interface WriterState {
  /** The notes' origin (from entry 0; null while the journal is empty). */
  origin: string | null;
  /** The note of the last checkpoint this writer wrote (its receipts carry it). */
  lastNote?: string;
  head: string;
  lastTs: string | null;
  entriesBytes: number;
  checkpointsEnd: FilePlace;
  notesEnd: FilePlace;
  /** The newest checkpoint verified: the next append must extend it (RFC 9162 consistency). */
  trusted: { line: string; offset: number; checkpoint: Checkpoint } | null;
  quarantine: number[];
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
      return new JournalWriter(dir, lock, fhs, found.tree, found.state, { ...opts, fsync: opts.fsync ?? true }, opened.created, madeDir, recorded ? 'trusted-state' : 'full-verification', !hadState);
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

  /** Entry `seq`'s line, through the index (checked against the tree's leaf: a stale index cannot hand over another line). */
  private async lineOf(seq: number): Promise<Buffer> {
    const { entryOffset } = await readIndex(this.fhs.index, seq);
    const end = seq + 1 < this.tree.size ? (await readIndex(this.fhs.index, seq + 1)).entryOffset : this.st.entriesBytes;
    const line = await readAt(this.fhs.entries, entryOffset, end - entryOffset - 1);
    if (!leafHash(line).equals(this.tree.leaf(seq))) throw new JournalError(`journal ${this.dir}: ${INDEX_FILE} does not point at entry ${seq}; run 'reprise journal verify ${this.dir}'`, 'DAMAGED');
    return line;
  }

  /**
   * Appends one entry signed by `signer`, then a checkpoint signed by the same key; durable
   * on return. The new tree must extend the last trusted checkpoint (an RFC 9162 consistency
   * proof from it is built and checked before anything is written). All or nothing: on any
   * failure both files are cut back to their lengths before the append (and fsynced) before
   * this throws, so "not recorded" is true.
   */
  async append(input: AppendInput, signer: Signer): Promise<AppendResult> {
    if (this.broken) throw new JournalError(`a write to journal ${this.dir} failed earlier and could not be undone; close this writer and run 'reprise journal verify ${this.dir}'`, 'UNKNOWN');
    checkInput(input);
    let ts = nowUtc(this.opts.clock);
    if (this.st.lastTs !== null && compareTimestamps(ts, this.st.lastTs) < 0) ts = this.st.lastTs; // never backwards
    const seq = this.tree.size;
    const { entry, hash, line } = signEntry({ seq, prev: this.st.head, recordedAtUtc: ts, kind: input.kind, subject: input.subject, body: input.body, author: signer.keyId }, signer);
    const leaf = leafHash(line);
    const grown = this.tree.grow(leaf);
    const root = frontierRoot(grown.frontier)!;
    this.checkExtendsTrusted(leaf, root);
    const cp = signCheckpoint({ treeSize: seq + 1, rootHash: formatHash(root.toString('hex')), timestampUtc: ts, signer: signer.keyId }, signer);
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

  /** RFC 9162 2.1.4: the tree with `leaf` appended must extend the last trusted checkpoint; checked before anything is written. */
  private checkExtendsTrusted(leaf: Buffer, root: Buffer): void {
    const t = this.st.trusted?.checkpoint;
    if (!t) return;
    const next = new ContinuedTree(this.tree.size, (l, k) => this.tree.block(l, k));
    next.appendLeafHash(leaf);
    const proof = next.consistencyProof(t.treeSize, next.size);
    if (!verifyConsistency(t.treeSize, next.size, Buffer.from(t.rootHash.slice(7), 'hex'), root, proof))
      throw new JournalError(`refused: the new tree of journal ${this.dir} would not extend its last trusted checkpoint (tree ${t.treeSize}, ${t.rootHash}); nothing was written; run 'reprise journal verify ${this.dir}'`, 'UNVERIFIED');
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
      throw new JournalError(`not recorded: cannot read the state of journal ${this.dir} (${ioReason(e)}); nothing was written`, 'IO');
    }
  }

  /** Undoes a failed append and says truthfully what the journal holds now. */
  private async undo(marks: readonly Mark[], cause: unknown): Promise<never> {
    const problems = await cutBack(marks);
    if (problems.length === 0) {
      this.failed = true;
      throw new JournalError(`not recorded: writing to journal ${this.dir} failed (${ioReason(cause)}); the partial write was undone and the journal is unchanged`, 'IO');
    }
    this.broken = true;
    throw new JournalError(
      `writing to journal ${this.dir} failed (${ioReason(cause)}) and undoing the partial write failed too (${problems.join('; ')}): whether the entry is recorded is unknown; run 'reprise journal verify ${this.dir}' before writing again`,
      'UNKNOWN',
    );
  }

  async close(): Promise<void> {
    if (!this.broken && !this.derivedStale && !(this.failed && this.appended === 0)) await this.saveState().catch(() => undefined);
    await Promise.allSettled(Object.values(this.fhs).map((h: FileHandle) => h.close()));
    // A journal this writer created and never recorded anything in is removed again: a
    // refused first write leaves the directory as it was.
    const leaveNothing = this.failed && !this.broken && this.tree.size === 0 && this.createdFiles.includes(ENTRIES_FILE);
    // An append that failed and was undone leaves the directory as it found it: the derived
    // files this writer made for it go too (the next writer rebuilds them).
    const undone = this.failed && !this.broken && this.appended === 0;
    const derived: string[] = this.createdFiles.filter((f) => f === TREE_FILE || f === INDEX_FILE || f === NOTES_FILE);
    const remove = leaveNothing ? [...this.createdFiles, STATE_FILE] : undone ? [...derived, ...(this.createdState ? [STATE_FILE] : [])] : [];
    if (remove.length > 0) {
      for (const f of remove) await unlink(join(this.dir, f)).catch(() => undefined);
      await fsyncDir(this.dir).catch(() => undefined);
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

async function saveState(dir: string, fhs: Handles, tree: TreeFile, st: WriterState): Promise<void> {
  await stampFiles(fhs);
  const [entries, checkpoints, notes, treeId, index] = await Promise.all([identityOf(fhs.entries), identityOf(fhs.checkpoints), identityOf(fhs.notes), identityOf(fhs.tree), identityOf(fhs.index)]);
  await writeState(dir, {
    type: STATE_TYPE,
    treeSize: tree.size,
    origin: st.origin,
    entriesBytes: st.entriesBytes,
    checkpointsEnd: st.checkpointsEnd,
    notesEnd: st.notesEnd,
    head: st.head,
    lastRecordedAtUtc: st.lastTs,
    frontier: tree.frontier.map(hex),
    checkpoint: st.trusted ? { line: st.trusted.line, offset: st.trusted.offset } : null,
    quarantine: st.quarantine,
    files: { entries, checkpoints, notes, tree: treeId, index },
  });
}

/**
 * Gives every file a modification time of its own, to the nanosecond, before its identity is
 * recorded. The kernel stamps a write with a coarse clock (one tick, a few milliseconds), so
 * an edit of the same size made within a tick of the writer's last write could keep the same
 * mtime and ctime; any later write stamps the coarse clock over this fine, random one.
 */
async function stampFiles(fhs: Handles): Promise<void> {
  const now = Date.now() / 1000;
  await Promise.all(Object.values(fhs).map((h: FileHandle, i) => h.utimes(now, now - 1 + (randomInt(1_000_000) + i) / 1e9)));
}

/**
 * The fast way in: state.json matches the files as the last writer left them, and what it
 * records checks out against them (tree file sizes, frontier, the trusted checkpoint's line,
 * root and signature, the last entry's leaf and hash): O(log n) reads. Null, and the caller
 * verifies in full, at the first doubt.
 */
async function fromTrustedState(dir: string, fhs: Handles, opts: OpenOptions): Promise<{ tree: TreeFile; state: WriterState } | null> {
  const rec = await readState(dir);
  if (!rec) return null;
  const now = { entries: await identityOf(fhs.entries), checkpoints: await identityOf(fhs.checkpoints), notes: await identityOf(fhs.notes), tree: await identityOf(fhs.tree), index: await identityOf(fhs.index) };
  if (identityMismatch(rec, now) !== null) return null;
  const n = rec.treeSize;
  if (now.tree.size !== treeBytes(n) || now.index.size !== indexBytes(n) || now.entries.size !== rec.entriesBytes || now.checkpoints.size !== rec.checkpointsEnd.offset || now.notes.size !== rec.notesEnd.offset) return null;
  try {
    const frontier = rec.frontier.map((h) => Buffer.from(h, 'hex'));
    const tree = new TreeFile(fhs.tree, n, frontier);
    if (!tree.readFrontier(n).every((h, i) => h.equals(frontier[i]!))) return null;
    const trusted = await trustedCheckpoint(fhs, rec, tree, opts);
    if (trusted === undefined || !(await lastEntryMatches(fhs, rec, tree))) return null;
    return { tree, state: { origin: rec.origin, head: rec.head, lastTs: rec.lastRecordedAtUtc, entriesBytes: rec.entriesBytes, checkpointsEnd: rec.checkpointsEnd, notesEnd: rec.notesEnd, trusted, quarantine: [...rec.quarantine] } };
  } catch {
    return null;
  }
}

/** The recorded checkpoint: its line where recorded and last in the file, its root the tree's at its size, its signature good. undefined: it does not check out. */
async function trustedCheckpoint(fhs: Handles, rec: TrustedState, tree: TreeFile, opts: OpenOptions): Promise<WriterState['trusted'] | undefined> {
  if (!rec.checkpoint) return rec.treeSize === 0 && rec.checkpointsEnd.offset === 0 ? null : undefined;
  const bytes = Buffer.from(rec.checkpoint.line + '\n', 'utf8');
  if (rec.checkpoint.offset + bytes.length !== rec.checkpointsEnd.offset) return undefined;
  if (!(await readAt(fhs.checkpoints, rec.checkpoint.offset, bytes.length)).equals(bytes)) return undefined;
  const cp = recognizeCheckpoint(rec.checkpoint.line)?.cp;
  if (!cp || cp.treeSize > tree.size || formatHash(tree.root(cp.treeSize).toString('hex')) !== cp.rootHash) return undefined;
  const key = opts.trustStore ? opts.trustStore.get(cp.signer) : cp.signer === opts.signer?.keyId ? { publicKey: opts.signer.publicKey, status: 'active' } : null;
  // A key this writer cannot look up was checked when the state was recorded, and the files are as that writer left them.
  if (key && (key.status === 'revoked' || !verifyBytes(key.publicKey, unsignedDigest(cp), cp.sig))) return undefined;
  return { line: rec.checkpoint.line, offset: rec.checkpoint.offset, checkpoint: cp };
}

/** The last entry line, read through the index: its leaf is the tree's last, its hash and time are the recorded head. */
async function lastEntryMatches(fhs: Handles, rec: TrustedState, tree: TreeFile): Promise<boolean> {
  const n = rec.treeSize;
  if (n === 0) return rec.head === ZERO_HASH && rec.entriesBytes === 0;
  const { entryOffset } = await readIndex(fhs.index, n - 1);
  const line = await readAt(fhs.entries, entryOffset, rec.entriesBytes - entryOffset - 1);
  if (!leafHash(line).equals(tree.leaf(n - 1))) return false;
  const p = parseCanonical(line.toString('utf8'));
  const e = p.value as Entry;
  return p.warnings.length === 0 && checkEntryShape(e, '').length === 0 && e.seq === n - 1 && entryHash(e) === rec.head && e.recordedAtUtc === rec.lastRecordedAtUtc;
}

/**
 * The slow way in (no trusted state, or one that does not match the files: a copy, an edit,
 * an older version's journal, a crash before the state was written): the whole journal is
 * verified, and only a journal that verifies is written to. Its derived files are then
 * rebuilt from the verification, and the state recorded, so the next append is cheap again.
 */
async function fromFullVerification(dir: string, fhs: Handles, opts: OpenOptions): Promise<{ tree: TreeFile; state: WriterState }> {
  const own = opts.signer ? new Map([[opts.signer.keyId, opts.signer.publicKey]]) : undefined;
  const v = await verifyJournal(dir, opts.trustStore ?? null, { keep: false, collect: true, ...(own ? { ownKeys: own } : {}) });
  const torn = v.torn[0];
  if (torn && !opts.allowTorn)
    throw new JournalError(`journal ${dir}: ${torn.file} ends with a torn line (${torn.bytes.length} bytes after the last newline); nothing is repaired silently: run 'reprise journal repair ${dir} --key KEY' first`, 'TORN');
  refuseUnlessVerified(dir, v, opts.allowTorn === true);
  const tree = await rebuildDerived(fhs, v);
  const state: WriterState = {
    origin: v.firstHash ? journalOrigin(v.firstHash) : null,
    head: v.head?.hash ?? ZERO_HASH,
    lastTs: v.head?.ts ?? null,
    entriesBytes: v.entriesBytes,
    checkpointsEnd: { offset: v.checkpointsBytes, line: v.checkpointLines },
    notesEnd: v.notesEnd ?? { offset: 0, line: 0 },
    trusted: await latestTrusted(fhs, v),
    quarantine: v.entries.map((p) => p.entry.seq),
  };
  if (!torn) await saveState(dir, fhs, tree, state).catch(() => undefined);
  return { tree, state };
}

/** Refuses to write onto a journal that does not verify: the first failing rule and where, and how many more. */
function refuseUnlessVerified(dir: string, v: JournalVerification, allowTorn: boolean): void {
  // Every fail blocks. Without a trust store, another author's signature cannot be checked
  // (reported as unavailable, not blocking): everything else (chain, tree, checkpoints, the
  // signer's own signatures) must hold. With one, every signature must.
  const blocking = v.findings.filter((f) => f.severity === 'fail' && !(allowTorn && f.rule === 'RPR-JOURNAL-013'));
  if (v.entryLines > 0 && v.head === null && blocking.length === 0) blocking.push({ rule: 'RPR-JOURNAL-002', severity: 'fail', message: 'the last entry cannot be read', pointer: entryPointer(v.entryLines) });
  if (blocking.length === 0) return;
  const f = blocking[0]!;
  const more = blocking.length > 1 ? ` (and ${blocking.length - 1} more finding${blocking.length > 2 ? 's' : ''})` : '';
  const fix = `run 'reprise journal verify ${dir} --trust-store FILE' to see every finding`;
  throw new JournalError(`refused: journal ${dir} does not verify, so nothing can be signed onto it: ${f.rule}${f.pointer ? ` at ${f.pointer}` : ''}: ${f.message}${more}. Nothing was written; ${fix}`, 'UNVERIFIED');
}

/** The newest well-formed checkpoint, as the next append's trusted state (its line read back from the file). */
async function latestTrusted(fhs: Handles, v: JournalVerification): Promise<WriterState['trusted']> {
  if (!v.latestCheckpoint || v.latestCheckpointOffset === null) return null;
  const line = (await readAt(fhs.checkpoints, v.latestCheckpointOffset, v.checkpointsBytes - v.latestCheckpointOffset - 1)).toString('utf8');
  return { line, offset: v.latestCheckpointOffset, checkpoint: v.latestCheckpoint };
}

/** The last line of notes.jsonl (ending at `end`), as the note text it holds. */
async function readLastNote(fh: FileHandle, end: number): Promise<string> {
  const start = Math.max(0, end - 64 * 1024);
  const tail = await readAt(fh, start, end - start);
  const from = tail.lastIndexOf(0x0a, tail.length - 2) + 1;
  const v = parseCanonical(tail.subarray(from, tail.length - 1).toString('utf8')).value;
  if (typeof v !== 'string') throw new JournalError(`the last line of ${NOTES_FILE} is not a note`, 'DAMAGED');
  return v;
}

/** For entries in order: where the lines covering entry i begin (the first with treeSize > i; the file's end when none does). */
function placesCovering(lines: readonly { offset: number; line: number; treeSize: number }[], end: FilePlace): (i: number) => FilePlace {
  let k = 0;
  return (i) => {
    while (k < lines.length && lines[k]!.treeSize <= i) k++;
    const l = lines[k];
    return l ? { offset: l.offset, line: l.line } : end;
  };
}

/** Writes tree.bin (tlog order) and index.bin from a full verification, replacing what they held. */
async function rebuildDerived(fhs: Handles, v: JournalVerification): Promise<TreeFile> {
  const n = v.entryLines;
  const collected = v.collected!;
  await fhs.tree.truncate(0);
  await fhs.index.truncate(0);
  const chunks: Buffer[] = [];
  let pos = 0;
  const flush = async (force: boolean) => {
    if (chunks.length === 0 || (!force && chunks.length < 4096)) return;
    const b = Buffer.concat(chunks);
    chunks.length = 0;
    await writeAllAt(fhs.tree, b, pos);
    pos += b.length;
  };
  const index = Buffer.alloc(indexBytes(n));
  const cps = placesCovering(collected.checkpoints, { offset: v.checkpointsBytes, line: v.checkpointLines });
  const notes = placesCovering(collected.notes, v.notesEnd ?? { offset: 0, line: 0 });
  for (let i = 0; i < n; i++) {
    chunks.push(v.tree.block(0, i));
    for (let level = 0, k = i; k % 2 === 1; level++, k = Math.floor(k / 2)) chunks.push(v.tree.block(level + 1, Math.floor(k / 2)));
    await flush(false);
    indexRecord({ entryOffset: collected.entryOffsets[i]!, checkpoints: cps(i), notes: notes(i) }).copy(index, indexBytes(i));
  }
  await flush(true);
  await writeAllAt(fhs.index, index, 0);
  return new TreeFile(fhs.tree, n, n === 0 ? [] : frontierBlocks(n).map(([l, k]) => v.tree.block(l, k)));
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

function checkInput(input: AppendInput): void {
  if (!ENTRY_KINDS.includes(input.kind)) throw new JournalError(`kind ${JSON.stringify(input.kind)} is not one of ${ENTRY_KINDS.join(', ')}`, 'USAGE');
  const s = checkSubject(input.subject, '');
  if (s.length > 0) throw new JournalError(s.map((f) => f.message).join('; '), 'USAGE');
  if (typeof input.body !== 'object' || input.body === null || Array.isArray(input.body)) throw new JournalError('the body must be a JSON object', 'USAGE');
}

/** Appends one entry (lock, write, fsync, checkpoint, fsync, unlock). */
export async function appendEntry(dir: string, input: AppendInput, signer: Signer, opts: WriterOptions = {}): Promise<AppendResult> {
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
  // Plain opens: the writer holds the lock, and JournalWriter.open has just read these files
  // as regular files (and holds them open for appending, also checked).
  for (const t of torn) {
    try {
      const fh = await open(join(dir, t.file), 'r+');
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
      const fh = await open(join(dir, t.file), 'r+');
      try {
        const size = (await fh.stat()).size;
        if (size === t.offset) await fh.write(t.bytes, 0, t.bytes.length, t.offset);
        await fh.sync();
        const now = (await fh.stat()).size;
        if (now !== t.offset + t.bytes.length) problems.push(`${t.file} is ${now} bytes, not ${t.offset + t.bytes.length}`);
      } finally {
        await fh.close();
      }
    } catch (e) {
      problems.push(`${t.file}: ${ioReason(e)}`);
    }
  }
  const why = cause instanceof JournalError ? cause.message.replace(/^not recorded: /, '') : ioReason(cause);
  if (problems.length === 0) throw new JournalError(`not repaired, not recorded: the repair could not be journaled (${why}); the torn tail was put back and the journal is unchanged`, 'IO');
  throw new JournalError(`the repair of journal ${dir} could not be journaled (${why}) and putting the torn tail back failed (${problems.join('; ')}): the journal's state is unknown; run 'reprise journal verify ${dir}'`, 'UNKNOWN');
}

/**
 * Truncates torn tails (only when asked) and journals the repair: the repair entry records
 * each file, offset, length, hash and (up to MAX_KEPT_TORN_BYTES) the discarded bytes.
 * All or nothing: if the repair entry cannot be written, the torn bytes are put back.
 */
export async function repairJournal(dir: string, signer: Signer, opts: WriterOptions = {}): Promise<RepairResult | null> {
  // One lock for the whole repair: nobody can write between the truncation and its record.
  const w = await JournalWriter.open(dir, { ...opts, signer, create: false, allowTorn: true });
  try {
    const files = await readJournalFiles(dir);
    const torn = [files.entries.torn, files.checkpoints.torn].filter((t): t is TornTail => t !== null);
    if (torn.length === 0) return null;
    const truncated = torn.map((t) => ({ file: t.file, offset: t.offset, length: t.bytes.length, sha256: formatHash(sha256Hex(t.bytes)) }));
    const body: JsonObject = {
      action: 'truncate-torn-tail',
      truncated: torn.map((t, i) => ({ ...truncated[i]!, ...(t.bytes.length <= MAX_KEPT_TORN_BYTES ? { bytesBase64: t.bytes.toString('base64') } : {}) })),
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

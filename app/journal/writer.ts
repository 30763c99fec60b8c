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
import { dirname, join, resolve } from 'node:path';
import { FileReadError, openRegularForAppend } from '../core/files.js';
import { formatHash, sha256Hex, ZERO_HASH } from '../core/hash.js';
import { JcsError, parseCanonical } from '../core/jcs.js';
import type { Signer } from '../core/keys.js';
import { isRfc3339Utc, nowUtc } from '../core/time.js';
import { ioReason, JournalError } from './errors.js';
import { checkEntryShape, checkSubject, CHECKPOINTS_FILE, ENTRIES_FILE, ENTRY_KINDS, entryHash, signCheckpoint, signEntry, type Checkpoint, type Entry, type EntryKind, type JsonObject, type Subject } from './format.js';
import { acquireLock, type HeldLock } from './lock.js';
import { leafHash, MerkleTree } from './merkle.js';
import { readJournalFiles, type RawFile, type TornTail } from './read.js';
import { compareTimestamps } from './verify.js';

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
}

export interface WriterOptions {
  /** Create the directory and files when absent (default true). */
  create?: boolean;
  /** Clock for recordedAtUtc/timestampUtc (tests and deterministic examples). */
  clock?: () => number;
  /** fsync after each write (default true). Only benchmarks and generators turn it off. */
  fsync?: boolean;
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

/** Opens both files for appending (creating them, and then fsyncing the directory, when absent). */
async function openFiles(dir: string, creating: readonly string[]): Promise<{ entriesFh: FileHandle; checkpointsFh: FileHandle }> {
  const handles: FileHandle[] = [];
  try {
    for (const name of [ENTRIES_FILE, CHECKPOINTS_FILE]) handles.push(await openRegularForAppend(join(dir, name)));
    if (creating.length > 0) await fsyncDir(dir);
    return { entriesFh: handles[0]!, checkpointsFh: handles[1]! };
  } catch (e) {
    await Promise.allSettled(handles.map((h) => h.close()));
    for (const f of creating) await unlink(join(dir, f)).catch(() => undefined);
    throw new JournalError(`not recorded: cannot open journal ${dir} for writing (${e instanceof FileReadError ? `${e.path}: ${e.reason}` : ioReason(e)})`, 'IO');
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
  let off = 0;
  while (off < buf.length) {
    const { bytesWritten } = await fh.write(buf, off, buf.length - off);
    off += bytesWritten;
  }
  if (fsync) await fh.sync();
}

/** A held journal: the lock, the open files and the in-memory tree. Close it when done. */
export class JournalWriter {
  /** Set when a failed write could not be undone: the writer refuses further appends. */
  private broken = false;
  /** Set when an append failed and was undone (then close() removes files this writer created, if still empty). */
  private failed = false;

  private constructor(
    readonly dir: string,
    private readonly lock: HeldLock,
    private readonly entriesFh: FileHandle,
    private readonly checkpointsFh: FileHandle,
    private readonly tree: MerkleTree,
    private lastHash: string,
    private lastTs: string | null,
    private readonly lines: string[],
    private readonly opts: Required<Pick<WriterOptions, 'fsync'>> & WriterOptions,
    /** What open() created (files, and the first directory made), removed again on close when nothing was recorded. */
    private readonly createdFiles: readonly string[],
    private readonly madeDir: string | undefined,
  ) {}

  /** Opens (creating when allowed) and locks the journal; refuses a torn or damaged tail. */
  static async open(dir: string, opts: WriterOptions & { allowTorn?: boolean } = {}): Promise<JournalWriter> {
    const madeDir = await prepareDir(dir, opts.create ?? true);
    let lock: HeldLock;
    try {
      lock = await acquireLock(dir);
    } catch (e) {
      if (madeDir !== undefined) await removeDirs(dir, madeDir);
      throw e;
    }
    try {
      const { entries, checkpoints } = await readJournalFiles(dir);
      if (!opts.allowTorn) {
        const t = entries.torn ?? checkpoints.torn;
        if (t) throw new JournalError(`journal ${dir}: ${t.file} ends with a torn line (${t.bytes.length} bytes after the last newline); nothing is repaired silently: run 'reprise journal repair ${dir} --key KEY' first`, 'TORN');
      }
      const state = tailState(dir, entries);
      const createdFiles = [entries, checkpoints].filter((f) => !f.exists).map((f) => f.name);
      const { entriesFh, checkpointsFh } = await openFiles(dir, createdFiles);
      return new JournalWriter(dir, lock, entriesFh, checkpointsFh, state.tree, state.lastHash, state.lastTs, state.lines, { ...opts, fsync: opts.fsync ?? true }, createdFiles, madeDir);
    } catch (e) {
      await lock.release();
      if (madeDir !== undefined) await removeDirs(dir, madeDir);
      throw e;
    }
  }

  get size(): number {
    return this.tree.size;
  }

  /** The entry lines as text (for callers that fold the journal under the lock, e.g. cases). */
  entryLines(): readonly string[] {
    return this.lines;
  }

  /**
   * Appends one entry signed by `signer`, then a checkpoint signed by the same key; durable
   * on return. All or nothing: on any failure both files are cut back to their lengths
   * before the append (and fsynced) before this throws, so "not recorded" is true.
   */
  async append(input: AppendInput, signer: Signer): Promise<AppendResult> {
    if (this.broken) throw new JournalError(`a write to journal ${this.dir} failed earlier and could not be undone; close this writer and run 'reprise journal verify ${this.dir}'`, 'UNKNOWN');
    checkInput(input);
    let ts = nowUtc(this.opts.clock);
    if (this.lastTs !== null && compareTimestamps(ts, this.lastTs) < 0) ts = this.lastTs; // never backwards
    const seq = this.tree.size;
    const { entry, hash, line } = signEntry({ seq, prev: this.lastHash, recordedAtUtc: ts, kind: input.kind, subject: input.subject, body: input.body, author: signer.keyId }, signer);
    const marks = await this.mark();
    this.tree.appendLeafHash(leafHash(line));
    let cp: ReturnType<typeof signCheckpoint>;
    try {
      cp = signCheckpoint({ treeSize: this.tree.size, rootHash: formatHash(this.tree.root().toString('hex')), timestampUtc: ts, signer: signer.keyId }, signer);
      // The entry is on disk before the checkpoint that covers it (a crash between them leaves an uncovered entry, never a checkpoint without its entry).
      await writeAll(this.entriesFh, Buffer.from(line + '\n', 'utf8'), this.opts.fsync);
      await writeAll(this.checkpointsFh, Buffer.from(cp.line + '\n', 'utf8'), this.opts.fsync);
    } catch (e) {
      this.tree.truncate(seq);
      return this.undo(marks, e);
    }
    this.lines.push(line);
    this.lastHash = hash;
    this.lastTs = ts;
    return { seq, entryHash: hash, entry, checkpoint: cp.checkpoint };
  }

  /** Each file's length before an append. */
  private async mark(): Promise<Mark[]> {
    try {
      return [
        { name: ENTRIES_FILE, fh: this.entriesFh, size: (await this.entriesFh.stat()).size },
        { name: CHECKPOINTS_FILE, fh: this.checkpointsFh, size: (await this.checkpointsFh.stat()).size },
      ];
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
    await Promise.allSettled([this.entriesFh.close(), this.checkpointsFh.close()]);
    // A journal this writer created and never recorded anything in is removed again: a
    // refused first write leaves the directory as it was.
    const leaveNothing = this.failed && !this.broken && this.tree.size === 0 && this.createdFiles.length > 0;
    if (leaveNothing) {
      for (const f of this.createdFiles) await unlink(join(this.dir, f)).catch(() => undefined);
      await fsyncDir(this.dir).catch(() => undefined);
    }
    await this.lock.release();
    if (leaveNothing && this.madeDir !== undefined) await removeDirs(this.dir, this.madeDir);
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

function checkInput(input: AppendInput): void {
  if (!ENTRY_KINDS.includes(input.kind)) throw new JournalError(`kind ${JSON.stringify(input.kind)} is not one of ${ENTRY_KINDS.join(', ')}`, 'USAGE');
  const s = checkSubject(input.subject, '');
  if (s.length > 0) throw new JournalError(s.map((f) => f.message).join('; '), 'USAGE');
  if (typeof input.body !== 'object' || input.body === null || Array.isArray(input.body)) throw new JournalError('the body must be a JSON object', 'USAGE');
}

/** Rebuilds the tree and the chain head from the entry lines (no signature checks: that is verify's job). */
function tailState(dir: string, entries: RawFile): { tree: MerkleTree; lastHash: string; lastTs: string | null; lines: string[] } {
  const tree = new MerkleTree();
  const lines: string[] = [];
  for (const l of entries.lines) {
    tree.appendLeafHash(leafHash(l.bytes));
    lines.push(l.bytes.toString('utf8'));
  }
  if (lines.length === 0) return { tree, lastHash: ZERO_HASH, lastTs: null, lines };
  const last = lines[lines.length - 1]!;
  const lineNo = lines.length;
  const damaged = (why: string) => new JournalError(`journal ${dir} is damaged at line ${lineNo} (${why}); a new entry cannot be chained to it: run 'reprise journal verify ${dir}'`, 'DAMAGED');
  let parsed;
  try {
    parsed = parseCanonical(last);
  } catch (e) {
    throw damaged(e instanceof JcsError ? e.code : 'unreadable');
  }
  // A number the parse changed: its hash is of another value than the line's (verify: RPR-JOURNAL-002).
  if (parsed.warnings[0]) throw damaged(parsed.warnings[0].code);
  const value = parsed.value;
  const shape = checkEntryShape(value, `line:${lineNo}`);
  const e = value as Entry;
  if (shape.length > 0 || e.seq !== lineNo - 1 || !isRfc3339Utc(e.recordedAtUtc))
    throw new JournalError(`journal ${dir} is damaged at line ${lineNo} (${shape[0]?.message ?? `seq ${String(e.seq)} where ${lineNo - 1} belongs`}); run 'reprise journal verify ${dir}'`, 'DAMAGED');
  return { tree, lastHash: entryHash(e), lastTs: e.recordedAtUtc, lines };
}

/** Appends one entry (lock, write, fsync, checkpoint, fsync, unlock). */
export async function appendEntry(dir: string, input: AppendInput, signer: Signer, opts: WriterOptions = {}): Promise<AppendResult> {
  const w = await JournalWriter.open(dir, opts);
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
  const w = await JournalWriter.open(dir, { ...opts, create: false, allowTorn: true });
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

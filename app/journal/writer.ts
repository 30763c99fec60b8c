/**
 * The journal writer: one process at a time (lock.ts), every write durable before it
 * returns. An append writes the entry line with O_APPEND and fsyncs it, then writes the
 * checkpoint line covering it and fsyncs that; when a file is created, the directory is
 * fsynced too so the new name survives a power cut. A torn tail refuses appends until an
 * explicit repair (which is itself journaled); nothing is repaired silently.
 */
import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { formatHash, sha256Hex, ZERO_HASH } from '../core/hash.js';
import { JcsError, parseCanonical } from '../core/jcs.js';
import type { Signer } from '../core/keys.js';
import { isRfc3339Utc, nowUtc } from '../core/time.js';
import { JournalError } from './errors.js';
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

/** A held journal: the lock, the open files and the in-memory tree. Close it when done. */
export class JournalWriter {
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
  ) {}

  /** Opens (creating when allowed) and locks the journal; refuses a torn or damaged tail. */
  static async open(dir: string, opts: WriterOptions & { allowTorn?: boolean } = {}): Promise<JournalWriter> {
    const create = opts.create ?? true;
    if (create) {
      const made = await mkdir(dir, { recursive: true }).catch((e: NodeJS.ErrnoException) => {
        throw new JournalError(`cannot create journal directory ${dir}: ${e.code ?? 'error'}`, 'IO');
      });
      // A new directory's own name must survive a power cut too.
      if (made !== undefined) await fsyncDir(dirname(made));
    }
    else if (!(await exists(join(dir, ENTRIES_FILE)))) throw new JournalError(`${dir} is not a journal (no ${ENTRIES_FILE})`, 'NOT_FOUND');
    const lock = await acquireLock(dir);
    try {
      const { entries, checkpoints } = await readJournalFiles(dir);
      if (!opts.allowTorn) {
        const t = entries.torn ?? checkpoints.torn;
        if (t) throw new JournalError(`journal ${dir}: ${t.file} ends with a torn line (${t.bytes.length} bytes after the last newline); nothing is repaired silently: run 'reprise journal repair ${dir} --key KEY' first`, 'TORN');
      }
      const state = tailState(dir, entries);
      const created = !entries.exists || !checkpoints.exists;
      const entriesFh = await open(join(dir, ENTRIES_FILE), 'a', 0o644);
      const checkpointsFh = await open(join(dir, CHECKPOINTS_FILE), 'a', 0o644);
      if (created) await fsyncDir(dir);
      return new JournalWriter(dir, lock, entriesFh, checkpointsFh, state.tree, state.lastHash, state.lastTs, state.lines, { ...opts, fsync: opts.fsync ?? true });
    } catch (e) {
      await lock.release();
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

  /** Appends one entry signed by `signer`, then a checkpoint signed by the same key; durable on return. */
  async append(input: AppendInput, signer: Signer): Promise<AppendResult> {
    if (this.broken) throw new JournalError(`a write to journal ${this.dir} failed earlier; close this writer and run 'reprise journal verify ${this.dir}'`, 'IO');
    checkInput(input);
    let ts = nowUtc(this.opts.clock);
    if (this.lastTs !== null && compareTimestamps(ts, this.lastTs) < 0) ts = this.lastTs; // never backwards
    const seq = this.tree.size;
    const { entry, hash, line } = signEntry({ seq, prev: this.lastHash, recordedAtUtc: ts, kind: input.kind, subject: input.subject, body: input.body, author: signer.keyId }, signer);
    await this.write(this.entriesFh, line);
    this.tree.appendLeafHash(leafHash(line));
    this.lines.push(line);
    this.lastHash = hash;
    this.lastTs = ts;
    const cp = signCheckpoint({ treeSize: this.tree.size, rootHash: formatHash(this.tree.root().toString('hex')), timestampUtc: ts, signer: signer.keyId }, signer);
    await this.write(this.checkpointsFh, cp.line);
    return { seq, entryHash: hash, entry, checkpoint: cp.checkpoint };
  }

  private broken = false;

  /** Writes one line and fsyncs it. A failed write (disk full...) may leave a torn tail, so the writer refuses further appends. */
  private async write(fh: FileHandle, line: string): Promise<void> {
    const buf = Buffer.from(line + '\n', 'utf8');
    try {
      let off = 0;
      while (off < buf.length) {
        const { bytesWritten } = await fh.write(buf, off, buf.length - off);
        off += bytesWritten;
      }
      if (this.opts.fsync) await fh.sync();
    } catch (e) {
      this.broken = true;
      throw new JournalError(`writing to journal ${this.dir} failed (${(e as NodeJS.ErrnoException).code ?? 'error'}); the entry is not acknowledged`, 'IO');
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.entriesFh.close(), this.checkpointsFh.close()]);
    await this.lock.release();
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
  let value: unknown;
  try {
    value = parseCanonical(last).value;
  } catch (e) {
    throw new JournalError(`journal ${dir} is damaged at line ${lineNo} (${e instanceof JcsError ? e.code : 'unreadable'}); a new entry cannot be chained to it: run 'reprise journal verify ${dir}'`, 'DAMAGED');
  }
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

/**
 * Truncates torn tails (only when asked) and journals the repair: the repair entry records
 * each file, offset, length, hash and (up to MAX_KEPT_TORN_BYTES) the discarded bytes.
 */
export async function repairJournal(dir: string, signer: Signer, opts: WriterOptions = {}): Promise<RepairResult | null> {
  // One lock for the whole repair: nobody can write between the truncation and its record.
  const w = await JournalWriter.open(dir, { ...opts, create: false, allowTorn: true });
  try {
    const files = await readJournalFiles(dir);
    const torn = [files.entries.torn, files.checkpoints.torn].filter((t): t is TornTail => t !== null);
    if (torn.length === 0) return null;
    for (const t of torn) {
      const fh = await open(join(dir, t.file), 'r+');
      try {
        await fh.truncate(t.offset);
        await fh.sync();
      } finally {
        await fh.close();
      }
    }
    const truncated = torn.map((t) => ({ file: t.file, offset: t.offset, length: t.bytes.length, sha256: formatHash(sha256Hex(t.bytes)) }));
    const body: JsonObject = {
      action: 'truncate-torn-tail',
      truncated: torn.map((t, i) => ({ ...truncated[i]!, ...(t.bytes.length <= MAX_KEPT_TORN_BYTES ? { bytesBase64: t.bytes.toString('base64') } : {}) })),
    };
    const entry = await w.append({ kind: 'journal-repair', subject: { claimRef: 'journal:repair' }, body }, signer);
    return { truncated, entry };
  } finally {
    await w.close();
  }
}

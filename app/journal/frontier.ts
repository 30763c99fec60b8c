/**
 * What a journal keeps beside its entries so that an append costs O(log n), not a re-read of
 * every entry (docs/journal.md, "The trusted state"). All of it is derived from
 * `entries.jsonl` and `checkpoints.jsonl` and checked before it is used; any doubt sends the
 * writer back to a full verification, which rebuilds it:
 *
 * - `tree.bin`: every complete subtree hash of the RFC 9162 tree, 32 bytes each, in the
 *   append-only order of Go's tlog package (merkle.ts `storedHashIndex`).
 * - `index.bin`: 40 bytes per entry (five big-endian u64): the byte offset of its line in
 *   `entries.jsonl`, and where the checkpoints and notes covering it begin (byte offset and
 *   line number in `checkpoints.jsonl`, then in `notes.jsonl`), so a verification since a held
 *   checkpoint starts reading at the right place in each file.
 * - `state.json`: the writer's last trusted state: the tree size, the chain head, the
 *   frontier (compact range), the newest checkpoint it verified (its own, as written), and
 *   the identity of each file as the writer left it (device, inode, size, mtime, ctime, links).
 *
 * A file whose identity differs from the recorded one was changed by something other than
 * a Reprise writer (an editor, a copy, an older version, a crash before the state was
 * written): the state is then not trusted and the journal is verified in full.
 */
import { randomBytes } from 'node:crypto';
import { constants, readSync, writeSync, type BigIntStats } from 'node:fs';
import { open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { isPlainObject } from '../core/closed.js';
import { checkOpenedInside, FileReadError } from '../core/files.js';
import { formatHash } from '../core/hash.js';
import { canonicalizeValue, parseCanonical } from '../core/jcs.js';
import { ioReason, JournalError } from './errors.js';
import { frontierBlocks, MerkleView, nodeHash, storedHashCount, storedHashIndex } from './merkle.js';

import { INDEX_FILE, STATE_FILE, TREE_FILE } from './layout.js';

export { INDEX_FILE, STATE_FILE, TREE_FILE };
export const STATE_TYPE = 'reprise.journal-state/v1';
const INDEX_RECORD = 40;

/**
 * Opens a file of the journal's own: never through a symbolic link (O_NOFOLLOW), only a
 * regular file, and only with one link, so a journal whose `entries.jsonl` is a symlink or a
 * hard link into another journal is refused instead of written through.
 */
export async function openJournalFile(
  dir: string,
  name: string,
  how: 'read' | 'append' | 'update',
): Promise<FileHandle> {
  const path = join(dir, name);
  const base = constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0);
  const flags =
    how === 'read'
      ? constants.O_RDONLY
      : how === 'append'
        ? constants.O_RDWR | constants.O_APPEND | constants.O_CREAT
        : constants.O_RDWR | constants.O_CREAT;
  let fh: FileHandle;
  try {
    fh = await open(path, flags | base, 0o644);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      throw new FileReadError(
        path,
        'a symbolic link: a journal file is opened only as a regular file inside its directory',
        code,
      );
    throw new FileReadError(path, code === 'ENOENT' ? 'ENOENT' : ioReason(e), code);
  }
  try {
    checkOpenedInside(fh.fd, path);
    const st = await fh.stat();
    if (!st.isFile()) throw new FileReadError(path, 'not a regular file');
    if (st.nlink !== 1)
      throw new FileReadError(
        path,
        `a file with ${st.nlink} hard links: a journal file must have exactly one (another link could be another journal's file)`,
      );
    return fh;
  } catch (e) {
    await fh.close().catch(() => undefined);
    throw e instanceof FileReadError ? e : new FileReadError(path, ioReason(e));
  }
}

/** A file's identity as the writer left it: any change not made by a writer changes one of these. */
export interface FileIdentity {
  dev: string;
  ino: string;
  size: number;
  mtimeNs: string;
  ctimeNs: string;
}

export async function identityOf(fh: FileHandle): Promise<FileIdentity> {
  const st: BigIntStats = await fh.stat({ bigint: true });
  return {
    dev: String(st.dev),
    ino: String(st.ino),
    size: Number(st.size),
    mtimeNs: String(st.mtimeNs),
    ctimeNs: String(st.ctimeNs),
  };
}

const sameIdentity = (a: FileIdentity, b: FileIdentity) =>
  a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;

/** The writer's last trusted state (state.json). */
export interface TrustedState {
  type: typeof STATE_TYPE;
  treeSize: number;
  /** The notes' origin (journalOrigin of entry 0), null while the journal is empty. */
  origin: string | null;
  /** Length of entries.jsonl, and the end of checkpoints.jsonl and notes.jsonl (complete lines only). */
  entriesBytes: number;
  checkpointsEnd: FilePlace;
  notesEnd: FilePlace;
  /** The last entry's hash and timestamp: what the next entry chains to. */
  head: string;
  lastRecordedAtUtc: string | null;
  /** The compact range at treeSize, hex, left to right. */
  frontier: string[];
  /** The newest checkpoint the writer verified: its line as written, and where it starts. */
  checkpoint: { line: string; offset: number } | null;
  /** Seqs of the quarantine entries (the case fold reads only these). */
  quarantine: number[];
  files: {
    entries: FileIdentity;
    checkpoints: FileIdentity;
    notes: FileIdentity;
    tree: FileIdentity;
    index: FileIdentity;
  };
}

/** Reads state.json; null when absent or not a well-formed state (the writer then verifies in full). */
export async function readState(dir: string): Promise<TrustedState | null> {
  let fh: FileHandle;
  try {
    fh = await openJournalFile(dir, STATE_FILE, 'read');
  } catch {
    return null;
  }
  try {
    const st = await fh.stat();
    if (st.size > 64 * 1024 * 1024) return null;
    const text = (await fh.readFile()).toString('utf8');
    const v = parseCanonical(text).value;
    return isState(v) ? v : null;
  } catch {
    return null;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

const isNat = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isPlace = (v: unknown): v is FilePlace => isPlainObject(v) && isNat(v['offset']) && isNat(v['line']);
const isIdentity = (v: unknown): v is FileIdentity =>
  isPlainObject(v) &&
  typeof v['dev'] === 'string' &&
  typeof v['ino'] === 'string' &&
  isNat(v['size']) &&
  typeof v['mtimeNs'] === 'string' &&
  typeof v['ctimeNs'] === 'string';

function isState(v: unknown): v is TrustedState {
  if (!isPlainObject(v) || v['type'] !== STATE_TYPE) return false;
  const files = v['files'];
  const cp = v['checkpoint'];
  return (
    isNat(v['treeSize']) &&
    isNat(v['entriesBytes']) &&
    isPlace(v['checkpointsEnd']) &&
    isPlace(v['notesEnd']) &&
    typeof v['head'] === 'string' &&
    (v['lastRecordedAtUtc'] === null || typeof v['lastRecordedAtUtc'] === 'string') &&
    Array.isArray(v['frontier']) &&
    v['frontier'].every((h) => typeof h === 'string' && /^[0-9a-f]{64}$/.test(h)) &&
    (cp === null || (isPlainObject(cp) && typeof cp['line'] === 'string' && isNat(cp['offset']))) &&
    Array.isArray(v['quarantine']) &&
    v['quarantine'].every(isNat) &&
    isPlainObject(files) &&
    (v['origin'] === null || typeof v['origin'] === 'string') &&
    ['entries', 'checkpoints', 'notes', 'tree', 'index'].every((k) => isIdentity(files[k]))
  );
}

/**
 * Writes state.json: a private file (created exclusively, so never through a link) renamed
 * over the name itself, so a reader sees the old state or the new one. Not writeFileAtomic,
 * which follows a link to a regular file on purpose (a user's output): a link at state.json
 * is not the journal's, and writing through it would overwrite a file outside the journal.
 * The rename replaces the link instead; the writer refuses a journal with one there when it
 * opens (writer.ts, openFiles), so this only matters for a link put there meanwhile.
 */
export async function writeState(dir: string, state: TrustedState): Promise<void> {
  const path = join(dir, STATE_FILE);
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
  try {
    await writeFile(tmp, canonicalizeValue(state) + '\n', { flag: 'wx', mode: 0o644 });
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}

/** Why the recorded identities do not match the open files (null: they all match). */
export function identityMismatch(state: TrustedState, now: TrustedState['files']): string | null {
  for (const k of ['entries', 'checkpoints', 'notes', 'tree', 'index'] as const)
    if (!sameIdentity(state.files[k], now[k])) return `${k} changed since the last writer left it`;
  return null;
}

/**
 * The tree file as a Merkle view: any complete block is one positional read. The writer
 * grows it with `append`, keeping the frontier in memory to hash the blocks a leaf completes.
 */
export class TreeFile extends MerkleView {
  private n: number;
  private frontierHashes: Buffer[];

  constructor(
    private readonly fh: FileHandle,
    size: number,
    frontier: Buffer[],
    /** Blocks read so far (a proof reads O(log² n) of them; a writer session reuses them). */
    private readonly cache = new Map<number, Buffer>(),
  ) {
    super();
    this.n = size;
    this.frontierHashes = frontier;
  }

  get size(): number {
    return this.n;
  }

  get frontier(): readonly Buffer[] {
    return this.frontierHashes;
  }

  protected stored(level: number, index: number): Buffer {
    const at = storedHashIndex(level, index);
    const have = this.cache.get(at);
    if (have) return have;
    const buf = Buffer.alloc(32);
    const got = readSync(this.fh.fd, buf, 0, 32, at * 32);
    if (got !== 32) throw new JournalError(`${TREE_FILE} is shorter than the tree it must hold`, 'DAMAGED');
    this.cache.set(at, buf);
    return buf;
  }

  /** Reads the frontier at `size` from the file (to check it against the recorded one). */
  readFrontier(size: number): Buffer[] {
    return frontierBlocks(size).map(([l, k]) => this.stored(l, k));
  }

  /** The stored hashes a new leaf adds (leaf first), and the new frontier: nothing is written yet. */
  grow(leaf: Buffer): { hashes: Buffer[]; frontier: Buffer[] } {
    const frontier = [...this.frontierHashes, leaf];
    const hashes = [leaf];
    // Each trailing 1 bit of the old size closes one block: merge the last two frontier hashes.
    for (let k = this.n; k % 2 === 1; k = Math.floor(k / 2)) {
      const right = frontier.pop()!;
      const left = frontier.pop()!;
      const parent = nodeHash(left, right);
      frontier.push(parent);
      hashes.push(parent);
    }
    return { hashes, frontier };
  }

  /** Writes what `grow` computed at its place (the end of the file) and takes the new size. */
  async commit(grown: { hashes: Buffer[]; frontier: Buffer[] }): Promise<void> {
    const at = storedHashCount(this.n);
    await writeAllAt(this.fh, Buffer.concat(grown.hashes), at * 32);
    // Bounded: a writer that appends a million entries in one session must not keep them all.
    if (this.cache.size > 65_536) this.cache.clear();
    grown.hashes.forEach((h, i) => this.cache.set(at + i, h));
    this.n++;
    this.frontierHashes = grown.frontier;
  }
}

/** The root a frontier gives: its blocks folded right to left. */
export function frontierRoot(frontier: readonly Buffer[]): Buffer | null {
  if (frontier.length === 0) return null;
  let r = frontier[frontier.length - 1]!;
  for (let i = frontier.length - 2; i >= 0; i--) r = nodeHash(frontier[i]!, r);
  return r;
}

/** Writes all of `buf` at `position` (in place: small writes through the thread pool cost more than the writes). */
export async function writeAllAt(fh: FileHandle, buf: Buffer, position: number): Promise<void> {
  let off = 0;
  while (off < buf.length) off += writeSync(fh.fd, buf, off, buf.length - off, position + off);
  return Promise.resolve();
}

/** Where something starts in a file: its byte offset and how many complete lines come before it. */
export interface FilePlace {
  offset: number;
  line: number;
}

/** One entry's index record: where its line starts, and where the checkpoints and notes covering it begin. */
export interface IndexRecord {
  entryOffset: number;
  checkpoints: FilePlace;
  notes: FilePlace;
}

export function indexRecord(r: IndexRecord): Buffer {
  const b = Buffer.alloc(INDEX_RECORD);
  [r.entryOffset, r.checkpoints.offset, r.checkpoints.line, r.notes.offset, r.notes.line].forEach((v, i) =>
    b.writeBigUInt64BE(BigInt(v), i * 8),
  );
  return b;
}

export async function readIndex(fh: FileHandle, seq: number): Promise<IndexRecord> {
  const b = Buffer.alloc(INDEX_RECORD);
  const { bytesRead } = await fh.read(b, 0, INDEX_RECORD, seq * INDEX_RECORD);
  if (bytesRead !== INDEX_RECORD) throw new JournalError(`${INDEX_FILE} has no record for entry ${seq}`, 'DAMAGED');
  const u = (i: number) => Number(b.readBigUInt64BE(i * 8));
  return { entryOffset: u(0), checkpoints: { offset: u(1), line: u(2) }, notes: { offset: u(3), line: u(4) } };
}

export const indexBytes = (size: number) => size * INDEX_RECORD;
export const treeBytes = (size: number) => storedHashCount(size) * 32;

/** Reads `length` bytes at `offset` exactly (a line the index points to). */
export async function readAt(fh: FileHandle, offset: number, length: number): Promise<Buffer> {
  const b = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await fh.read(b, got, length - got, offset + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  if (got !== length) throw new JournalError(`a journal file is shorter than its index says`, 'DAMAGED');
  return b;
}

export const hex = (b: Buffer) => b.toString('hex');
export const rootString = (b: Buffer) => formatHash(b.toString('hex'));

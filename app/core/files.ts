/** Writing files so that a reader never sees half of one, and reading files that may not be files. */
import { randomBytes } from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import { closeSync, constants, fstatSync, lstatSync, openSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, relative, sep } from 'node:path';
import { access, lstat, open, realpath, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { UsageError } from './errors.js';

/**
 * Writes `data` to a private file beside where it lands (writeTarget), then renames it over
 * that file: a reader (or a second writer) sees the old file or the new one, never a mix; a
 * failed write leaves the file as it was. `data` may come in pieces (never held whole).
 * Where it lands is checked again just before the rename, so that a device or a FIFO put at
 * the path during a long write is not replaced either.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array | Iterable<string>): Promise<void> {
  const target = await writeTarget(path);
  const tmp = `${target}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
  try {
    await writeFile(tmp, data, { flag: 'wx' });
    if ((await writeTarget(path)) !== target) throw new FileWriteError(path, 'it changed while it was written');
    await rename(tmp, target);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}

/** Flushes a file or a folder (a rename in it) to the disk: what is written survives a crash. */
export async function fsyncPath(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * A file that may not be written, with the reason as a phrase ("it is a directory"), or the
 * system's code when the system refused.
 */
export class FileWriteError extends UsageError {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`cannot write ${path}: ${reason}`, 'path');
    this.name = 'FileWriteError';
  }
}

/**
 * Where a write to `path` lands: `path` itself when nothing or a regular file is there; the
 * real path of a link to a regular file, so that the file is replaced and the link stays a
 * link (replacing the link would cut what the user linked). Anything else is refused: the
 * rename that makes a write atomic replaces whatever is at the path, and a device, a FIFO
 * or a socket replaced by a report is lost to its owner (as root, `--case /dev/full` would
 * be the system's device). A link to nothing is refused too: where it would land is a guess.
 */
export async function writeTarget(path: string): Promise<string> {
  let st: Stats;
  try {
    st = await lstat(path);
  } catch (e) {
    if (isMissing(e)) return path;
    throw new FileWriteError(path, readFailure(e));
  }
  if (st.isFile()) {
    notOwnStream(path, st);
    return path;
  }
  if (!st.isSymbolicLink()) throw new FileWriteError(path, notWritable(st));
  let real: string;
  try {
    // What the link leads to first: /dev/stderr on a pipe is a link to `pipe:[N]`, which
    // has no real path but is a pipe, and is refused as one.
    st = await stat(path);
    if (!st.isFile()) throw new FileWriteError(path, notWritable(st));
    real = await realpath(path);
  } catch (e) {
    if (e instanceof FileWriteError) throw e;
    throw new FileWriteError(path, isMissing(e) ? 'it is a symbolic link to nothing' : readFailure(e));
  }
  notOwnStream(path, st);
  return real;
}

/**
 * Refuses the regular file `st` (named `path`) when it is where this process's standard output or
 * error goes (`--html /dev/stdout > page.html`, or the redirect's own name): the write
 * replaces that file with a new one, and everything printed to the stream after it would
 * go to the old one, which nothing names any more.
 */
function notOwnStream(path: string, st: Stats): void {
  for (const [fd, stream] of [
    [1, 'standard output'],
    [2, 'standard error'],
  ] as const) {
    let own: Stats;
    try {
      own = fstatSync(fd);
    } catch {
      continue; // a closed stream is no file
    }
    if (own.isFile() && own.dev === st.dev && own.ino === st.ino)
      throw new FileWriteError(
        path,
        `it is where this run's ${stream} goes, and writing it would lose what is printed there; name another file`,
      );
  }
}

function notWritable(st: Stats): string {
  return st.isDirectory() ? 'it is a directory' : `it is ${describeFileType(st)}, not a regular file`;
}

/**
 * Refuses, before any work, a file the user named for output that cannot be written: no
 * name, something that is not a regular file (writeTarget), or a place in a folder that is
 * missing or not writable. A long run (a case of thousands of artifacts, an archive's
 * re-judgement) would otherwise learn it only at its end, and its work would be lost.
 * `flag` is how the user named it (`--out`).
 */
export async function checkOutputFile(path: string, flag: string): Promise<void> {
  if (path === '') throw new UsageError(`${flag} needs a file name`);
  const target = await writeTarget(path);
  const refuse = (why: string): UsageError => new FileWriteError(path, why);
  const dir = dirname(target);
  let parent: Stats;
  try {
    parent = await stat(dir);
    if (parent.isDirectory()) await access(dir, constants.W_OK);
  } catch (e) {
    throw refuse(`its folder ${dir}: ${readFailure(e)}`);
  }
  if (!parent.isDirectory()) throw refuse(`${dir} is not a folder`);
}

/** writeFileAtomic to a file the user named: a refusal (ENOSPC, EACCES…) is a usage error naming the file and the reason. */
export async function writeOutputFile(path: string, data: Parameters<typeof writeFileAtomic>[1]): Promise<void> {
  try {
    await writeFileAtomic(path, data);
  } catch (e) {
    throw e instanceof FileWriteError ? e : new FileWriteError(path, readFailure(e));
  }
}

/*
 * Reading files the user named. Every file Reprise reads on a user's behalf (an artifact,
 * a flag file, a body file, a key) comes through here, because a path can name something
 * that is not a file: /dev/zero and /dev/urandom never end, a FIFO blocks the opener until
 * a writer comes, a directory or a socket cannot be read at all. The file is opened with
 * O_NONBLOCK (so opening a FIFO returns at once), its descriptor is stat'ed (the thing
 * opened, not whatever the path names a moment later) and must be a regular file; it is
 * then read with a cap, so that a file that grows while it is read (or a /proc file that
 * claims size 0) cannot take memory without bound.
 */

/** The open flags for reading: read-only, and never blocking on a FIFO (0 where the platform has no O_NONBLOCK). */
export const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** The cap on a file read whole (an artifact, a file to canonicalize or lint): the largest Buffer Reprise reads. */
export const MAX_WHOLE_FILE_BYTES = 2 * 1024 * 1024 * 1024 - 1;

/** The cap on a flag file (trust store, policy, registries, keys, body files): far above any real one. */
export const MAX_FLAG_FILE_BYTES = 64 * 1024 * 1024;

/**
 * A file that could not be read, with the reason as a phrase ("a FIFO (named pipe), not a
 * regular file", "ENOENT"): callers that name the file in their own words use `reason`.
 */
export class FileReadError extends UsageError {
  constructor(
    readonly path: string,
    readonly reason: string,
    /** The errno code when the system refused (ENOENT, EACCES…); undefined when Reprise did. */
    readonly code?: string,
  ) {
    super(`cannot read ${path}: ${reason}`, 'path');
    this.name = 'FileReadError';
  }

  /** The same failure naming the file otherwise: a case names its files by their path in the case, never as the folder was typed. */
  named(path: string): FileReadError {
    return new FileReadError(path, this.reason, this.code);
  }
}

/**
 * Nothing at the path, said as the system says it. A name on disk that is not UTF-8
 * (evidence copied from a system that wrote Latin-1 names) reaches Node with each bad byte
 * read as U+FFFD, and that name opens nothing, while `ls` shows the file; a link whose
 * target is gone is shown by `ls` too: the message says which.
 */
class MissingFileError extends FileReadError {
  constructor(
    path: string,
    /** Why a file `ls` shows opens nothing, found at the path read (a name given later is not looked at). */
    private readonly why = whyMissing(path),
  ) {
    super(path, 'ENOENT', 'ENOENT');
    this.message =
      path === ''
        ? 'no such file or directory: "" (the path given is empty)'
        : `no such file or directory: ${path}${why}`;
  }

  override named(path: string): FileReadError {
    return new MissingFileError(path, this.why);
  }
}

function whyMissing(path: string): string {
  if (path.includes('\uFFFD'))
    return ' (its name holds U+FFFD, which is how a name that is not UTF-8 reads: such a file cannot be opened by that name; copy it under a UTF-8 name: Reprise judges its bytes, not its name)';
  try {
    return lstatSync(path).isSymbolicLink() ? ' (a symbolic link whose target does not exist)' : '';
  } catch {
    return '';
  }
}

/** What a read or a walk meets that it cannot follow, in words beside the system's code (a code alone would puzzle). */
const OPEN_FAILURES: Record<string, string> = {
  EACCES: 'permission denied (EACCES)',
  ELOOP: 'a loop of symbolic links (ELOOP)',
  ENAMETOOLONG: 'its path is longer than the system allows (ENAMETOOLONG)',
  // A device or special file opened without blocking that has nothing to give (/proc/kmsg).
  EAGAIN: 'it would block: a device or special file, not a file of bytes (EAGAIN)',
  EIO: 'an input/output error of the device (EIO)',
};

/** The reason a read (or a write) failed, for a caller's own message: the phrase of a FileReadError or FileWriteError, else the errno code (in words where OPEN_FAILURES has them). */
export function readFailure(e: unknown): string {
  if (e instanceof FileReadError || e instanceof FileWriteError) return e.reason;
  const code = (e as NodeJS.ErrnoException | undefined)?.code ?? 'error';
  return OPEN_FAILURES[code] ?? code;
}

/**
 * The usage error for a path the user named, or a walk found, that cannot be opened: "no
 * such file or directory" (MissingFileError) or the system's code, in words where a code
 * alone would puzzle (OPEN_FAILURES).
 */
export function cannotOpen(path: string, e: unknown): FileReadError {
  if (isMissing(e)) return new MissingFileError(path);
  const code = (e as NodeJS.ErrnoException).code ?? 'error';
  return new FileReadError(path, OPEN_FAILURES[code] ?? code, code);
}

/** Throws unless `path` is a folder (or, when `mayCreate`, nothing yet). */
export function checkDirectorySync(path: string, mayCreate: boolean): void {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    if (mayCreate && isMissing(e)) return;
    throw cannotOpen(path, e);
  }
  if (!st.isDirectory())
    throw new FileReadError(path, `${st.isFile() ? 'a regular file' : describeFileType(st)}, not a folder`);
}

/** Whether a read failed because nothing is at the path (a caller that may create the file asks). */
export function isMissing(e: unknown): boolean {
  return (e as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** What a non-regular file is, in words. */
export function describeFileType(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function notRegular(path: string, st: Stats): FileReadError {
  return new FileReadError(path, `${describeFileType(st)}, not a regular file`);
}

/** An open failure as a FileReadError; ENXIO is what opening a socket gives, so it is told as one. */
function openFailure(path: string, e: unknown): FileReadError {
  const code = (e as NodeJS.ErrnoException).code ?? 'error';
  if (code === 'ENOENT') return new FileReadError(path, 'ENOENT', code);
  if (code === 'ENXIO') {
    let st: Stats | undefined;
    try {
      st = statSync(path);
    } catch {
      st = undefined;
    }
    if (st) return notRegular(path, st);
  }
  return new FileReadError(path, code, code);
}

/** True when `p` is `root` or lies below it (both absolute, normalized real paths). */
export function isWithin(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel));
}

/*
 * Reads confined to folders. The workbench's host checks each path a request names against
 * the folders the user granted and hands the real path to a worker, which opens it later:
 * a folder on that path replaced by a symbolic link in between would lead the open outside
 * every granted folder. So a run the host starts carries those folders (EngineOptions
 * readRoots), and every file it opens is checked once open: its real path lies in one, and
 * the file there is the one opened (same device and inode). Whatever the path names after
 * that, the descriptor read is the checked one. Outside the host (the CLI) nothing is set.
 */
const confinement = new AsyncLocalStorage<readonly string[]>();

/** Runs `run` with every file it opens (through this module and the journal's) confined to `roots`; none given: unconfined. */
export function withReadConfinement<T>(roots: readonly string[] | undefined, run: () => Promise<T>): Promise<T> {
  return roots === undefined ? run() : confinement.run(roots, run);
}

/**
 * Throws FileReadError unless the open descriptor `fd` (of `path`) is a file inside the
 * folders the running job is confined to; the caller closes it. Nothing to check unconfined.
 */
export function checkOpenedInside(fd: number, path: string): void {
  const roots = confinement.getStore();
  if (roots === undefined) return;
  let inside = false;
  try {
    const real = realpathSync(path);
    if (roots.some((r) => isWithin(r, real))) {
      const [opened, there] = [fstatSync(fd), statSync(real)];
      inside = opened.dev === there.dev && opened.ino === there.ino;
    }
  } catch {
    inside = false;
  }
  if (!inside)
    throw new FileReadError(
      path,
      'it lies outside the folders this workbench may read (a folder on its path changed after it was checked); nothing of it was read',
    );
}

export interface OpenedFile {
  readonly fh: FileHandle;
  readonly stat: Stats;
}

/**
 * Opens a regular file for reading (or a directory, with `allowDirectory`, for callers that
 * treat one as an artifact); anything else is closed again and refused with a FileReadError.
 */
export async function openRegular(path: string, opts: { allowDirectory?: boolean } = {}): Promise<OpenedFile> {
  let fh: FileHandle;
  try {
    fh = await open(path, READ_FLAGS);
  } catch (e) {
    throw openFailure(path, e);
  }
  try {
    checkOpenedInside(fh.fd, path);
    const st = await fh.stat();
    if (!st.isFile() && !(opts.allowDirectory === true && st.isDirectory())) throw notRegular(path, st);
    return { fh, stat: st };
  } catch (e) {
    await fh.close().catch(() => undefined);
    throw e instanceof FileReadError ? e : new FileReadError(path, readFailure(e));
  }
}

/** Appending, creating when absent, and never blocking on a FIFO (no reader: ENXIO at once). */
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0);

/**
 * Opens a file the user's path names for appending (created when absent): as openRegular,
 * the descriptor must be a regular file, so that a FIFO, a device or a symlink to one at
 * the path is refused with a FileReadError (its `reason` says what it is) instead of
 * blocking the writer or writing into a device.
 */
export async function openRegularForAppend(path: string, mode = 0o644): Promise<FileHandle> {
  let fh: FileHandle;
  try {
    fh = await open(path, APPEND_FLAGS, mode);
  } catch (e) {
    throw openFailure(path, e);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw notRegular(path, st);
    return fh;
  } catch (e) {
    await fh.close().catch(() => undefined);
    throw e instanceof FileReadError ? e : new FileReadError(path, readFailure(e));
  }
}

function tooLarge(path: string, max: number): FileReadError {
  return new FileReadError(path, `larger than ${max} bytes, the limit for this file`);
}

/**
 * Reads an open regular file from its start to its end, refusing it once it passes `max`
 * bytes; `size` (from fstat) sizes the first buffer, and reading on past it catches a file
 * that grew or that reported a size of 0.
 */
export async function readOpened(path: string, { fh, stat }: OpenedFile, max: number): Promise<Buffer> {
  if (stat.size > max) throw tooLarge(path, max);
  let buf = Buffer.allocUnsafe(Math.max(stat.size, 1) + 1);
  let n = 0;
  for (;;) {
    if (n === buf.length) {
      if (n > max) throw tooLarge(path, max);
      const bigger = Buffer.allocUnsafe(Math.min(max + 1, buf.length * 2));
      buf.copy(bigger, 0, 0, n);
      buf = bigger;
    }
    let r: number;
    try {
      r = (await fh.read(buf, n, buf.length - n, n)).bytesRead;
    } catch (e) {
      throw new FileReadError(path, readFailure(e));
    }
    if (r === 0) break;
    n += r;
  }
  if (n > max) throw tooLarge(path, max);
  return buf.subarray(0, n);
}

/** The bytes of a regular file of at most `max` bytes (MAX_FLAG_FILE_BYTES by default), or a FileReadError. */
export async function readRegularFile(path: string, max = MAX_FLAG_FILE_BYTES): Promise<Buffer> {
  const opened = await openRegular(path);
  try {
    return await readOpened(path, opened, max);
  } finally {
    await opened.fh.close().catch(() => undefined);
  }
}

/** readRegularFile as text (UTF-8, no validation: for files Reprise wrote itself, a lock's). */
export async function readRegularText(path: string, max = MAX_FLAG_FILE_BYTES): Promise<string> {
  return (await readRegularFile(path, max)).toString('utf8');
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text a person wrote in a file (a note, a rationale) that will be signed: strictly
 * UTF-8, or a UsageError saying it is not. A lenient decode would sign U+FFFD where the
 * bytes were, a text nobody wrote. `what` names the file as the user gave it (`--body-file`).
 * A leading UTF-8 byte order mark (what Windows editors write) marks the encoding and is
 * not signed; `said` hears a line saying so, because what is signed is then not every byte
 * of the file, and a signer must not learn that from a hash that differs. The caller says
 * it once the text is signed (a refused text signs nothing).
 */
export async function readUtf8File(
  path: string,
  what: string,
  max = MAX_FLAG_FILE_BYTES,
  said?: (line: string) => void,
): Promise<string> {
  const bytes = await readRegularFile(path, max);
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    throw new UsageError(`${what} ${path} is not UTF-8 text`, 'bad-file');
  }
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    said?.(
      `${what} ${path} begins with a UTF-8 byte order mark (EF BB BF): it marks the encoding, and was not signed with the text`,
    );
  return text;
}

/** The synchronous check for callers that must not await (a flag checked at parse time): a regular file, readable. */
export function checkRegularFileSync(path: string, opts: { allowDirectory?: boolean } = {}): void {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (e) {
    throw openFailure(path, e);
  }
  try {
    checkOpenedInside(fd, path);
    const st = fstatSync(fd);
    if (!st.isFile() && !(opts.allowDirectory === true && st.isDirectory())) throw notRegular(path, st);
  } finally {
    closeSync(fd);
  }
}

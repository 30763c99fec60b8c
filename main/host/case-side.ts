/**
 * The engine host's reviewer's case (shared/case.ts): `startCase` verifies every artifact
 * of a folder with the case engine (app/engine/case/), pushing one progress over the case
 * and each verdict as it lands (`case-progress`), then the case report (`case-done`) or
 * why there is none (`case-failed`). A folder is named by its path (under a granted root,
 * through the same gate and options as a job) or made here from files the window sent
 * (`addCaseUpload`: a multi-file pick or drop becomes a private case folder, granted so its
 * artifacts open by path in the chain view, within a byte budget: CASE_BUDGET).
 */
import type { Stats } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  AddCaseUploadRequest,
  ApiEvent,
  CaseStarted,
  StartCaseRequest,
  StartJobRequest,
} from '../../shared/api.js';
import type { CaseReport } from '../../shared/case.js';
import type { RunCaseOptions } from '../../app/jobs/case.js';
import type { CaseFile } from '../../app/engine/case/walk.js';
import type { EngineJob } from '../../app/jobs/protocol.js';
import { declaredOptions } from '../../app/kinds/registry.js';
import { describeFileType, openRegular, readFailure } from '../../app/core/files.js';
import { ApiError } from './api-error.js';
import type { Grant } from './granted-gate.js';
import { abandonedWords, untilSettled, type Upload, type Uploads } from './uploads.js';

/** The case engine's entry point (app/jobs/case.ts, runCase). */
export type RunCase = (dir: string, o: RunCaseOptions) => Promise<CaseReport>;

export interface CaseSideDeps {
  /** The case engine (loaded when the first case starts). */
  run: RunCase;
  workers: number;
  uploads: Uploads;
  emit: (e: ApiEvent) => void;
  grant: (g: Grant) => Promise<void>;
  /** The host's own request check (EngineHost.jobOf): the folder through the gate, the options as a job takes them. */
  prepare: (req: StartJobRequest) => Promise<{ job: EngineJob }>;
  /** The gate (GrantedGate.confine): the real path of a path under a granted folder, else a refusal. */
  confine: (path: string, what: string) => Promise<string>;
  /** The bytes sent cases may hold (default CASE_BUDGET; a test's is small). */
  budget?: CaseBudget;
}

/** Case folders made from sent files kept at once; the oldest goes when another is made. */
const MAX_FOLDERS = 4;

/** The bytes one case folder made from sent files may hold, and all of them together. */
export interface CaseBudget {
  caseBytes: number;
  allBytes: number;
}

const GiB = 1024 * 1024 * 1024;
/**
 * Every sent file is a copy on the host's disk, in its temporary directory, which is often a
 * tmpfs in memory: without a budget one token holder could copy MAX_FOLDERS × MAX_FILES files
 * of up to 512 MiB (MAX_API_BYTES) each, some 20 TiB. A case of 2 GiB holds four files of the
 * largest size the API takes, or thousands of ordinary dumps; all the kept cases together hold
 * 4 GiB, what a temporary directory in memory (commonly half the RAM) holds on a machine of
 * 8 GiB. A larger case is opened from its folder on disk (`reprise serve --root`), which
 * copies nothing.
 */
export const CASE_BUDGET: CaseBudget = { caseBytes: 2 * GiB, allBytes: 4 * GiB };

/** A byte count as a limit is said: in GiB or MiB when it is a whole number of them. */
function byteWords(n: number): string {
  if (n >= GiB && n % GiB === 0) return `${n / GiB} GiB`;
  if (n >= 1048576 && n % 1048576 === 0) return `${n / 1048576} MiB`;
  return `${n} bytes`;
}

/**
 * Files one sent case may hold, how deep its folders go and how long a path in it is: room
 * for a real evidence tree (a journal's folders under a run's under a host's), while the
 * temporary folder and the path stay well inside Linux's PATH_MAX (4096) and a name inside
 * the 255 bytes a file system takes.
 */
const MAX_FILES = 10_000;
const MAX_DEPTH = 64;
const MAX_PATH = 3072;
const MAX_PART = 255;

/**
 * What is wrong with the path of a sent file in its case, or null. It must stay inside the
 * case folder: relative, `/` separated, no empty, `.` or `..` folder, no NUL. `\` is refused
 * because the Windows shell takes it as a separator (`..\x` would leave the folder), and one
 * rule in both shells keeps a case sent from either the same tree. `:` is an ordinary
 * character on Linux and macOS (timestamped evidence is named with it), and the host writes
 * into its own temporary folder, so it is refused only on Windows, where it names a drive
 * or a stream.
 */
function caseNameTrouble(name: string, parts: string[]): string | null {
  if (name.includes('\0')) return 'holds a NUL character, which no file name can';
  if (name.startsWith('/')) return 'is an absolute path: a sent file is named by its path inside the case';
  if (parts.includes('')) return 'has an empty folder name (a doubled / or one at the end)';
  if (parts.some((p) => p === '.' || p === '..')) return 'has a . or .. folder, which a path inside a case may not';
  if (name.includes('\\'))
    return 'holds \\, which separates folders on Windows: a path in a case separates them with /';
  if (process.platform === 'win32' && name.includes(':')) return 'holds :, which names a drive or a stream on Windows';
  if (parts.length > MAX_DEPTH)
    return `is ${parts.length} levels deep; a sent case goes at most ${MAX_DEPTH} levels deep`;
  const bytes = Buffer.byteLength(name);
  if (bytes > MAX_PATH) return `is ${bytes} bytes long; a path in a sent case is at most ${MAX_PATH} bytes`;
  if (parts.some((p) => Buffer.byteLength(p) > MAX_PART)) return `has a name longer than ${MAX_PART} bytes`;
  return null;
}

/** The path of a sent file in its case, as its folders and name; a refusal saying what is wrong with it. */
function caseFileName(name: unknown): string[] {
  if (typeof name !== 'string' || name === '') throw new ApiError('a case file is named by its path in the case', true);
  const parts = name.split('/');
  const trouble = caseNameTrouble(name, parts);
  if (trouble) throw new ApiError(`the sent file ${JSON.stringify(name.slice(0, 200))} ${trouble}`, true);
  return parts;
}

/**
 * A case folder made from sent files, and what each path in it is, file or folder. `claimed`
 * and `bytes` count the files being written too: claimed before the first write, they hold
 * however many sends race.
 */
interface SentFolder {
  dir: string;
  files: number;
  claimed: number;
  bytes: number;
  paths: Map<string, 'file' | 'folder'>;
}

/**
 * Claims a sent file's path and its folders in the case, or says why they clash with the
 * files sent before (a file where a folder of the path goes, a folder of its name, the same
 * name twice), before the disk would answer with an error naming the temporary folder.
 * Claimed at once, before any write: two sends racing for one path meet here. A failed write
 * gives back the file's name only: its folders may hold another send's file by then.
 */
function reserve(paths: Map<string, 'file' | 'folder'>, parts: string[]): void {
  const name = parts.join('/');
  const folders = parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
  const file = folders.find((f) => paths.get(f) === 'file');
  if (file) throw new ApiError(`the case already holds ${file} as a file, so ${name} cannot be added`, true);
  if (paths.get(name) === 'folder')
    throw new ApiError(`the case already holds ${name} as a folder, so a file of that name cannot be added`, true);
  if (paths.has(name)) throw new ApiError(`the case already holds ${name}`, true);
  for (const f of folders) paths.set(f, 'folder');
  paths.set(name, 'file');
}

/** The codes of a write refused because something was in the way (see storeError). */
const CLASHES = ['EEXIST', 'ENOTDIR', 'EISDIR'];

/** Writes a sent file into its case folder, its folders first; a write that fails part way leaves no part. */
async function store(dir: string, parts: string[], u: Upload): Promise<void> {
  const dest = join(dir, ...parts);
  if (parts.length > 1) await mkdir(join(dir, ...parts.slice(0, -1)), { recursive: true, mode: 0o700 });
  try {
    // Exclusive: two files of one name in one case is the window's mistake, said, never one overwriting the other.
    if (u.file !== undefined) await copyFile(u.file, dest, 1 /* COPYFILE_EXCL */);
    else await writeFile(dest, Buffer.concat(u.chunks), { flag: 'wx', mode: 0o600 });
  } catch (e) {
    // Made here, then cut short (a full disk): removed. One that was there already is not ours.
    if (!CLASHES.includes((e as NodeJS.ErrnoException).code ?? ''))
      await rm(dest, { force: true }).catch(() => undefined);
    throw e;
  }
}

/**
 * A write the claim let through and the disk refused (a name differing only in case on a
 * file system that ignores case, a full disk): the code, never the error's own words, which
 * name the host's temporary folder.
 */
function storeError(name: string, e: unknown): ApiError {
  const code = (e as NodeJS.ErrnoException).code ?? 'error';
  if (CLASHES.includes(code))
    return new ApiError(`the case already holds a file or folder in the place of ${name} (${code})`, true);
  return new ApiError(`cannot store ${name}: ${code}`, true);
}

export class CaseSide {
  private readonly folders = new Map<string, SentFolder>();
  private readonly running = new Map<string, { abort: AbortController }>();
  private next = 1;
  private nextFolder = 1;

  constructor(private readonly deps: CaseSideDeps) {}

  async addUpload(req: AddCaseUploadRequest): Promise<{ folderId: string; files: number }> {
    const parts = caseFileName(req?.name);
    const u = await this.sentUpload(req);
    const folderId = req.folderId ?? (await this.newFolder(req.name, u.size));
    const folder = this.folders.get(folderId);
    if (!folder) throw new ApiError('unknown case folder (it may have been replaced by a newer one)', true);
    this.claim(folder, parts, u.size);
    try {
      await store(folder.dir, parts, u);
    } catch (e) {
      folder.paths.delete(req.name);
      folder.claimed--;
      folder.bytes -= u.size;
      throw storeError(req.name, e);
    }
    folder.files++;
    return { folderId, files: folder.files };
  }

  /** The upload a request names, once all its bytes have come. */
  private async sentUpload(req: AddCaseUploadRequest): Promise<Upload> {
    const u = typeof req?.uploadId === 'string' ? this.deps.uploads.get(req.uploadId) : undefined;
    if (!u) throw new ApiError('unknown upload (it may have been replaced by a newer one)', true);
    await untilSettled(u);
    const failed = abandonedWords(u);
    if (failed) throw new ApiError(failed, true);
    if (u.received !== u.size)
      throw new ApiError(`the upload of ${u.name} is incomplete (${u.received} of ${u.size} bytes)`, true);
    return u;
  }

  /**
   * Claims a file's place, count and bytes in its folder, with no await between the checks and
   * the claim: sends racing into one folder (the same upload under many names) each see the
   * others' claims, so none passes a limit. A refusal claims nothing and writes nothing.
   */
  private claim(folder: SentFolder, parts: string[], size: number): void {
    if (folder.claimed >= MAX_FILES)
      throw new ApiError(`a case sent from the window holds at most ${MAX_FILES} files`, true);
    this.checkBudget(parts.join('/'), size, folder.bytes, this.heldBytes());
    reserve(folder.paths, parts);
    folder.claimed++;
    folder.bytes += size;
  }

  /** The bytes the kept case folders hold (or are being written), less those of a folder about to go. */
  private heldBytes(leaving?: SentFolder): number {
    let n = 0;
    for (const f of this.folders.values()) if (f !== leaving) n += f.bytes;
    return n;
  }

  /** Refuses a file that would take its case, or all the sent cases, past the budget (CASE_BUDGET). */
  private checkBudget(name: string, size: number, inCase: number, inAll: number): void {
    const { caseBytes, allBytes } = this.deps.budget ?? CASE_BUDGET;
    const what = `${name} (${size} bytes) cannot be added`;
    if (inCase + size > caseBytes)
      throw new ApiError(
        `${what}: a case sent from the window holds at most ${byteWords(caseBytes)} (this one holds ${inCase} bytes); open a larger case from its folder`,
        true,
      );
    if (inAll + size > allBytes)
      throw new ApiError(
        `${what}: the cases sent from the window hold at most ${byteWords(allBytes)} together (they hold ${inAll} bytes); open a larger case from its folder`,
        true,
      );
  }

  /**
   * A new case folder for a file of `size` bytes; the oldest goes when there are too many. A
   * file the budget refuses is refused first, so it neither makes a folder nor drops the
   * oldest (whose bytes no longer count when the new one is made).
   */
  private async newFolder(name: string, size: number): Promise<string> {
    const leaving = this.folders.size >= MAX_FOLDERS ? this.folders.values().next().value : undefined;
    this.checkBudget(name, size, 0, this.heldBytes(leaving));
    const dir = await mkdtemp(join(tmpdir(), 'reprise-case-'));
    // The host made it from what the user sent: its artifacts may be opened by path.
    await this.deps.grant({ roots: [dir] });
    const folderId = `casefolder-${this.nextFolder++}`;
    this.folders.set(folderId, { dir, files: 0, claimed: 0, bytes: 0, paths: new Map() });
    while (this.folders.size > MAX_FOLDERS) {
      const [oldest, f] = this.folders.entries().next().value!;
      this.folders.delete(oldest);
      void rm(f.dir, { recursive: true, force: true }).catch(() => undefined);
    }
    return folderId;
  }

  /** The folder a request names: a sent case's, or a path the gate allows (through prepare). */
  private async folderOf(req: StartCaseRequest): Promise<{ shown: string; path: string; job: EngineJob }> {
    const src = req?.source;
    if (typeof src !== 'object' || src === null) throw new ApiError('startCase needs {source, mode}', true);
    let shown: string;
    if (src.type === 'uploads') {
      const f = typeof src.folderId === 'string' ? this.folders.get(src.folderId) : undefined;
      if (!f) throw new ApiError('unknown case folder (it may have been replaced by a newer one)', true);
      if (f.files === 0) throw new ApiError('the case folder holds no file yet', true);
      shown = f.dir;
    } else if (src.type === 'path') shown = src.path;
    else throw new ApiError('a case is a folder path or files sent from the window', true);
    const { job } = await this.deps.prepare({
      source: { type: 'path', path: shown },
      mode: req.mode,
      ...(req.options ? { options: req.options } : {}),
    });
    if (job.op !== 'runPath') throw new ApiError('a case is a folder', true);
    const st = await stat(job.path);
    if (!st.isDirectory()) throw new ApiError(notAFolder(shown, st), true);
    await checkOptionFiles(req.options, job);
    return { shown, path: job.path, job };
  }

  async start(req: StartCaseRequest): Promise<CaseStarted> {
    const { shown, path, job } = await this.folderOf(req);
    const caseId = `case-${this.next++}`;
    const abort = new AbortController();
    this.running.set(caseId, { abort });
    const emit = this.deps.emit;
    void this.deps
      .run(path, {
        workers: this.deps.workers,
        options: job.options,
        mode: job.mode,
        signal: abort.signal,
        admit: (f) => this.admit(f),
        // Asked of every folder the walk opens, by its real path: one outside every granted
        // folder (a link, or a folder swapped for one mid-walk) is not walked; admit refuses it once.
        enter: (dir) =>
          this.deps.confine(dir, 'a case folder').then(
            () => true,
            () => false,
          ),
        onProgress: ({ done, total, artifact }) =>
          emit({ type: 'case-progress', caseId, done, total, ...(artifact ? { artifact } : {}) }),
      })
      .then(
        (report) => emit({ type: 'case-done', caseId, report }),
        (e: unknown) => {
          const cancelled = abort.signal.aborted;
          emit({ type: 'case-failed', caseId, message: cancelled ? 'cancelled' : errorWords(e), cancelled });
        },
      )
      .finally(() => this.running.delete(caseId));
    return { caseId, dir: shown };
  }

  /**
   * A walked file of a case, through the gate as any path the window names: the folder was
   * checked, but the walk follows links, and one inside a granted folder may point outside
   * every one. Such a file is listed as refused (RPR-CASE-002), never read; the others run
   * from their real paths, so a link swapped after the check reaches nothing new.
   */
  private async admit(f: CaseFile): Promise<CaseFile | string> {
    try {
      return { ...f, path: await this.deps.confine(f.path, 'a case artifact') };
    } catch (e) {
      const words = errorWords(e);
      // A path the gate cannot resolve (a loop of links, a name too long, gone) opens nothing
      // either: the engine says why in the CLI's words, so the case is the same bytes as the
      // CLI's, and its reads are confined to the granted folders whatever the path names.
      if (words.startsWith('cannot open ')) return f;
      // A refusal names the file by its path in the case, never the folder as the host holds it.
      return words.split(f.path).join(f.rel);
    }
  }

  async cancel(req: { caseId: string }): Promise<boolean> {
    const c = typeof req?.caseId === 'string' ? this.running.get(req.caseId) : undefined;
    if (!c) return false;
    c.abort.abort();
    return true;
  }

  async close(): Promise<void> {
    for (const c of this.running.values()) c.abort.abort();
    await Promise.all([...this.folders.values()].map((f) => rm(f.dir, { recursive: true, force: true })));
    this.folders.clear();
  }
}

/** Why a path is no case: a file opens on its own; a FIFO, a device or a socket is named as what it is. */
function notAFolder(shown: string, st: Stats): string {
  if (st.isFile()) return `${shown} is a file: a case is a folder (open a single file from the Open view)`;
  return `${shown} is ${describeFileType(st)}, not a folder: a case is a folder`;
}

/**
 * Every file option of a case, opened as the engine opens it (never blocking on a FIFO): one
 * it cannot read is refused before the walk, as the CLI refuses it (check.ts, engineOptions).
 * Run without it, every artifact would be listed as unverifiable and the case read as a FAIL
 * of evidence that may be valid. `named` holds the paths as the request gave them, which the
 * window's words for a refused option look for (renderer/src/lib/deep-link.ts).
 */
async function checkOptionFiles(named: StartCaseRequest['options'], job: EngineJob): Promise<void> {
  const given = (named ?? {}) as Record<string, string | undefined>;
  const opts = job.options as Record<string, unknown>;
  for (const d of declaredOptions()) {
    const real = opts[d.name];
    if (!d.path || typeof real !== 'string') continue;
    try {
      await (await openRegular(real, { allowDirectory: d.path !== 'file' })).fh.close();
    } catch (e) {
      const path = given[d.name] ?? real;
      throw new ApiError(`cannot read the option ${d.name} ${path}: ${readFailure(e)}`, true);
    }
  }
}

function errorWords(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

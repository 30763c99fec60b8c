/**
 * A picked file's bytes on the web host's disk: the upload route writes the request body to
 * a private temporary file and hands the engine its path (adoptUpload, a message of the
 * shell's own, never an API call), so the bytes do not cross between processes or into a
 * worker, and the job opens the file as a file opened by path is (detection on its head,
 * the hash streamed beside the parse). Measured on a 100 MiB dump: the upload's job then
 * takes as long as the same file opened by path, where piping the bytes to the engine and
 * verifying them from memory took about a second more.
 *
 * The file is made when the upload begins and named to the engine as arriving, so the job
 * can start at once and read the bytes as they are written (app/engine/arriving.ts): the
 * verification's first steps then overlap the browser's sending.
 *
 * Private: one directory made by mkdtemp (mode 0700), each file created exclusively with
 * mode 0600, never readable by another user. A file goes when its upload is replaced (the
 * engine keeps the newest MAX_UPLOADS; so does this), when the body is refused or cut off,
 * and the whole directory when the web host closes.
 */
import { mkdtemp, open, rm, unlink, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../host/api-error.js';
import { MAX_UPLOADS } from '../host/engine-host.js';
import type { UploadFile } from '../host/engine-remote.js';
import type { HostedApi } from './server.js';

/** The engine's side, as EngineHost and the RemoteEngine both have it. */
export type FileUploadApi = HostedApi & { adoptUpload(u: UploadFile): Promise<{ received: number }> };

export function takesUploadFiles(api: HostedApi): api is FileUploadApi {
  return typeof (api as Partial<FileUploadApi>).adoptUpload === 'function';
}

/** Bytes of a body written at once (see receive). */
const WRITE_BYTES = 1024 * 1024;
/** The longest a piece of a body waits in memory for more before it is written (see receive). */
const WRITE_AFTER_MS = 1000;

/** Appends the pieces; a short write (the disk full) refuses the upload rather than keep part of it. */
async function writeAll(fh: FileHandle, parts: Buffer[], bytes: number): Promise<void> {
  const { bytesWritten } = await fh.writev(parts);
  if (bytesWritten !== bytes)
    throw new ApiError(
      `the upload could not be written whole (${bytesWritten} of ${bytes} bytes of a piece): is the disk full?`,
      true,
    );
}

export class UploadFiles {
  private dir: Promise<string> | null = null;
  /** Announced sizes of the uploads the engine keeps, oldest first. */
  private readonly announced = new Map<string, number>();
  /** Uploads whose file exists (made when the upload begins). */
  private readonly files = new Set<string>();
  /** Uploads whose body has been (or is being) received: one body each. */
  private readonly bodies = new Set<string>();
  private closed = false;

  constructor(private readonly api: FileUploadApi) {}

  /**
   * The API the window talks to: the engine's, except that each upload begun gets its file
   * at once and says so (`arriving`), so a job can follow the bytes as they come.
   */
  hosted(): HostedApi {
    const beginUpload: HostedApi['beginUpload'] = async (req) => {
      const r = await this.api.beginUpload(req);
      await this.begun(r.uploadId, req.size);
      return { ...r, arriving: true };
    };
    return new Proxy(this.api, {
      get: (target, key) => {
        if (key === 'beginUpload') return beginUpload;
        const v: unknown = Reflect.get(target, key);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  }

  /** Makes the upload's empty file (exclusively, mode 0600) and names it to the engine as arriving. */
  private async begun(uploadId: string, size: number): Promise<void> {
    // A restarted engine counts its uploads from 1 again: a name reused drops the old file.
    this.drop(uploadId);
    this.announced.set(uploadId, size);
    while (this.announced.size > MAX_UPLOADS) this.drop(this.announced.keys().next().value!);
    const path = join(await this.folder(), uploadId);
    await (await open(path, 'wx', 0o600)).close();
    this.files.add(uploadId);
    await this.api.adoptUpload({ uploadId, path, state: 'arriving' });
  }

  private drop(uploadId: string): void {
    this.announced.delete(uploadId);
    this.bodies.delete(uploadId);
    // Unlinked, the file tells a job still following it that no more bytes will come.
    if (!this.files.delete(uploadId) || !this.dir) return;
    void this.dir.then((d) => unlink(join(d, uploadId))).catch(() => undefined);
  }

  private folder(): Promise<string> {
    this.dir ??= mkdtemp(join(tmpdir(), 'reprise-picked-'));
    return this.dir;
  }

  /**
   * Writes the body to the upload's own file, refusing it once it is longer than announced
   * (one piece in memory at a time: each is written before the next is read), makes it
   * read-only once the body has ended, and tells the engine it is complete; or, when the body fails, why, and removes the file. Answers the
   * bytes the engine holds.
   */
  async receive(uploadId: string, body: AsyncIterable<Buffer>): Promise<number> {
    const size = this.announced.get(uploadId);
    if (size === undefined || this.closed || !this.files.has(uploadId)) throw new ApiError('unknown upload', true);
    if (this.bodies.has(uploadId)) throw new ApiError('this upload was sent already', true);
    this.bodies.add(uploadId);
    const path = join(await this.folder(), uploadId);
    try {
      const fh = await open(path, 'r+');
      try {
        let written = 0;
        // The body comes in pieces of about 64 KiB: gathered into one writev per WRITE_BYTES,
        // a 100 MiB upload costs ~100 writes instead of ~1,600, on the cores the browser's
        // sending and the job's decoding share.
        let parts: Buffer[] = [];
        let held = 0;
        let wroteAt = performance.now();
        for await (const d of body) {
          written += d.length;
          if (written > size) throw new ApiError(`the upload is longer than announced (${size} bytes)`, true);
          parts.push(d);
          held += d.length;
          // A slow sender's bytes still reach the file within WRITE_AFTER_MS: a job following
          // it, and the host's wait for a stalled upload (uploads.ts untilSettled), see them come.
          if (held < WRITE_BYTES && performance.now() - wroteAt < WRITE_AFTER_MS) continue;
          await writeAll(fh, parts, held);
          parts = [];
          held = 0;
          wroteAt = performance.now();
        }
        if (held > 0) await writeAll(fh, parts, held);
        // A body that ended early is no upload: a job following it would wait for bytes that never come.
        if (written < size)
          throw new ApiError(`the upload ended after ${written} of the ${size} bytes announced`, true);
        // Read-only: the mark a job following the file waits for (app/engine/arriving.ts).
        await fh.chmod(0o400);
      } finally {
        await fh.close();
      }
      return (await this.api.adoptUpload({ uploadId, path, state: 'complete' })).received;
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      await this.api.adoptUpload({ uploadId, path, state: 'abandoned', reason }).catch(() => undefined);
      this.files.delete(uploadId);
      await unlink(path).catch(() => undefined);
      throw e;
    }
  }

  /** Removes every upload's file and the directory (the web host is closing). */
  async close(): Promise<void> {
    this.closed = true;
    const dir = this.dir;
    this.dir = null;
    this.files.clear();
    if (dir) await rm(await dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

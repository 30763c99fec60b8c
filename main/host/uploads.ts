/**
 * Uploads the window sends to the engine host (beginUpload, uploadChunk) or the shell
 * writes to a private file of its own (adoptUpload): the newest MAX_UPLOADS are held, and
 * a job on one reads its chunks or its file (engine-host.ts).
 */
import { stat } from 'node:fs/promises';
import type { UploadChunkRequest } from '../../shared/api.js';
import { ApiError } from './api-error.js';
import type { UploadFile } from './engine-remote.js';

/** Largest artifact accepted over the API (the base64 text is ~4/3 of this). */
export const MAX_API_BYTES = 512 * 1024 * 1024;
/** Uploads kept at once; older ones are replaced (the web host keeps as many files, upload-files.ts). */
export const MAX_UPLOADS = 2;
/** Largest chunk accepted by uploadChunk (base64 text). */
const MAX_CHUNK_BASE64 = 16 * 1024 * 1024;
/** Largest raw chunk accepted by uploadChunk. */
const MAX_CHUNK_BYTES = 12 * 1024 * 1024;

export interface Upload {
  name: string;
  size: number;
  chunks: Buffer[];
  received: number;
  /** The private file the shell wrote the bytes to (adoptUpload), read by path instead of chunks. */
  file?: string;
  /** The shell is still writing that file: a job follows it as it grows (app/engine/arriving.ts). */
  arriving?: boolean;
  /** Why the shell's sending failed: jobs on this upload end with it. */
  abandoned?: string;
  /** Settles when an arriving upload is complete, abandoned or replaced: what reads it whole waits for it. */
  settled?: Promise<void>;
  settle?: () => void;
}

/**
 * How long a request that needs an upload's every byte (a job that reads it whole, a file
 * added to a sent case) waits while not one more byte arrives: the window sends a body as
 * soon as it begins an upload, so a body that stalls this long is not coming, and the
 * request says so rather than waiting for ever.
 */
export const UPLOAD_IDLE_MS = 60_000;
/** How often the wait looks at how many bytes have arrived. */
const IDLE_POLL_MS = 1_000;

/**
 * Waits until an upload is complete, abandoned or replaced (`settled`), or throws once no
 * byte has arrived for UPLOAD_IDLE_MS. Bytes arrive in the upload's file (the shell writes
 * it), so its size is what is watched.
 */
export async function untilSettled(u: Upload, idleMs = UPLOAD_IDLE_MS, pollMs = IDLE_POLL_MS): Promise<void> {
  if (!u.settled) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  let seen = -1;
  let still = 0;
  const arrived = async (): Promise<number> =>
    u.file === undefined ? u.received : ((await stat(u.file).catch(() => null))?.size ?? -1);
  const idle = new Promise<never>((_, reject) => {
    const look = async (): Promise<void> => {
      const n = await arrived();
      if (done) return;
      if (n !== seen) [seen, still] = [n, 0];
      else if ((still += pollMs) >= idleMs)
        return reject(
          new ApiError(
            `the upload of ${u.name} stalled: no byte arrived for ${idleMs / 1000} s (${Math.max(n, 0)} of ${u.size} bytes); send it again`,
            true,
          ),
        );
      timer = setTimeout(() => void look(), pollMs);
    };
    void look();
  });
  try {
    await Promise.race([u.settled, idle]);
  } finally {
    done = true;
    clearTimeout(timer);
  }
}

/** The upload's own words for a job that ended because its sending failed. */
export function abandonedWords(u: Upload | undefined): string | null {
  return u?.abandoned !== undefined ? `the upload of ${u.name} failed: ${u.abandoned}` : null;
}

export class Uploads {
  private readonly held = new Map<string, Upload>();
  private next = 1;

  get(id: string): Upload | undefined {
    return this.held.get(id);
  }

  begin(req: { name: string; size: number }): { uploadId: string } {
    if (typeof req?.name !== 'string' || !Number.isSafeInteger(req.size) || req.size < 0)
      throw new ApiError('beginUpload needs {name, size}', true);
    if (req.size > MAX_API_BYTES) throw new ApiError(`the file is larger than ${MAX_API_BYTES} bytes`, true);
    const uploadId = `upload-${this.next++}`;
    this.held.set(uploadId, { name: req.name, size: req.size, chunks: [], received: 0 });
    while (this.held.size > MAX_UPLOADS) {
      const oldest = this.held.keys().next().value!;
      this.held.get(oldest)?.settle?.();
      this.held.delete(oldest);
    }
    return { uploadId };
  }

  chunk(req: UploadChunkRequest): { received: number } {
    const u = typeof req?.uploadId === 'string' ? this.held.get(req.uploadId) : undefined;
    if (!u) throw new ApiError('unknown upload', true);
    // The web host makes every upload a file to be written (adoptUpload 'arriving'); a
    // script that sends chunks instead turns it back into one held here, if no body came.
    if (u.file !== undefined) {
      if (!u.arriving || u.received > 0) throw new ApiError(`the upload of ${u.name} is sent as an HTTP body`, true);
      Object.assign(u, { file: undefined, arriving: false });
      u.settle?.();
    }
    let bytes: Buffer;
    if (req.data instanceof Uint8Array) {
      if (req.data.length > MAX_CHUNK_BYTES) throw new ApiError('a chunk is at most 12 MiB', true);
      bytes = Buffer.from(req.data.buffer, req.data.byteOffset, req.data.length);
    } else {
      if (typeof req.dataBase64 !== 'string' || req.dataBase64.length > MAX_CHUNK_BASE64)
        throw new ApiError('a chunk is raw data or base64 text of at most 12 MiB', true);
      bytes = Buffer.from(req.dataBase64, 'base64');
    }
    if (u.received + bytes.length > u.size) {
      this.held.delete(req.uploadId);
      throw new ApiError(`the upload of ${u.name} is longer than announced (${u.size} bytes)`, true);
    }
    u.chunks.push(bytes);
    u.received += bytes.length;
    return { received: u.received };
  }

  /**
   * The shell writes an upload's bytes to a private file of its own (the web host's upload
   * route, upload-files.ts): the job opens that file by path, as a file opened by path is
   * (no copy of the bytes between processes or into the worker). The shell names the file
   * when the upload begins (`arriving`: a job may start at once and follow it as it
   * grows), again once every byte is written (`complete`), or says why its sending failed
   * (`abandoned`). Called by the shell only (engine-serve.ts), never through the API, so the
   * path is not held to the gate.
   */
  async adopt(req: UploadFile): Promise<{ received: number }> {
    const u = this.held.get(req.uploadId);
    if (!u) throw new ApiError('unknown upload', true);
    if (req.state === 'abandoned') {
      Object.assign(u, { abandoned: req.reason ?? 'the sending failed', arriving: false });
      u.settle?.();
      return { received: u.received };
    }
    const st = await stat(req.path).catch(() => null);
    if (!st?.isFile()) throw new ApiError(`the upload of ${u.name} was not stored`, false);
    if (st.size > u.size) {
      this.held.delete(req.uploadId);
      throw new ApiError(`the upload of ${u.name} is longer than announced (${u.size} bytes)`, true);
    }
    Object.assign(u, { file: req.path, chunks: [], received: st.size, arriving: req.state === 'arriving' });
    if (u.arriving) u.settled ??= new Promise<void>((r) => (u.settle = r));
    else u.settle?.();
    return { received: st.size };
  }
}

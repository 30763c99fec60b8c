/**
 * A request that needs an upload's every byte (a job reading it whole, a file added to a sent
 * case) waits while bytes arrive, and answers with an error, rather than never, once they stop
 * (main/host/uploads.ts untilSettled). Short limits here; the host's are a minute.
 */
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stat } from 'node:fs/promises';
import { Uploads, untilSettled } from '../../main/host/uploads.js';
import { UploadFiles, type FileUploadApi } from '../../main/webhost/upload-files.js';

let dir: string;
beforeEach(async () => void (dir = await mkdtemp(join(tmpdir(), 'reprise-stall-'))));
afterEach(async () => rm(dir, { recursive: true, force: true }));

async function arriving(size: number) {
  const uploads = new Uploads();
  const { uploadId } = uploads.begin({ name: 'claim.dump.json', size });
  const path = join(dir, uploadId);
  await writeFile(path, '');
  await uploads.adopt({ uploadId, path, state: 'arriving' });
  return { uploads, uploadId, path, upload: uploads.get(uploadId)! };
}

describe('untilSettled', () => {
  it('says the upload stalled once no byte arrives for the idle limit', async () => {
    const { upload } = await arriving(10);
    await expect(untilSettled(upload, 100, 10)).rejects.toThrow(
      'the upload of claim.dump.json stalled: no byte arrived for 0.1 s (0 of 10 bytes); send it again',
    );
  });

  it('keeps waiting while bytes arrive, and returns once the upload is complete', async () => {
    const { uploads, uploadId, path, upload } = await arriving(30);
    const waited = untilSettled(upload, 300, 10);
    // 30 bytes, one every 30 ms: three times the idle limit in all, never idle that long.
    for (let i = 0; i < 30; i++) {
      await new Promise((r) => setTimeout(r, 30));
      await appendFile(path, 'x');
    }
    await uploads.adopt({ uploadId, path, state: 'complete' });
    await expect(waited).resolves.toBeUndefined();
    expect(upload.received).toBe(30);
  });

  it('returns at once for an upload that is not arriving, and when the sending is abandoned', async () => {
    const held = new Uploads();
    const { uploadId } = held.begin({ name: 'a.json', size: 1 });
    await expect(untilSettled(held.get(uploadId)!, 100, 10)).resolves.toBeUndefined();
    const { uploads, uploadId: id, path, upload } = await arriving(10);
    const waited = untilSettled(upload, 60_000, 10);
    await uploads.adopt({ uploadId: id, path, state: 'abandoned', reason: 'the connection closed' });
    await expect(waited).resolves.toBeUndefined();
  });

  it('a slow sender through the web host: its bytes reach the file while it sends, so its wait never reads it as stalled', async () => {
    const uploads = new Uploads();
    const api = {
      beginUpload: async (r: { name: string; size: number }) => uploads.begin(r),
      adoptUpload: uploads.adopt.bind(uploads),
    };
    const files = new UploadFiles(api as unknown as FileUploadApi);
    const { uploadId } = await files.hosted().beginUpload({ name: 'slow.dump.json', size: 2 * 16384 });
    const upload = uploads.get(uploadId)!;
    // Two small pieces a second and more apart, then nothing more until the first is on disk:
    // held in memory until a megabyte had come, they never reached the file the wait watches.
    async function* slow(): AsyncGenerator<Buffer> {
      yield Buffer.alloc(16384, 0x20);
      await new Promise((r) => setTimeout(r, 1100));
      yield Buffer.alloc(16384, 0x20);
      for (let i = 0; i < 200 && ((await stat(upload.file!).catch(() => null))?.size ?? 0) === 0; i++)
        await new Promise((r) => setTimeout(r, 50));
    }
    const received = files.receive(uploadId, slow());
    await expect(untilSettled(upload, 60_000, 10)).resolves.toBeUndefined();
    await expect(received).resolves.toBe(2 * 16384);
    await files.close();
  }, 30_000);
});

/**
 * A picked file's upload on a full disk (a small tmpfs, mounted when running as root): the
 * web host refuses the body with a clear reason, tells the engine the upload was abandoned
 * with that reason, and keeps no part of it (the private file is removed).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRoot, mountTmpfs } from '../helpers/full-disk.js';
import type { UploadFile } from '../../main/host/engine-remote.js';
import { UploadFiles, type FileUploadApi } from '../../main/webhost/upload-files.js';

async function* pieces(total: number, piece = 64 * 1024): AsyncGenerator<Buffer> {
  for (let sent = 0; sent < total; sent += piece) yield Buffer.alloc(Math.min(piece, total - sent), 0x61);
}

describe.skipIf(!isRoot)('an upload on a full disk (needs root to mount a 1 MiB tmpfs)', () => {
  let dir = '';
  let mounted = false;
  const oldTmp = process.env['TMPDIR'];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'reprise-full-upload-'));
    mounted = mountTmpfs(dir, '1m');
    // The host makes its upload folder in the system's temporary directory: the small disk.
    process.env['TMPDIR'] = dir;
  });

  afterAll(() => {
    if (oldTmp === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = oldTmp;
    if (mounted) execFileSync('umount', [dir], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  });

  it('is refused with the reason, abandoned with it, and leaves no file', async ({ skip }) => {
    if (!mounted) skip('mount failed');
    const told: UploadFile[] = [];
    const api = {
      beginUpload: async () => ({ uploadId: 'upload-1' }),
      adoptUpload: async (u: UploadFile) => {
        told.push(u);
        return { received: 0 };
      },
    } as unknown as FileUploadApi;
    const files = new UploadFiles(api);
    const size = 4 * 1024 * 1024;
    await files.hosted().beginUpload({ name: 'claim.json', size });
    const refused = await files.receive('upload-1', pieces(size)).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/ENOSPC|disk full/);
    expect(refused).not.toMatch(/\n\s+at /);
    expect(told.map((u) => u.state)).toEqual(['arriving', 'abandoned']);
    expect(told[1]).toMatchObject({ state: 'abandoned', reason: refused });
    // Nothing of the body is kept: the folder holds no file.
    const folders = readdirSync(dir).filter((f) => f.startsWith('reprise-picked-'));
    expect(folders).toHaveLength(1);
    expect(readdirSync(join(dir, folders[0]!))).toEqual([]);
    await files.close();
    expect(existsSync(join(dir, folders[0]!))).toBe(false);
  });
});

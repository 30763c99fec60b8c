import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPath } from '../../app/engine/run.js';

// runPath reads small files into a scratch buffer without a stat; every size around the
// scratch's 64 KiB must still give exactly the file's bytes (the report's SHA-256 says so).
describe('runPath reads the whole file, whatever its size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reprise-read-'));
  for (const size of [0, 1, 4095, 4096, 65535, 65536, 65537, 131072, 300001]) {
    it(`${size} bytes`, async () => {
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 131 + (i >> 8)) & 0xff;
      const p = join(dir, `f${size}.bin`);
      writeFileSync(p, bytes);
      const r = await runPath(p, 'verify', {});
      expect(r.artifact.sha256).toBe('sha256:' + createHash('sha256').update(bytes).digest('hex'));
    });
  }
  it('reads a file again after a larger one (the scratch holds nothing over)', async () => {
    const big = join(dir, 'big.json');
    writeFileSync(big, '[' + '1,'.repeat(30000) + '1]');
    const small = join(dir, 'small.json');
    writeFileSync(small, '{"a":1}');
    await runPath(big, 'verify', {});
    const r = await runPath(small, 'verify', {});
    expect(r.artifact.sha256).toBe('sha256:' + createHash('sha256').update('{"a":1}').digest('hex'));
  });
  it('refuses a directory with no artifact kind and a missing path with a message', async () => {
    await expect(runPath(dir, 'verify', {})).rejects.toThrow(/directory that holds no artifact/);
    await expect(runPath(join(dir, 'absent'), 'verify', {})).rejects.toThrow(/no such file/);
  });
});

/**
 * `reprise verify DIR --case FILE` where the case report cannot be written whole: on a full
 * filesystem (a small tmpfs, mounted when running as root) and under a file-size limit
 * (`prlimit --fsize`). The report is written in pieces (core/json-pieces.ts) to a private
 * file that is renamed over FILE only when whole, so a refused write exits non-zero with one
 * clear line and leaves FILE as it was and no private file beside it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { hasPrlimit, isRoot, mountTmpfs } from '../helpers/full-disk.js';
import { caseFixture, type CaseFixture } from './fixture.js';

const OLD = 'the case report of an earlier run\n';
let fx: CaseFixture;
/** A case whose report is several of the pieces it is written in (64 Ki code units): twelve copies of the fixture. */
let big = '';
let whole = '';
beforeAll(async () => {
  fx = await caseFixture();
  big = mkdtempSync(join(tmpdir(), 'reprise-case-big-'));
  for (let i = 0; i < 12; i++) cpSync(fx.dir, join(big, `copy-${i}`), { recursive: true });
  whole = (await runCli(['verify', big, '--case', '-', '--trust-store', fx.keys.trustPath])).stdout;
}, 120_000);
afterAll(() => rmSync(big, { recursive: true, force: true }));

/** Runs the case into `out`, under a file-size limit when given. */
function runCase(out: string, fsize?: number) {
  const args = [BIN, 'verify', big, '--case', out, '--trust-store', fx.keys.trustPath];
  const [cmd, argv] =
    fsize === undefined ? [process.execPath, args] : ['prlimit', [`--fsize=${fsize}`, process.execPath, ...args]];
  return spawnSync(cmd, argv, { encoding: 'utf8', timeout: 120_000 });
}

/** Not written: exit 3 with one line naming the file and why; the old report kept, nothing beside it. */
function expectRefused(r: ReturnType<typeof runCase>, dir: string, code: string): void {
  expect(r.status, r.stderr).toBe(3);
  expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr).toContain(`cannot write ${join(dir, 'case.json')}: ${code}`);
  expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  expect(readFileSync(join(dir, 'case.json'), 'utf8')).toBe(OLD);
  expect(readdirSync(dir)).toEqual(['case.json']);
}

describe.skipIf(!isRoot)(
  'the case report on a full filesystem (tmpfs; skipped unless root, which mounting needs)',
  () => {
    let dir = '';
    let mounted = false;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'reprise-case-full-'));
      mounted = mountTmpfs(dir, '64k');
    });
    afterAll(() => {
      if (mounted) execFileSync('umount', [dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    });

    it('is refused whole: the old report stays and no part of the new one is kept', () => {
      expect(mounted, 'mount -t tmpfs failed although running as root').toBe(true);
      // The old report takes one page of the 64 KiB; the new one fails after several pieces.
      expect(Buffer.byteLength(whole)).toBeGreaterThan(3 * 64 * 1024);
      writeFileSync(join(dir, 'case.json'), OLD);
      expectRefused(runCase(join(dir, 'case.json')), dir, 'ENOSPC');
    }, 120_000);
  },
);

describe.skipIf(!hasPrlimit)('the case report under a file-size limit', () => {
  it('is written whole or refused whole, at every limit around its size', () => {
    const n = Buffer.byteLength(whole);
    expect(n).toBeGreaterThan(3 * 64 * 1024);
    for (const limit of [0, 1, 64 * 1024 - 1, 64 * 1024, Math.floor(n / 2), n - 1, n]) {
      const dir = mkdtempSync(join(tmpdir(), 'reprise-case-fsize-'));
      writeFileSync(join(dir, 'case.json'), OLD);
      const r = runCase(join(dir, 'case.json'), limit);
      if (limit >= n) {
        expect(r.status, r.stderr).toBe(1); // the fixture's failing EVAL, as without the limit
        expect(readFileSync(join(dir, 'case.json'), 'utf8')).toBe(whole);
        expect(readdirSync(dir)).toEqual(['case.json']);
      } else expectRefused(r, dir, 'EFBIG');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});

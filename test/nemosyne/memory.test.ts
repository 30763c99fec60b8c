/**
 * Flat memory: verifying a package of 150+ MiB from its path (runPath: positional reads,
 * inflate workers reading the shared descriptor) keeps peak RSS under a bound that
 * reading the whole file (runBytes, as before) exceeds. Child processes of the built
 * engine (dist/), as the CLI runs it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPackageParts, packPackage } from '../../app/kinds/nemosyne/package-writer.js';
import { cliBuilt, ROOT } from '../helpers/cli.js';

const MiB = 1024 * 1024;
/** Peak RSS allowed for verifying the 150+ MiB package from its path. */
const BOUND_MIB = 200;

const CHILD = `
import { readFileSync } from 'node:fs';
const { runBytes, runPath } = await import(process.env.ROOT + 'dist/app/engine/run.js');
const options = { limits: { maxArchiveBytes: 2e9, maxTotalBytes: 2e9 } };
const r = process.env.MODE === 'path' ? await runPath(process.env.PKG, 'verify', options) : await runBytes(process.env.PKG, readFileSync(process.env.PKG), 'verify', options);
// VmHWM (Linux): this process's own high-water mark. getrusage's maxRSS would also count
// the pages of the (large) test process this child was forked from.
const hwm = /VmHWM:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
console.log(JSON.stringify({ verdict: r.verdict, rules: r.findings.map((f) => f.rule), maxRssMiB: Number(hwm[1]) / 1024 }));
`;

function child(mode: 'path' | 'bytes', pkg: string): { verdict: string; rules: string[]; maxRssMiB: number } {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD], {
    env: { ...process.env, ROOT, PKG: pkg, MODE: mode },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as { verdict: string; rules: string[]; maxRssMiB: number };
}

describe.skipIf(!cliBuilt() || !existsSync('/proc/self/status'))('flat memory (child process)', () => {
  it(`a 160 MiB package (150 MiB stored in 12 entries, 10 deflated) verifies from its path under ${BOUND_MIB} MiB peak RSS; read whole it needs more`, () => {
    const extraFiles = [
      ...Array.from({ length: 12 }, (_, i) => ({
        name: `extras/big-${i}.bin`,
        data: Buffer.alloc(12.5 * MiB, 0x41 + i),
      })),
      ...Array.from({ length: 10 }, (_, i) => ({
        name: `extras/part-${i}.csv`,
        data: Buffer.from(Array.from({ length: 100_000 }, (_, k) => `${(k * 7919 + i) % 100_003},`).join('')),
      })),
    ];
    const parts = buildPackageParts(2, { digest: false, extraFiles });
    const zip = packPackage(parts, (a) => ({
      ...a,
      entries: a.entries.map((e) => (String(e.name).startsWith('extras/big-') ? { ...e, method: 0 } : e)),
      fastDeflate: true,
    }));
    expect(zip.length).toBeGreaterThan(150 * MiB);
    const pkg = join(mkdtempSync(join(tmpdir(), 'reprise-nemosyne-rss-')), 'large.nemosyne');
    writeFileSync(pkg, zip);
    const path = child('path', pkg);
    expect(path.rules.filter((r) => !r.startsWith('RPR-NEM-0'))).toEqual([]);
    expect(path.verdict).toBe('pass');
    expect(path.maxRssMiB).toBeLessThan(BOUND_MIB);
    const whole = child('bytes', pkg);
    expect(whole.verdict).toBe('pass');
    expect(whole.maxRssMiB).toBeGreaterThan(BOUND_MIB);
  }, 120_000);
});

/**
 * Over-deep JSON through the built CLI, in a child process whose peak RSS (VmHWM, read by a
 * tiny --import hook at exit) and time are measured: 64 MiB of `[` (an unclosed array
 * nested millions of levels) as a dump document and as a ROM bullet value is refused at
 * the 512-level limit with ERR_DEPTH within 10 s and under 512 MiB. The files are written
 * to os.tmpdir() and deleted.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeRom } from '../../app/kinds/replay-dump/rom-encoding.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { sampleSpec, trustStoreDocument } from '../../app/examples/dumps.js';
import { BIN, cliBuilt, ROOT } from '../helpers/cli.js';

const MiB = 1024 * 1024;
const SIZE = 64 * MiB;
const RSS_BOUND_MIB = 512;
const TIME_BOUND_MS = 10_000;

const HOOK = `import { readFileSync, writeFileSync } from 'node:fs';
process.on('exit', () => {
  const m = /VmHWM:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  writeFileSync(process.env.REPRISE_RSS_OUT, String(Number(m[1]) / 1024));
});
`;

let dir: string;
let rom: string;
let store: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reprise-deep-hostile-'));
  writeFileSync(join(dir, 'hook.mjs'), HOOK);
  store = join(dir, 'trust.json');
  writeFileSync(store, trustStoreDocument());
  rom = encodeRom(await buildDump(sampleSpec(), sampleSigner('active')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `head`, then SIZE bytes of `[` (in 16 MiB chunks), then `tail`. */
function generate(name: string, head: string, tail: string): string {
  const p = join(dir, name);
  const fd = openSync(p, 'w');
  writeSync(fd, head);
  const chunk = Buffer.alloc(16 * MiB, '[');
  for (let n = 0; n < SIZE; n += chunk.length) writeSync(fd, chunk);
  writeSync(fd, tail);
  closeSync(fd);
  return p;
}

interface Run {
  code: number | null;
  out: string;
  ms: number;
  rssMiB: number;
}

function verify(path: string): Promise<Run> {
  const rss = join(dir, 'rss.txt');
  rmSync(rss, { force: true });
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', join(dir, 'hook.mjs'), BIN, 'verify', path, '--trust-store', store], { cwd: ROOT, env: { ...process.env, REPRISE_RSS_OUT: rss } });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.stderr.on('data', (d: Buffer) => chunks.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const rssMiB = existsSync(rss) ? Number(readFileSync(rss, 'utf8')) : NaN;
      rmSync(path, { force: true });
      resolve({ code, out: Buffer.concat(chunks).toString('utf8'), ms: Date.now() - t0, rssMiB });
    });
  });
}

const CASES: [label: string, name: string, build: () => [head: string, tail: string]][] = [
  ['a .dump.json of 64 MiB of `[`', 'deep.dump.json', () => ['', '']],
  [
    'a ROM bullet value of 64 MiB of `[`',
    'deep.rom.md',
    () => {
      const i = rom.indexOf('* [arity]: 1');
      return [rom.slice(0, i) + '* [arity]: ', rom.slice(i + '* [arity]: 1'.length)];
    },
  ],
];

describe.skipIf(!cliBuilt() || !existsSync('/proc/self/status'))('over-deep JSON: refused at the depth limit in bounded time and memory (built CLI)', () => {
  for (const [label, name, build] of CASES) {
    it(`${label}: exit 1 with ERR_DEPTH, under ${TIME_BOUND_MS / 1000} s and ${RSS_BOUND_MIB} MiB`, async () => {
      const [head, tail] = build();
      const r = await verify(generate(name, head, tail));
      console.log(`deep-hostile: ${label}: exit ${r.code}, ${r.ms} ms, peak RSS ${r.rssMiB.toFixed(0)} MiB`);
      expect(r.code, r.out.slice(0, 2000)).toBe(1);
      expect(r.out).toContain('ERR_DEPTH');
      expect(r.out).not.toMatch(/FATAL|heap out of memory|\n\s+at /);
      expect(r.out.length).toBeLessThan(64 * 1024);
      expect(r.ms).toBeLessThan(TIME_BOUND_MS);
      expect(r.rssMiB).toBeLessThan(RSS_BOUND_MIB);
    }, 120_000);
  }
});

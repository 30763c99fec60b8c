/**
 * Every path the CLI reads (the positional artifact, a directory walked in a batch, every
 * flag that names a file) × every kind of thing that is not a regular file: /dev/zero and
 * /dev/urandom never end, a FIFO blocks its opener, a directory and a socket cannot be
 * read. Each must end in one line on stderr and exit 3, within seconds and in bounded
 * memory (peak RSS measured by GNU time), never a hang or a read without end.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliBuilt, runCli } from '../helpers/cli.js';

const HAVE_TOOLS = process.platform === 'linux' && existsSync('/usr/bin/time') && existsSync('/dev/zero');
const LIMIT_KB = 256 * 1024;
const TIMEOUT_MS = 15_000;

let dir: string;
let server: Server | undefined;
const special: Record<string, string> = {};

beforeAll(async () => {
  if (!HAVE_TOOLS) return;
  dir = mkdtempSync(join(tmpdir(), 'reprise-io-'));
  special['/dev/zero'] = '/dev/zero';
  special['/dev/urandom'] = '/dev/urandom';
  special['fifo'] = join(dir, 'fifo');
  await new Promise<void>((resolve, reject) => {
    const p = spawn('mkfifo', [special['fifo']!]);
    p.on('close', (c) => (c === 0 ? resolve() : reject(new Error('mkfifo failed'))));
  });
  special['directory'] = join(dir, 'a-directory');
  mkdirSync(special['directory']);
  special['socket'] = join(dir, 'sock');
  server = createServer();
  await new Promise<void>((resolve) => server!.listen(special['socket'], resolve));
  special['link to /dev/zero'] = join(dir, 'zero-link');
  symlinkSync('/dev/zero', special['link to /dev/zero']);
  writeFileSync(join(dir, 'a.json'), '{"type":"nothing-known"}');
  mkdirSync(join(dir, 'journal'));
  const k = await runCli(['keys', 'generate', '--out', join(dir, 'key.pem'), '--role', 'reviewer', '--trust-store', join(dir, 'trust.json')], { cwd: dir });
  expect(k.code, k.stderr).toBe(0);
});

afterAll(() => {
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Each external read path: the argv with X where the hostile path goes. */
const READ_PATHS: { name: string; argv: (x: string) => string[]; dirIsArtifact?: boolean }[] = [
  { name: 'verify PATH', argv: (x) => ['verify', x], dirIsArtifact: true },
  { name: 'replay PATH', argv: (x) => ['replay', x], dirIsArtifact: true },
  { name: 'verify --workers 1 PATH', argv: (x) => ['verify', '--workers', '1', x], dirIsArtifact: true },
  ...['trust-store', 'policy', 'providers', 'profiles', 'key'].map((f) => ({ name: `verify --${f}`, argv: (x: string) => ['verify', join(dir, 'a.json'), `--${f}`, x] })),
  { name: 'replay --kernel-adapter', argv: (x) => ['replay', join(dir, 'a.json'), '--kernel-adapter', x], dirIsArtifact: true },
  { name: 'canonicalize FILE', argv: (x) => ['canonicalize', x] },
  { name: 'lint PATH', argv: (x) => ['lint', x], dirIsArtifact: true },
  { name: 'attest MANIFEST', argv: (x) => ['attest', x, '--key', join(dir, 'key.pem')] },
  { name: 'journal record --key', argv: (x) => ['journal', 'record', join(dir, 'journal'), '--kind', 'review-rationale', '--claim', 'c', '--body-file', join(dir, 'a.json'), '--key', x] },
  { name: 'attest --verify', argv: (x) => ['attest', '--verify', x, '--trust-store', join(dir, 'trust.json')] },
  { name: 'attest --verify --trust-store', argv: (x) => ['attest', '--verify', join(dir, 'a.json'), '--trust-store', x] },
  { name: 'journal record --body-file', argv: (x) => ['journal', 'record', join(dir, 'journal'), '--kind', 'review-rationale', '--claim', 'c', '--body-file', x, '--key', join(dir, 'key.pem')] },
  { name: 'journal verify --trust-store', argv: (x) => ['journal', 'verify', join(dir, 'journal'), '--trust-store', x] },
  { name: 'journal check-proof FILE', argv: (x) => ['journal', 'check-proof', x] },
  { name: 'export --attestation', argv: (x) => ['export', join(dir, 'a.json'), '--journal', join(dir, 'journal'), '--out', join(dir, 'bundle.zip'), '--attestation', x] },
  { name: 'keys generate --trust-store', argv: (x) => ['keys', 'generate', '--out', join(dir, `k-${Math.random().toString(36).slice(2)}.pem`), '--role', 'reviewer', '--trust-store', x] },
];

interface Measured {
  code: number | null;
  stdout: string;
  stderr: string;
  peakKb: number;
  ms: number;
}

/** Runs the CLI under GNU time (peak RSS into a file), killed after TIMEOUT_MS. */
function measured(argv: string[]): Promise<Measured> {
  const rss = join(dir, `rss-${Math.random().toString(36).slice(2)}`);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%M', '-o', rss, process.execPath, BIN, ...argv], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const peakKb = existsSync(rss) ? Number(readFileSync(rss, 'utf8').trim().split('\n').pop()) : Infinity;
      rmSync(rss, { force: true });
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), peakKb, ms: Date.now() - started });
    });
  });
}

/** What is wrong with a run that should be a one-line refusal, or null. */
function refusalProblem(r: Measured, path: string): string | null {
  if (r.ms >= TIMEOUT_MS) return `no answer within ${TIMEOUT_MS} ms`;
  if (r.code !== 3) return `exit ${r.code}`;
  if (r.stderr.trimEnd().split('\n').length !== 1 || !r.stderr.startsWith('reprise: ') || !r.stderr.includes(path)) return 'not one line naming the path';
  if (/internal error/.test(r.stderr)) return 'an internal error';
  if (r.peakKb >= LIMIT_KB) return `peak RSS ${r.peakKb} KiB`;
  return null;
}

/** Runs the cases a few at a time (the machine's cores are shared). */
async function inBatches<T>(items: T[], n: number, f: (t: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += n) await Promise.all(items.slice(i, i + n).map(f));
}

describe.skipIf(!HAVE_TOOLS || !cliBuilt())('every read path refuses what is not a regular file', () => {
  it('each read path × /dev/zero, /dev/urandom, a FIFO, a directory, a socket, a link to /dev/zero: one line, exit 3, bounded', async () => {
    const cases: { what: string; argv: string[]; path: string }[] = [];
    for (const rp of READ_PATHS)
      for (const [kind, path] of Object.entries(special)) {
        if (kind === 'directory' && rp.dirIsArtifact) continue; // a directory is an artifact (a journal) or a tree to walk there
        cases.push({ what: `${rp.name} ${kind}`, argv: rp.argv(path), path });
      }
    expect(cases.length).toBeGreaterThan(90);
    let worst = 0;
    const problems: string[] = [];
    await inBatches(cases, 4, async (c) => {
      const r = await measured(c.argv);
      worst = Math.max(worst, r.peakKb);
      const p = refusalProblem(r, c.path);
      if (p) problems.push(`${c.what}: ${p}: ${r.stderr.slice(0, 300)}`);
    });
    expect(problems).toEqual([]);
    expect(worst).toBeLessThan(LIMIT_KB);
  }, 600_000);

  it('a batch directory holding a FIFO, a socket and links to /dev/zero and /dev/urandom reports each on one line, checks the rest', async () => {
    const batch = join(dir, 'batch');
    mkdirSync(batch);
    writeFileSync(join(batch, 'good.json'), '{"type":"nothing-known"}');
    symlinkSync('/dev/zero', join(batch, 'zero'));
    symlinkSync('/dev/urandom', join(batch, 'urandom'));
    symlinkSync(special['fifo']!, join(batch, 'fifo-link'));
    symlinkSync(special['socket']!, join(batch, 'sock-link'));
    for (const workers of ['0', '2']) {
      const r = await measured(['verify', '--workers', workers, batch]);
      expect(r.ms).toBeLessThan(TIMEOUT_MS);
      expect(r.code, r.stderr).toBe(3);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines, r.stderr).toHaveLength(4);
      for (const name of ['zero', 'urandom', 'fifo-link', 'sock-link']) expect(lines.some((l) => l.startsWith('reprise: ') && l.includes(join(batch, name)) && l.includes('not a regular file')), name).toBe(true);
      expect(r.stdout).toMatch(/FAIL +.*good\.json/); // the regular file is still checked
      expect(r.stdout).toMatch(/5 artifacts: 1 fail, 4 error/);
      expect(r.peakKb).toBeLessThan(LIMIT_KB);
    }
  }, 120_000);
});

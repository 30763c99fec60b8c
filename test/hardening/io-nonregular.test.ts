/**
 * Every path the CLI reads (the positional artifact, a directory walked in a batch, every
 * flag that names a file) × every kind of thing that is not a regular file: /dev/zero and
 * /dev/urandom never end, a FIFO blocks its opener, a directory and a socket cannot be
 * read. Each must end in one line on stderr and exit 3, in bounded CPU time and memory
 * (test/helpers/measured-cli.ts), never a hang or a read without end.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { canMeasureRss, runMeasured, type MeasuredRun } from '../helpers/measured-cli.js';

const HAVE_TOOLS = process.platform === 'linux' && canMeasureRss() && existsSync('/dev/zero');
const LIMIT_MIB = 256;
/** A refusal reads next to nothing: seconds of CPU time would mean it read on. */
const CPU_LIMIT_MS = 5_000;
/** Stops a run that hangs (a FIFO blocks without using any CPU); far above a refusal's time on a loaded machine. */
const KILL_AFTER_MS = 60_000;

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
  const k = await runCli(
    ['keys', 'generate', '--out', join(dir, 'key.pem'), '--role', 'reviewer', '--trust-store', join(dir, 'trust.json')],
    { cwd: dir },
  );
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
  ...['trust-store', 'policy', 'providers', 'profiles', 'key'].map((f) => ({
    name: `verify --${f}`,
    argv: (x: string) => ['verify', join(dir, 'a.json'), `--${f}`, x],
  })),
  {
    name: 'replay --kernel-adapter',
    argv: (x) => ['replay', join(dir, 'a.json'), '--kernel-adapter', x],
    dirIsArtifact: true,
  },
  { name: 'canonicalize FILE', argv: (x) => ['canonicalize', x] },
  { name: 'lint PATH', argv: (x) => ['lint', x], dirIsArtifact: true },
  { name: 'attest MANIFEST', argv: (x) => ['attest', x, '--key', join(dir, 'key.pem')] },
  {
    name: 'journal record --key',
    argv: (x) => [
      'journal',
      'record',
      join(dir, 'journal'),
      '--kind',
      'review-rationale',
      '--claim',
      'c',
      '--body-file',
      join(dir, 'a.json'),
      '--key',
      x,
    ],
  },
  { name: 'attest --verify', argv: (x) => ['attest', '--verify', x, '--trust-store', join(dir, 'trust.json')] },
  {
    name: 'attest --verify --trust-store',
    argv: (x) => ['attest', '--verify', join(dir, 'a.json'), '--trust-store', x],
  },
  {
    name: 'journal record --body-file',
    argv: (x) => [
      'journal',
      'record',
      join(dir, 'journal'),
      '--kind',
      'review-rationale',
      '--claim',
      'c',
      '--body-file',
      x,
      '--key',
      join(dir, 'key.pem'),
    ],
  },
  {
    name: 'journal verify --trust-store',
    argv: (x) => ['journal', 'verify', join(dir, 'journal'), '--trust-store', x],
  },
  { name: 'journal check-proof FILE', argv: (x) => ['journal', 'check-proof', x] },
  {
    name: 'export --attestation',
    argv: (x) => [
      'export',
      join(dir, 'a.json'),
      '--journal',
      join(dir, 'journal'),
      '--out',
      join(dir, 'bundle.zip'),
      '--attestation',
      x,
    ],
  },
  {
    name: 'keys generate --trust-store',
    argv: (x) => [
      'keys',
      'generate',
      '--out',
      join(dir, `k-${Math.random().toString(36).slice(2)}.pem`),
      '--role',
      'reviewer',
      '--trust-store',
      x,
    ],
  },
];

/** What is wrong with a run that should be a one-line refusal, or null. */
function refusalProblem(r: MeasuredRun, path: string): string | null {
  if (r.killed) return `no answer within ${KILL_AFTER_MS} ms: it hung`;
  if (r.code !== 3) return `exit ${r.code}`;
  if (r.stderr.trimEnd().split('\n').length !== 1 || !r.stderr.startsWith('reprise: ') || !r.stderr.includes(path))
    return 'not one line naming the path';
  if (/internal error/.test(r.stderr)) return 'an internal error';
  if (!(r.rssMiB < LIMIT_MIB)) return `peak RSS ${r.rssMiB} MiB`;
  if (!(r.cpuMs < CPU_LIMIT_MS)) return `${r.cpuMs} ms of CPU time`;
  return null;
}

/** The CLI run with `argv` in the scratch directory, its CPU time and peak RSS measured. */
const measured = (argv: string[]): Promise<MeasuredRun> => runMeasured(dir, argv, KILL_AFTER_MS, dir);

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
      worst = Math.max(worst, r.rssMiB);
      const p = refusalProblem(r, c.path);
      if (p) problems.push(`${c.what}: ${p}: ${r.stderr.slice(0, 300)}`);
    });
    expect(problems).toEqual([]);
    expect(worst).toBeLessThan(LIMIT_MIB);
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
      expect(r.killed, `no answer within ${KILL_AFTER_MS} ms: it hung`).toBe(false);
      expect(r.cpuMs).toBeLessThan(CPU_LIMIT_MS);
      expect(r.code, r.stderr).toBe(3);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines, r.stderr).toHaveLength(4);
      for (const name of ['zero', 'urandom', 'fifo-link', 'sock-link'])
        expect(
          lines.some(
            (l) => l.startsWith('reprise: ') && l.includes(join(batch, name)) && l.includes('not a regular file'),
          ),
          name,
        ).toBe(true);
      expect(r.stdout).toMatch(/FAIL +.*good\.json/); // the regular file is still checked
      expect(r.stdout).toMatch(/5 artifacts: 1 fail, 4 error/);
      expect(r.rssMiB).toBeLessThan(LIMIT_MIB);
    }
  }, 180_000);
});

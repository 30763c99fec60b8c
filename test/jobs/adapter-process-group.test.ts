/**
 * A command kernel adapter stops with the job that runs it: a cancelled job, a closed pool,
 * and the end of the process that owns the pool (its exit, SIGTERM, SIGINT, and SIGKILL,
 * which runs no handler of its own: threads/parent-death.ts) each kill the adapter and what
 * it started. The adapter here sleeps with a child of its own; each scenario runs in a node
 * process of its own, on the built engine's real worker thread and pool (as the other engine
 * tests run it: `npm run build:cli` first), and the test looks at the processes themselves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackageParts, packPackage } from '../../app/kinds/nemosyne/package-writer.js';
import { cliBuilt, ROOT } from '../helpers/cli.js';

/** A module of the built engine (dist/), named by its source path. */
const built = (p: string) => pathToFileURL(join(ROOT, 'dist', p.replace(/\.ts$/, '.js'))).href;
let dir: string;
let pkg: string;
let n = 0;
const started: ChildProcess[] = [];
const seen: number[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reprise-adapter-group-'));
  pkg = join(dir, 'package.nemosyne');
  writeFileSync(pkg, packPackage(buildPackageParts(2)));
});

afterAll(() => {
  for (const c of started) c.kill('SIGKILL');
  // Whatever a failing run left behind is not left running on the machine.
  const written = readdirSync(dir).filter((f) => /^(pids|left)-\d+$/.test(f));
  for (const f of written) seen.push(...readFileSync(join(dir, f), 'utf8').trim().split(' ').map(Number));
  for (const pid of seen) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

/** An adapter that writes "ITS_PID CHILD_PID" to `pids` once both run, then waits on its child. */
function sleepingAdapter(): { adapter: string; pids: string } {
  const k = n++;
  const adapter = join(dir, `adapter-${k}.sh`);
  const pids = join(dir, `pids-${k}`);
  writeFileSync(adapter, `#!/bin/sh\nsleep 300 &\necho "$$ $!" > '${pids}.part'\nmv '${pids}.part' '${pids}'\nwait\n`, {
    mode: 0o755,
  });
  return { adapter, pids };
}

/**
 * Starts a node process that runs the adapter in a verify job, with the pool (`pool`, and
 * `job` its run handle) or without one (`inline`: `restore`, the runAdapter promise). Once
 * the adapter runs it prints `running`, and runs `body` when a line comes on its stdin.
 */
function scenario(body: string, inline = false): { child: ChildProcess; pids: string; lines: string[] } {
  const { adapter, pids } = sleepingAdapter();
  const start = inline
    ? `import { runAdapter } from ${JSON.stringify(built('app/kinds/nemosyne/kernel-adapter.ts'))};
const restore = runAdapter(${JSON.stringify(adapter)}, { formatVersion: 2, kernelVersion: 'k', manifest: {}, packagePath: ${JSON.stringify(pkg)} });
restore.catch(() => undefined);`
    : `import { WorkerPool } from ${JSON.stringify(built('app/jobs/pool.ts'))};
const pool = new WorkerPool(1, new URL(${JSON.stringify(built('app/jobs/engine-worker.ts'))}), { pipeline: 1 });
const job = pool.run({ op: 'runPath', path: ${JSON.stringify(pkg)}, mode: 'verify', options: { kernelAdapter: ${JSON.stringify(adapter)} } });`;
  const file = join(dir, `scenario-${n++}.mjs`);
  writeFileSync(
    file,
    `import { existsSync } from 'node:fs';
${start}
while (!existsSync(${JSON.stringify(pids)})) await new Promise((r) => setTimeout(r, 10));
console.log('running');
await new Promise((r) => process.stdin.once('data', r));
process.stdin.pause();
${body}
`,
  );
  const child = spawn(process.execPath, [file], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  started.push(child);
  const lines: string[] = [];
  let rest = '';
  child.stdout!.on('data', (b: Buffer) => {
    const all = (rest + b.toString('utf8')).split('\n');
    rest = all.pop()!;
    lines.push(...all);
  });
  return { child, pids, lines };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits for `ok`, looking a bounded number of times: by default enough for a node process
 * to start and load the engine on a busy machine.
 */
async function until(ok: () => boolean, tries = 4000): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (ok()) return true;
    await pause(25);
  }
  return ok();
}

/** Whether `pid` runs: a zombie (killed, not yet reaped by a parent that is gone) does not. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

/** The adapter's pid and its child's, once the scenario says it runs; both running, then the scenario goes on. */
async function adapterOf(s: { child: ChildProcess; pids: string; lines: string[] }): Promise<number[]> {
  expect(await until(() => s.lines.includes('running'))).toBe(true);
  const pids = readFileSync(s.pids, 'utf8').trim().split(' ').map(Number);
  seen.push(...pids);
  expect(pids).toHaveLength(2);
  for (const pid of pids) expect(running(pid)).toBe(true);
  s.child.stdin!.write('go\n');
  return pids;
}

/** Asserts that none of `pids` runs, polling a bounded number of times. */
async function expectGone(pids: number[]): Promise<void> {
  expect(await until(() => pids.every((p) => !running(p)), 400)).toBe(true);
}

const ended = (c: ChildProcess) => until(() => c.exitCode !== null || c.signalCode !== null);

describe.skipIf(!cliBuilt())('a command kernel adapter ends with its job', { timeout: 240_000 }, () => {
  it('when the job is cancelled (the process that owns the pool goes on)', async () => {
    const s = scenario(`job.cancel();
console.log(JSON.stringify(await job.promise));
setInterval(() => undefined, 1000);`);
    const pids = await adapterOf(s);
    expect(await until(() => s.lines.length > 1)).toBe(true);
    expect(JSON.parse(s.lines[1]!)).toEqual({ ok: false, usage: false, message: 'cancelled' });
    await expectGone(pids);
    expect(s.child.exitCode).toBe(null);
  });

  it('when the pool is closed (the process goes on)', async () => {
    const s = scenario(`await pool.close();
console.log('closed');
setInterval(() => undefined, 1000);`);
    const pids = await adapterOf(s);
    expect(await until(() => s.lines.includes('closed'))).toBe(true);
    await expectGone(pids);
    expect(s.child.exitCode).toBe(null);
  });

  it('when the process that owns the pool exits', async () => {
    const s = scenario('process.exit(0);');
    const pids = await adapterOf(s);
    expect(await ended(s.child)).toBe(true);
    expect(s.child.exitCode).toBe(0);
    await expectGone(pids);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    it(`when the process that owns the pool gets ${signal}, and still ends by it`, async () => {
      const s = scenario('setInterval(() => undefined, 1000);');
      const pids = await adapterOf(s);
      s.child.kill(signal);
      expect(await ended(s.child)).toBe(true);
      expect(s.child.signalCode).toBe(signal);
      await expectGone(pids);
    });

  // The watcher (/bin/sh) ends the adapter's whole group; on Linux, setpriv ends the adapter itself too.
  for (const inline of [false, true])
    it(`when the process that owns ${inline ? 'it (the CLI without workers)' : 'the pool'} is killed with SIGKILL`, async () => {
      const s = scenario('setInterval(() => undefined, 1000);', inline);
      const pids = await adapterOf(s);
      s.child.kill('SIGKILL');
      expect(await ended(s.child)).toBe(true);
      expect(s.child.signalCode).toBe('SIGKILL');
      await expectGone(pids);
    });

  it('when it runs on the process’s own thread (the CLI without workers) and the process exits', async () => {
    const s = scenario('process.exit(0);', true);
    const pids = await adapterOf(s);
    expect(await ended(s.child)).toBe(true);
    await expectGone(pids);
  });

  it('and what it leaves behind when it ends by itself goes with it', async () => {
    const k = n++;
    const adapter = join(dir, `leaves-${k}.sh`);
    const left = join(dir, `left-${k}`);
    writeFileSync(adapter, `#!/bin/sh\nsleep 300 > /dev/null 2>&1 &\necho $! > '${left}'\necho '{}'\n`, {
      mode: 0o755,
    });
    const file = join(dir, `scenario-${n++}.mjs`);
    writeFileSync(
      file,
      `import { WorkerPool } from ${JSON.stringify(built('app/jobs/pool.ts'))};
const pool = new WorkerPool(1, new URL(${JSON.stringify(built('app/jobs/engine-worker.ts'))}), { pipeline: 1 });
const o = await pool.run({ op: 'runPath', path: ${JSON.stringify(pkg)}, mode: 'verify', options: { kernelAdapter: ${JSON.stringify(adapter)} } }).promise;
console.log(o.ok ? o.report.verdict : o.message);
setInterval(() => undefined, 1000);
`,
    );
    const child = spawn(process.execPath, [file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    started.push(child);
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    expect(await until(() => out.includes('\n'))).toBe(true);
    expect(out).toBe('unavailable\n');
    const pid = Number(readFileSync(left, 'utf8'));
    seen.push(pid);
    await expectGone([pid]);
    expect(existsSync(left)).toBe(true);
  });
});

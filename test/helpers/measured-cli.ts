/**
 * The built CLI in a child process whose peak RSS (VmHWM) and CPU time (user and system,
 * every thread's), both read by a tiny --import hook at exit, are measured, and huge
 * generated inputs to feed it: the hostile-input tests bound both for inputs no test should
 * keep in memory itself.
 *
 * Wall time is reported (`ms`, for a test's log line) and never asserted: on shared cores
 * other processes stretch the wall clock several times over, so a wall-clock bound fails
 * for the machine's load, not for the code. The child's own CPU time and peak RSS are what the code controls
 * and what load does not inflate. The kill-after timer only stops a hang (`killed`), so it
 * is set far above any CPU bound. test/house/no-wall-clock.test.ts keeps it so.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT } from './cli.js';

const MiB = 1024 * 1024;

/** Writes the child's peak RSS (MiB) and CPU time (ms, user + system of every thread) at exit. */
const HOOK = `import { readFileSync, writeFileSync } from 'node:fs';
process.on('exit', () => {
  const m = /VmHWM:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  const cpu = process.cpuUsage();
  writeFileSync(process.env.REPRISE_RSS_OUT, (m ? Number(m[1]) / 1024 : NaN) + ' ' + (cpu.user + cpu.system) / 1000);
});
`;

/** Peak RSS is read from /proc: elsewhere these tests skip. */
export const canMeasureRss = (): boolean => existsSync('/proc/self/status');

/** Writes `head`, then `fill` repeated to `size` bytes (in 16 MiB chunks), then `tail`; returns the path. */
export function writeFilled(path: string, head: string, fill: string, tail: string, size: number): string {
  const fd = openSync(path, 'w');
  writeSync(fd, head);
  const chunk = Buffer.from(fill.repeat(Math.floor((16 * MiB) / fill.length)));
  for (let n = 0; n < size; n += chunk.length) writeSync(fd, chunk);
  writeSync(fd, tail);
  closeSync(fd);
  return path;
}

export interface MeasuredRun {
  /** The exit code; null when a signal ended the child (then `killed` says whether it was ours). */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time, for a log line only: never bounded (it measures the machine's load too). */
  ms: number;
  /** Peak RSS (VmHWM) in MiB; NaN when the child died before its exit hook ran. */
  rssMiB: number;
  /** CPU time of the whole process (user and system, every thread) in ms; NaN as for `rssMiB`. */
  cpuMs: number;
  /** The kill-after timer stopped the child: it hung (or was starved past any reason). */
  killed: boolean;
}

/** Names each run's measurement file, so that runs in one directory may overlap. */
let serial = 0;

/**
 * Runs `reprise ARGS` with its scratch files in `dir` (and its working directory `cwd`,
 * the repository by default); a run past `killAfterMs` is killed and says so (`killed`).
 */
export function runMeasured(dir: string, args: string[], killAfterMs = 60_000, cwd = ROOT): Promise<MeasuredRun> {
  const hook = join(dir, 'rss-hook.mjs');
  if (!existsSync(hook)) writeFileSync(hook, HOOK);
  const out = join(dir, `rss-${process.pid}-${serial++}.txt`);
  rmSync(out, { force: true });
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    // Its own process group, so that a hang is stopped with whatever it started.
    const child = spawn(process.execPath, ['--import', hook, BIN, ...args], {
      cwd,
      env: { ...process.env, REPRISE_RSS_OUT: out },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const so: Buffer[] = [];
    const se: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => so.push(d));
    child.stderr.on('data', (d: Buffer) => se.push(d));
    let killed = false;
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
        killed = true;
      } catch {
        // gone already
      }
    }, killAfterMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const [rssMiB = NaN, cpuMs = NaN] = existsSync(out) ? readFileSync(out, 'utf8').split(' ').map(Number) : [];
      rmSync(out, { force: true });
      resolve({
        code,
        stdout: Buffer.concat(so).toString('utf8'),
        stderr: Buffer.concat(se).toString('utf8'),
        ms: Date.now() - t0,
        rssMiB,
        cpuMs,
        killed,
      });
    });
  });
}

/**
 * CPU time this process spent (user and system, every thread) since `start`, a reading of
 * `process.cpuUsage()`, in ms: what an in-process test bounds where it would read a clock.
 */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

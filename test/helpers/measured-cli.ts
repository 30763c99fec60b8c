/**
 * The built CLI in a child process whose peak RSS (VmHWM, read by a tiny --import hook at
 * exit) and time are measured, and huge generated inputs to feed it: the hostile-input
 * tests bound both for inputs no test should keep in memory itself.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT } from './cli.js';

const MiB = 1024 * 1024;

const HOOK = `import { readFileSync, writeFileSync } from 'node:fs';
process.on('exit', () => {
  const m = /VmHWM:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  writeFileSync(process.env.REPRISE_RSS_OUT, String(Number(m[1]) / 1024));
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
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  rssMiB: number;
}

/** Runs `reprise ARGS` with its scratch files in `dir`; a run past `killAfterMs` is killed. */
export function runMeasured(dir: string, args: string[], killAfterMs = 60_000): Promise<MeasuredRun> {
  const hook = join(dir, 'rss-hook.mjs');
  if (!existsSync(hook)) writeFileSync(hook, HOOK);
  const out = join(dir, 'rss.txt');
  rmSync(out, { force: true });
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', hook, BIN, ...args], { cwd: ROOT, env: { ...process.env, REPRISE_RSS_OUT: out } });
    const so: Buffer[] = [];
    const se: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => so.push(d));
    child.stderr.on('data', (d: Buffer) => se.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const rssMiB = existsSync(out) ? Number(readFileSync(out, 'utf8')) : NaN;
      resolve({ code, stdout: Buffer.concat(so).toString('utf8'), stderr: Buffer.concat(se).toString('utf8'), ms: Date.now() - t0, rssMiB });
    });
  });
}

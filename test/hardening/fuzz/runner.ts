/**
 * Runs hostile inputs through the built CLI (test/helpers/measured-cli.ts: a timed child
 * whose peak RSS and CPU time are read at exit) and holds every run to issue 17's budget:
 * exit 0-3 and never a signal (133/134/137), stderr at most one line and never a stack
 * trace, under 10 s of CPU time (every thread's; the wall clock also counts other
 * processes on the cores) and 512 MiB. Small cases are verified many to a child (one directory, --jsonl: one
 * report per case), huge ones alone.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runMeasured, type MeasuredRun } from '../../helpers/measured-cli.js';
import { Rng } from './mutate.js';

/** CPU time per run (never wall time: other processes on the cores stretch that). */
export const TIME_BUDGET_MS = 10_000;
/** Stops a run that hangs: far above the CPU budget, so a loaded machine never trips it. */
const HANG_AFTER_MS = 120_000;
export const RSS_BUDGET_MIB = 512;
/** The suite's seed; REPRISE_FUZZ_SEED replays a failing run. */
export const FUZZ_SEED = process.env['REPRISE_FUZZ_SEED'] ?? 'reprise-17';
/** How many times the default number of random cases to run (REPRISE_FUZZ_N, for deeper runs). */
export const FUZZ_N = Math.max(1, Number(process.env['REPRISE_FUZZ_N'] ?? 1) || 1);

export interface FuzzCase {
  /** What was done to the input, with the seed it was drawn from. */
  label: string;
  /** Writes the input as `path` (a file, or a directory for directory kinds). */
  write(path: string): void;
}

/** A random case drawn from its own seed, so any one of them is rebuilt alone. */
export function seeded(
  kind: string,
  i: number,
  make: (r: Rng) => { label: string; write(path: string): void },
): FuzzCase {
  const seed = `${FUZZ_SEED}/${kind}/${i}`;
  const c = make(new Rng(seed));
  return { label: `${c.label} (seed ${JSON.stringify(seed)})`, write: c.write };
}

export const writeBytes = (bytes: Buffer | string) => (path: string) => writeFileSync(path, bytes);

/** The worst time and peak RSS seen per kind, for the suite's summary line. */
export const worst = new Map<string, { ms: number; cpuMs: number; rssMiB: number; runs: number; cases: number }>();

/** Names each run's scratch input uniquely across kinds. */
let serial = 0;

function record(kind: string, r: MeasuredRun, cases: number): void {
  const w = worst.get(kind) ?? { ms: 0, cpuMs: 0, rssMiB: 0, runs: 0, cases: 0 };
  worst.set(kind, {
    ms: Math.max(w.ms, r.ms),
    cpuMs: Math.max(w.cpuMs, r.cpuMs),
    rssMiB: Math.max(w.rssMiB, r.rssMiB),
    runs: w.runs + 1,
    cases: w.cases + cases,
  });
}

const STACK = /^\s+at \S.*:\d+:\d+\)?$|node:internal|FATAL ERROR|heap out of memory|Maximum call stack/m;

/** Issue 17's promise for one child run. */
export function expectWithinBudget(r: MeasuredRun, what: string): void {
  const why = `${what}\nreplay with REPRISE_FUZZ_SEED=${JSON.stringify(FUZZ_SEED)}; exit ${r.code}${r.killed ? ` (no answer within ${HANG_AFTER_MS} ms: killed)` : ''}, ${r.ms} ms (${r.cpuMs.toFixed(0)} ms CPU), ${r.rssMiB.toFixed(0)} MiB\nstderr: ${r.stderr.slice(0, 1500)}`;
  expect.soft(r.code, why).not.toBeNull();
  expect.soft([0, 1, 2, 3], why).toContain(r.code);
  expect.soft(r.stderr.trimEnd().split('\n').length, why).toBeLessThanOrEqual(1);
  expect.soft(r.stderr, why).not.toMatch(STACK);
  expect.soft(r.stdout.slice(0, 1 << 20), why).not.toMatch(STACK);
  expect.soft(r.cpuMs, why).toBeLessThan(TIME_BUDGET_MS);
  expect.soft(r.rssMiB, why).toBeLessThan(RSS_BUDGET_MIB);
}

/** Every case under one directory, verified by one child: each gets a report with a verdict. */
export async function runBatch(kind: string, dir: string, cases: FuzzCase[], args: string[]): Promise<void> {
  const batch = join(dir, `batch-${serial++}`);
  mkdirSync(batch, { recursive: true });
  cases.forEach((c, i) => c.write(join(batch, `case-${String(i).padStart(3, '0')}`)));
  const r = await runMeasured(dir, ['verify', batch, '--jsonl', ...args], HANG_AFTER_MS);
  record(kind, r, cases.length);
  const what = `${kind}: verify of a batch of ${cases.length}:\n  ${cases.map((c, i) => `case-${i}: ${c.label}`).join('\n  ')}`;
  expectWithinBudget(r, what);
  const lines = r.stdout.split('\n').filter((l) => l.trim() !== '');
  const verdicts = lines.map((l) => (JSON.parse(l) as { verdict: string }).verdict);
  for (const v of verdicts) expect.soft(['pass', 'fail', 'unavailable'], what).toContain(v);
  if (r.code !== 3) expect.soft(verdicts.length, what).toBe(cases.length);
}

/** One case, alone in its child: `command` (verify, replay, or a subcommand) on its path. */
export async function runOne(
  kind: string,
  dir: string,
  c: FuzzCase,
  command: string[],
  args: string[],
): Promise<MeasuredRun> {
  const path = join(dir, `one-${serial++}`);
  c.write(path);
  const r = await runMeasured(dir, [...command, path, '--json', ...args], HANG_AFTER_MS);
  rmSync(path, { recursive: true, force: true }); // huge inputs: one on disk at a time
  record(kind, r, 1);
  expectWithinBudget(r, `${kind}: ${command.join(' ')} of ${c.label}`);
  return r;
}

/**
 * The trainer's sweep: the open artifact replayed under every model version and compute
 * shape the registry offers, each `repeats` times, as engine jobs run side by side in the
 * host's worker pool (at most SWEEP_IN_FLIGHT started at once: the pool's workers stay busy,
 * with one job waiting behind each, and a job the user starts meanwhile is not queued behind
 * the whole sweep). What it charts: per substitution, the largest |Δ| of its BANDED outputs
 * against that output's ε, and how far that moved over the repeated runs.
 */
import type { RepriseClient, StartJobRequest } from '../../../shared/api.js';
import type { Report } from '../../../shared/report.js';
import { startWatchedJob } from './watch-job.js';

/** Jobs of a sweep started and not yet ended, at most. */
export const SWEEP_IN_FLIGHT = 4;

/** One replay of the open artifact under one substitution (one of its repeated runs). */
export interface SweepRun {
  /** What was substituted: `model=ref-2`, `shape=advisor.cpu_v1/4/fp32`. */
  whatIf: string;
  /** Which of the substitution's repeated runs (0-based). */
  repeat: number;
  report: Report | null;
  error: string | null;
}

export interface Sweep {
  /** The substitutions, in the order they are charted. */
  plan: string[];
  repeats: number;
  /** The runs ended so far, in the order they ended. */
  runs: SweepRun[];
  /** How many of the planned runs are done. */
  done: number;
  planned: number;
}

/**
 * Runs `tasks` with at most `limit` of them in flight, calling `ended` as each settles;
 * resolves once every task has. A task's failure is its own (it resolves with it).
 */
export async function inParallel<T>(
  tasks: readonly (() => Promise<T>)[],
  limit: number,
  ended: (i: number, value: T) => void,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      ended(i, await tasks[i]!());
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, lane));
}

/**
 * Replays `source` once per substitution and repeat, side by side in the pool; `update`
 * gets the sweep after each run ends. Never rejects: a run that fails keeps its reason.
 */
export async function runSweepJobs(
  api: Pick<RepriseClient, 'startJob' | 'onEvent'>,
  base: Omit<StartJobRequest, 'mode' | 'whatIf'>,
  plan: readonly string[],
  repeats: number,
  update: (s: Sweep) => void,
): Promise<Sweep> {
  const jobs = plan.flatMap((whatIf) => Array.from({ length: repeats }, (_, repeat) => ({ whatIf, repeat })));
  const sweep: Sweep = { plan: [...plan], repeats, runs: [], done: 0, planned: jobs.length };
  update({ ...sweep });
  const tasks = jobs.map(({ whatIf, repeat }) => async (): Promise<SweepRun> => {
    try {
      const end = await (await startWatchedJob(api, { ...base, mode: 'replay', whatIf: [whatIf] })).end;
      return end.ok
        ? { whatIf, repeat, report: end.report, error: null }
        : { whatIf, repeat, report: null, error: end.message };
    } catch (e) {
      return { whatIf, repeat, report: null, error: (e as Error).message };
    }
  });
  await inParallel(tasks, SWEEP_IN_FLIGHT, (_, run) => {
    sweep.runs = [...sweep.runs, run];
    sweep.done++;
    update({ ...sweep });
  });
  return sweep;
}

/** One BANDED output of one substitution over its repeated runs: |Δ| as the engine wrote it, and its ε. */
export interface SweepOutput {
  output: string;
  /** |Δ| of each run that compared it, in run order, as the engine reported it. */
  deltas: number[];
  epsilon: number;
  /** Whether any run put it beyond ε (the engine's status). */
  beyond: boolean;
}

/** Per substitution: its BANDED outputs, and for the chart the largest |Δ| ÷ ε of its worst and best run. */
export interface SweepDelta {
  whatIf: string;
  runs: number;
  outputs: SweepOutput[];
  /** Largest |Δ| ÷ ε of a run, over its outputs: the worst run's and the best run's (null: none compared). */
  worst: number | null;
  best: number | null;
  /** Why nothing was compared (every run failed, or no BANDED output). */
  why: string | null;
}

const bandedRows = (r: Report) =>
  (r.comparisons ?? []).filter(
    (c) => c.mode === 'BANDED' && typeof c.delta === 'number' && typeof c.epsilon === 'number' && c.epsilon > 0,
  );

/** The sweep's |Δ| against ε, one entry per planned substitution in plan order (drawing values only). */
export function sweepDeltas(sweep: Sweep): SweepDelta[] {
  return sweep.plan.map((whatIf): SweepDelta => {
    const runs = sweep.runs.filter((r) => r.whatIf === whatIf).sort((a, b) => a.repeat - b.repeat);
    const reports = runs.map((r) => r.report).filter((r): r is Report => r !== null);
    const outputs = new Map<string, SweepOutput>();
    const perRun: number[] = [];
    for (const rep of reports) {
      let largest: number | null = null;
      for (const c of bandedRows(rep)) {
        const o = outputs.get(c.output) ?? { output: c.output, deltas: [], epsilon: c.epsilon!, beyond: false };
        o.deltas.push(Math.abs(c.delta!));
        o.beyond ||= c.status === 'fail';
        outputs.set(c.output, o);
        largest = Math.max(largest ?? 0, Math.abs(c.delta!) / c.epsilon!);
      }
      if (largest !== null) perRun.push(largest);
    }
    const failed = runs.find((r) => r.error)?.error;
    return {
      whatIf,
      runs: runs.length,
      outputs: [...outputs.values()],
      worst: perRun.length ? Math.max(...perRun) : null,
      best: perRun.length ? Math.min(...perRun) : null,
      why: perRun.length ? null : reports.length ? 'no BANDED output with a |Δ| and ε' : (failed ?? 'not replayed yet'),
    };
  });
}

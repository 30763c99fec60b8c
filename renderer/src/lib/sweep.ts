/**
 * The trainer's sweep: the open artifact replayed under every model version and compute
 * shape the registry offers, each `repeats` times, as engine jobs run side by side in the
 * host's worker pool (at most SWEEP_IN_FLIGHT started at once: the pool's workers stay busy,
 * with one job waiting behind each, and a job the user starts meanwhile is not queued behind
 * the whole sweep). A sweep can be cancelled (its AbortSignal): the runs not yet started are
 * withdrawn and those in flight are stopped with the engine's `cancelJob`. What it charts:
 * per substitution, the largest |Δ| of its BANDED outputs against that output's ε, and how
 * far that moved over the repeated runs that produced a report (never over runs that failed).
 */
import type { RepriseClient, StartJobRequest } from '../../../shared/api.js';
import type { Comparison, Report } from '../../../shared/report.js';
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
  /** Why the run has no report (the engine's reason), or null. */
  error: string | null;
  /** Stopped because the sweep was cancelled: not a failure of the replay. */
  cancelled: boolean;
}

export interface Sweep {
  /** The substitutions, in the order they are charted. */
  plan: string[];
  repeats: number;
  /** The runs ended so far (replayed, failed or cancelled), in the order they ended. */
  runs: SweepRun[];
  /** How many of the planned runs have ended. */
  done: number;
  planned: number;
  /** Runs may still end: false once every run started has ended. */
  running: boolean;
  /** The sweep was cancelled: the runs not started were withdrawn, those in flight stopped. */
  cancelled: boolean;
}

/**
 * Runs `tasks` with at most `limit` of them in flight, calling `ended` as each settles;
 * resolves once every task started has. A task's failure is its own (it resolves with it).
 * Once `signal` aborts, no further task is started.
 */
export async function inParallel<T>(
  tasks: readonly (() => Promise<T>)[],
  limit: number,
  ended: (i: number, value: T) => void,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < tasks.length && !signal?.aborted) {
      const i = next++;
      ended(i, await tasks[i]!());
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, lane));
}

type SweepApi = Pick<RepriseClient, 'startJob' | 'onEvent' | 'cancelJob'>;

/** One run of the sweep as a job: stopped through `cancelJob` if `signal` aborts while it runs. */
async function sweepRun(
  api: SweepApi,
  req: StartJobRequest,
  whatIf: string,
  repeat: number,
  signal: AbortSignal | undefined,
): Promise<SweepRun> {
  const run = { whatIf, repeat, report: null, error: null, cancelled: false };
  try {
    const job = await startWatchedJob(api, req);
    const stop = (): void => void api.cancelJob({ jobId: job.jobId }).catch(() => undefined);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
    const end = await job.end;
    signal?.removeEventListener('abort', stop);
    return end.ok ? { ...run, report: end.report } : { ...run, error: end.message, cancelled: end.cancelled };
  } catch (e) {
    return { ...run, error: (e as Error).message };
  }
}

/**
 * Replays `source` once per substitution and repeat, side by side in the pool; `update`
 * gets the sweep after each run ends (and when `signal` aborts). Never rejects: a run that
 * fails keeps its reason. Once `signal` aborts, the runs not started are never started and
 * those in flight are cancelled; the sweep resolves when they have ended.
 */
export async function runSweepJobs(
  api: SweepApi,
  base: Omit<StartJobRequest, 'mode' | 'whatIf'>,
  plan: readonly string[],
  repeats: number,
  update: (s: Sweep) => void,
  signal?: AbortSignal,
): Promise<Sweep> {
  const jobs = plan.flatMap((whatIf) => Array.from({ length: repeats }, (_, repeat) => ({ whatIf, repeat })));
  const sweep: Sweep = {
    plan: [...plan],
    repeats,
    runs: [],
    done: 0,
    planned: jobs.length,
    running: true,
    cancelled: !!signal?.aborted,
  };
  update({ ...sweep });
  const onAbort = (): void => {
    sweep.cancelled = true;
    update({ ...sweep });
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const tasks = jobs.map(
    ({ whatIf, repeat }) =>
      () =>
        sweepRun(api, { ...base, mode: 'replay', whatIf: [whatIf] }, whatIf, repeat, signal),
  );
  await inParallel(
    tasks,
    SWEEP_IN_FLIGHT,
    (_, run) => {
      sweep.runs = [...sweep.runs, run];
      sweep.done++;
      update({ ...sweep });
    },
    signal,
  );
  signal?.removeEventListener('abort', onAbort);
  sweep.running = false;
  sweep.cancelled = !!signal?.aborted;
  update({ ...sweep });
  return sweep;
}

/** The sweep's runs by outcome: replayed (a report), failed (the engine's reason), cancelled, and not run. */
export interface SweepCounts {
  planned: number;
  replayed: number;
  failed: number;
  cancelled: number;
  /** Not started: still to go while the sweep runs, withdrawn once it was cancelled. */
  notRun: number;
}

export function sweepCounts(s: Sweep): SweepCounts {
  const replayed = s.runs.filter((r) => r.report !== null).length;
  const cancelled = s.runs.filter((r) => r.report === null && r.cancelled).length;
  return { planned: s.planned, replayed, cancelled, failed: s.done - replayed - cancelled, notRun: s.planned - s.done };
}

/** The sweep's count in words, as the heading says it: never a run counted as replayed that has no report. */
export function sweepCountWords(s: Sweep): string {
  const c = sweepCounts(s);
  const parts = [`${c.replayed} of ${c.planned} runs replayed`];
  if (c.failed) parts.push(`${c.failed} failed`);
  if (s.running) {
    if (s.cancelled) parts.push('cancelling');
    else if (c.notRun) parts.push(`${c.notRun} to go`);
  } else if (c.cancelled + c.notRun > 0) parts.push(`${c.cancelled + c.notRun} cancelled`);
  return parts.join(', ');
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

/** A run of a substitution that failed, and the engine's reason. */
export interface SweepFailure {
  /** Which of the repeated runs (0-based). */
  repeat: number;
  reason: string;
}

/** Per substitution: its BANDED outputs, and for the chart the largest |Δ| ÷ ε of its worst and best run. */
export interface SweepDelta {
  whatIf: string;
  /** Its runs that have ended (replayed, failed or cancelled). */
  runs: number;
  /** Its runs whose |Δ| against ε was measured (a report with a BANDED output): worst and best are over these. */
  measured: number;
  /** Its runs that failed, each with the engine's reason (cancelled runs are not failures). */
  failed: SweepFailure[];
  outputs: SweepOutput[];
  /**
   * Largest |Δ| ÷ ε of a run, over its outputs: the worst measured run's, and the best
   * one's only when at least two runs were measured (null: none, or one, measured).
   * Infinite for |Δ| > 0 against an ε of 0 (againstEpsilon).
   */
  worst: number | null;
  best: number | null;
  /** Why nothing was compared (every run failed, or no BANDED output). */
  why: string | null;
}

/** Whether a comparison is charted against ε: BANDED, with a numeric |Δ| and ε (what else differs is listed: sweep-outputs.ts). */
export const chartedRow = (c: Comparison): boolean =>
  c.mode === 'BANDED' && typeof c.delta === 'number' && typeof c.epsilon === 'number' && c.epsilon >= 0;

const bandedRows = (r: Report) => (r.comparisons ?? []).filter(chartedRow);

/**
 * |Δ| in units of ε. A governed ε of 0 is allowed (the engine passes only |Δ| = 0): any other
 * |Δ| is beyond it, infinitely many ε away, and is charted as such (sweepBars), never dropped.
 */
export function againstEpsilon(delta: number, epsilon: number): number {
  if (epsilon > 0) return Math.abs(delta) / epsilon;
  return delta === 0 ? 0 : Number.POSITIVE_INFINITY;
}

/** Whether a substitution put an output beyond an ε of 0 (its |Δ| ÷ ε is infinite). */
export const offScale = (d: SweepDelta): boolean => d.worst === Number.POSITIVE_INFINITY;

/**
 * The chart's bars: |Δ| ÷ ε as measured, an infinite one (|Δ| > 0 against ε 0) drawn past
 * every finite bar and the band's edge (its name says why: offScale), and the scale's top.
 */
export function sweepBars(shown: readonly SweepDelta[]): { worst: number[]; best: (number | null)[]; top: number } {
  const finite = shown.flatMap((d) => [d.worst, d.best]).filter((v): v is number => v !== null && Number.isFinite(v));
  const cap = Math.max(2, ...finite) * 1.15;
  const at = (v: number | null): number | null => (v === null ? null : Number.isFinite(v) ? v : cap);
  const worst = shown.map((d) => at(d.worst) ?? 0);
  return { worst, best: shown.map((d) => at(d.best)), top: Math.max(1.2, ...worst.map((w) => w * 1.15)) };
}

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
        largest = Math.max(largest ?? 0, againstEpsilon(c.delta!, c.epsilon!));
      }
      if (largest !== null) perRun.push(largest);
    }
    const failed = runs
      .filter((r) => r.report === null && !r.cancelled)
      .map((r) => ({ repeat: r.repeat, reason: r.error ?? 'no report' }));
    const why = perRun.length
      ? null
      : reports.length
        ? 'no BANDED output with a |Δ| and ε'
        : (failed[0]?.reason ?? (runs.length ? 'cancelled' : 'not replayed yet'));
    return {
      whatIf,
      runs: runs.length,
      measured: perRun.length,
      failed,
      outputs: [...outputs.values()],
      worst: perRun.length ? Math.max(...perRun) : null,
      best: perRun.length > 1 ? Math.min(...perRun) : null,
      why,
    };
  });
}

/** `N runs` / `1 run`. */
export const runsWord = (n: number): string => `${n} ${n === 1 ? 'run' : 'runs'}`;

/**
 * In words: which substitutions put an output beyond its ε, and whether their repeated runs
 * agreed, over the runs that were measured only. That the runs agree is said of a
 * substitution only when at least two of its runs were measured; one measured with fewer
 * runs than asked is named with how many.
 */
export function sweepDeltaWords(deltas: readonly SweepDelta[], repeats: number): string {
  const shown = deltas.filter((d) => d.worst !== null);
  if (shown.length === 0) return '';
  const beyond = shown
    .filter((d) => d.worst! > 1)
    .map((d) => (offScale(d) ? `${d.whatIf} (|Δ| > 0 against an ε of 0)` : d.whatIf));
  const band =
    beyond.length === 0
      ? 'No substitution puts an output beyond its ε.'
      : `Beyond ε (drift): ${beyond.join(', ')}. Within ε: ${shown.length - beyond.length} of ${shown.length}.`;
  const unmeasured = deltas.length - shown.length;
  const none = unmeasured ? ` No |Δ| was measured for ${unmeasured} of ${deltas.length} substitutions.` : '';
  if (repeats < 2)
    return `${band}${none} One run of each: run each more than once to see the spread over repeated runs.`;
  const repeated = shown.filter((d) => d.measured >= 2);
  const short = shown.filter((d) => d.measured < repeats);
  const moved = repeated.filter((d) => d.outputs.some((o) => Math.min(...o.deltas) !== Math.max(...o.deltas)));
  let spread: string;
  if (repeated.length === 0)
    spread = 'No substitution had two runs measured: the spread over repeated runs is unknown.';
  else if (moved.length > 0)
    spread = `The |Δ| moved between repeated runs for ${moved.map((d) => d.whatIf).join(', ')}: part of the drift is noise of the run.`;
  else if (repeated.length === deltas.length && short.length === 0)
    spread = `Every substitution's ${repeats} runs gave the same |Δ|: the replay is deterministic, so the drift is the substitution's, not noise.`;
  else
    spread = `The repeated runs of ${repeated.length} of ${deltas.length} substitutions gave the same |Δ| each time: the replay is deterministic, so their drift is the substitution's, not noise.`;
  const once = short.filter((d) => d.measured < 2).map((d) => d.whatIf);
  const part = short.filter((d) => d.measured >= 2).map((d) => `${d.whatIf} (${d.measured} of ${repeats})`);
  const fewer =
    (once.length
      ? ` Only one of ${repeats} runs was measured for ${once.join(', ')}: no spread over repeated runs is known for ${once.length === 1 ? 'it' : 'them'}.`
      : '') +
    (part.length
      ? ` Fewer runs than asked were measured for ${part.join(', ')}: their spread is over those runs only.`
      : '');
  return `${band}${none} ${spread}${fewer}`;
}

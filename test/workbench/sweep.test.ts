import { describe, expect, it } from 'vitest';
import type { ApiEvent, RepriseClient, StartJobRequest } from '../../shared/api.js';
import type { Comparison, Report } from '../../shared/report.js';
import {
  runSweepJobs,
  sweepCountWords,
  sweepCounts,
  sweepDeltas,
  sweepDeltaWords,
  SWEEP_IN_FLIGHT,
  type Sweep,
  type SweepRun,
} from '../../renderer/src/lib/sweep.js';

/** A report with BANDED comparisons of the given |Δ| and ε. */
function report(rows: { output: string; delta: number; epsilon: number }[]): Report {
  const comparisons = rows.map((r): Comparison => ({
    output: r.output,
    mode: 'BANDED',
    original: 0.5,
    replayed: 0.5 + r.delta,
    delta: r.delta,
    epsilon: r.epsilon,
    status: Math.abs(r.delta) > r.epsilon ? 'fail' : 'pass',
    reason: '',
  }));
  return { comparisons, findings: [] } as unknown as Report;
}

/** A run of `whatIf` that produced a report: one BANDED output of |Δ| `delta` and ε 0.02. */
const ok = (whatIf: string, repeat: number, delta = 0.01): SweepRun => ({
  whatIf,
  repeat,
  report: report([{ output: 'o', delta, epsilon: 0.02 }]),
  error: null,
  cancelled: false,
});

/**
 * A fake engine: every job stays running until the test ends it, so the number of jobs
 * running at once is counted, not timed.
 */
function fakeEngine(result: (req: StartJobRequest) => Report | string) {
  const listeners = new Set<(e: ApiEvent) => void>();
  const running: { jobId: string; req: StartJobRequest }[] = [];
  let most = 0;
  let next = 1;
  const started: StartJobRequest[] = [];
  const cancelled: string[] = [];
  const emit = (e: ApiEvent) => {
    for (const l of [...listeners]) l(e);
  };
  const api: Pick<RepriseClient, 'startJob' | 'onEvent' | 'cancelJob'> = {
    onEvent(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    async startJob(req) {
      const jobId = `job-${next++}`;
      started.push(req);
      running.push({ jobId, req });
      most = Math.max(most, running.length);
      return { jobId };
    },
    // As the host does: the job's worker is stopped and the job ends as cancelled.
    async cancelJob({ jobId }) {
      const at = running.findIndex((j) => j.jobId === jobId);
      if (at < 0) return false;
      running.splice(at, 1);
      cancelled.push(jobId);
      setTimeout(() => emit({ type: 'job-failed', jobId, message: 'cancelled', cancelled: true }), 0);
      return true;
    },
  };
  /** Ends the oldest running job; false when none runs. */
  const endOne = (): boolean => {
    const j = running.shift();
    if (!j) return false;
    const r = result(j.req);
    emit(
      typeof r === 'string'
        ? { type: 'job-failed', jobId: j.jobId, message: r, cancelled: false }
        : { type: 'job-done', jobId: j.jobId, report: r },
    );
    return true;
  };
  return { api, endOne, running, started, cancelled, most: () => most };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("the trainer's sweep", () => {
  it('runs its jobs side by side in the pool, never more than SWEEP_IN_FLIGHT at once', async () => {
    const deltas: Record<string, number> = { 'model=ref-1': 0.06, 'model=ref-2': 0.01, 'shape=a/1/fp32': 0 };
    const engine = fakeEngine((req) =>
      req.whatIf![0] === 'shape=bad'
        ? 'RPR-X: cannot replay'
        : report([{ output: 'o', delta: deltas[req.whatIf![0]!]!, epsilon: 0.03 }]),
    );
    const plan = [...Object.keys(deltas), 'shape=bad'];
    const seen: Sweep[] = [];
    const done = runSweepJobs(engine.api, { source: { type: 'example', path: 'x' } }, plan, 3, (s) => seen.push(s));
    await tick();
    // Before any job ends, SWEEP_IN_FLIGHT of them run at once (one after another would be 1).
    expect(engine.running.length).toBe(SWEEP_IN_FLIGHT);
    while (engine.endOne()) await tick();
    const sweep = await done;
    expect(engine.most()).toBe(SWEEP_IN_FLIGHT);
    expect(sweep.planned).toBe(12);
    expect(sweep.done).toBe(12);
    expect(seen.at(-1)?.done).toBe(12);
    // Every job a replay under one substitution.
    expect(sweep.runs.every((r) => r.report !== null || r.error === 'RPR-X: cannot replay')).toBe(true);

    const d = sweepDeltas(sweep);
    expect(d.map((x) => x.whatIf)).toEqual(plan);
    expect(d[0]).toMatchObject({ runs: 3, measured: 3, failed: [], worst: 2, best: 2, why: null });
    expect(d[0]!.outputs).toEqual([{ output: 'o', deltas: [0.06, 0.06, 0.06], epsilon: 0.03, beyond: true }]);
    expect(d[2]).toMatchObject({ worst: 0, best: 0 });
    expect(d[3]).toMatchObject({ worst: null, best: null, measured: 0, why: 'RPR-X: cannot replay' });
    // Every failed run is there with its reason, and counted as failed, not replayed.
    expect(d[3]!.failed).toEqual([0, 1, 2].map((repeat) => ({ repeat, reason: 'RPR-X: cannot replay' })));
    expect(sweepCountWords(sweep)).toBe('9 of 12 runs replayed, 3 failed');
  });

  it('charts the spread over repeated runs: the worst and the best run of a substitution', () => {
    const run = (repeat: number, delta: number): SweepRun => ({
      whatIf: 'model=ref-1',
      repeat,
      report: report([
        { output: 'score', delta, epsilon: 0.02 },
        { output: 'confidence', delta: 0.01, epsilon: 0.03 },
      ]),
      error: null,
      cancelled: false,
    });
    const sweep: Sweep = {
      plan: ['model=ref-1', 'model=none'],
      repeats: 3,
      runs: [run(2, 0.04), run(0, 0.01), run(1, 0.03)],
      done: 3,
      planned: 6,
      running: true,
      cancelled: false,
    };
    const [d, none] = sweepDeltas(sweep);
    expect(d!.worst).toBeCloseTo(2);
    expect(d!.best).toBeCloseTo(0.5);
    // |Δ| as the engine wrote it, in repeat order.
    expect(d!.outputs.find((o) => o.output === 'score')!.deltas).toEqual([0.01, 0.03, 0.04]);
    expect(none).toMatchObject({ runs: 0, worst: null, why: 'not replayed yet' });
  });

  it('a substitution that lost a run to a failure: the failure is kept with its reason, and no spread is claimed from one run', () => {
    const died = (whatIf: string, repeat: number): SweepRun => ({
      whatIf,
      repeat,
      report: null,
      error: 'internal error: the engine process stopped (signal SIGKILL)',
      cancelled: false,
    });
    const sweep: Sweep = {
      plan: ['model=ref-1', 'shape=a/8/fp32', 'shape=a/8/fp64'],
      repeats: 2,
      runs: [
        ok('model=ref-1', 0, 0.04),
        ok('model=ref-1', 1, 0.04),
        died('shape=a/8/fp32', 0),
        ok('shape=a/8/fp32', 1),
      ],
      done: 4,
      planned: 6,
      running: false,
      cancelled: false,
    };
    // Two runs never ended: before this, "2 of 3 replayed" counted the failed run as replayed.
    sweep.runs.push(died('shape=a/8/fp64', 0), died('shape=a/8/fp64', 1));
    sweep.done = 6;
    expect(sweepCounts(sweep)).toEqual({ planned: 6, replayed: 3, failed: 3, cancelled: 0, notRun: 0 });
    expect(sweepCountWords(sweep)).toBe('3 of 6 runs replayed, 3 failed');
    const [ref, half, none] = sweepDeltas(sweep);
    expect(ref).toMatchObject({ measured: 2, worst: 2, best: 2, failed: [] });
    // One run measured: its worst is that run; there is no best run, and the failed run says why.
    expect(half).toMatchObject({ runs: 2, measured: 1, worst: 0.5, best: null, why: null });
    expect(half!.failed).toEqual([
      { repeat: 0, reason: 'internal error: the engine process stopped (signal SIGKILL)' },
    ]);
    expect(none).toMatchObject({ measured: 0, worst: null, best: null });
    expect(none!.failed).toHaveLength(2);
    const words = sweepDeltaWords(sweepDeltas(sweep), 2);
    expect(words).not.toContain("Every substitution's 2 runs gave the same |Δ|");
    expect(words).toContain('No |Δ| was measured for 1 of 3 substitutions.');
    expect(words).toContain('The repeated runs of 1 of 3 substitutions gave the same |Δ| each time');
    expect(words).toContain(
      'Only one of 2 runs was measured for shape=a/8/fp32: no spread over repeated runs is known for it.',
    );
  });

  it('says every substitution agreed only when every one had all its runs measured', () => {
    const sweep: Sweep = {
      plan: ['model=a', 'model=b'],
      repeats: 2,
      runs: [ok('model=a', 0), ok('model=a', 1), ok('model=b', 0)],
      done: 3,
      planned: 4,
      running: true,
      cancelled: false,
    };
    // Still running: model=b has one run so far, nothing is said of its spread yet.
    expect(sweepCountWords(sweep)).toBe('3 of 4 runs replayed, 1 to go');
    expect(sweepDeltaWords(sweepDeltas(sweep), 2)).not.toContain('Every substitution');
    sweep.runs.push(ok('model=b', 1));
    sweep.done = 4;
    sweep.running = false;
    expect(sweepCountWords(sweep)).toBe('4 of 4 runs replayed');
    expect(sweepDeltaWords(sweepDeltas(sweep), 2)).toContain(
      "Every substitution's 2 runs gave the same |Δ|: the replay is deterministic",
    );
  });

  it('cancelled: the runs not started never reach the engine, those running are cancelled through cancelJob', async () => {
    const engine = fakeEngine(() => report([{ output: 'o', delta: 0.01, epsilon: 0.02 }]));
    const plan = ['model=a', 'model=b', 'model=c', 'model=d', 'model=e'];
    const stop = new AbortController();
    const seen: Sweep[] = [];
    const done = runSweepJobs(
      engine.api,
      { source: { type: 'example', path: 'x' } },
      plan,
      2,
      (s) => seen.push(s),
      stop.signal,
    );
    await tick();
    expect(engine.running).toHaveLength(SWEEP_IN_FLIGHT);
    engine.endOne();
    await tick();
    // One ended, another took its place: SWEEP_IN_FLIGHT + 1 started of 10.
    expect(engine.started).toHaveLength(SWEEP_IN_FLIGHT + 1);
    stop.abort();
    expect(seen.at(-1)).toMatchObject({ running: true, cancelled: true });
    const sweep = await done;
    // The four running were cancelled in the engine; the five never started stayed so.
    expect(engine.cancelled).toHaveLength(SWEEP_IN_FLIGHT);
    expect(engine.started).toHaveLength(SWEEP_IN_FLIGHT + 1);
    expect(engine.running).toHaveLength(0);
    expect(sweep).toMatchObject({ running: false, cancelled: true, done: SWEEP_IN_FLIGHT + 1, planned: 10 });
    expect(sweepCounts(sweep)).toEqual({ planned: 10, replayed: 1, failed: 0, cancelled: 4, notRun: 5 });
    expect(sweepCountWords(sweep)).toBe('1 of 10 runs replayed, 9 cancelled');
    // A cancelled run is not a failure of the replay: nothing lists it as failed.
    expect(sweepDeltas(sweep).flatMap((d) => d.failed)).toEqual([]);
    expect(seen.at(-1)).toMatchObject({ running: false, cancelled: true });
  });

  it('a run whose job is started after the sweep was cancelled is cancelled as soon as its id is known', async () => {
    const engine = fakeEngine(() => report([{ output: 'o', delta: 0.01, epsilon: 0.02 }]));
    const stop = new AbortController();
    const done = runSweepJobs(
      engine.api,
      { source: { type: 'example', path: 'x' } },
      ['model=a'],
      1,
      () => undefined,
      stop.signal,
    );
    // Aborted while startJob is still being answered.
    stop.abort();
    const sweep = await done;
    expect(engine.cancelled).toEqual(['job-1']);
    expect(sweep.runs).toEqual([{ whatIf: 'model=a', repeat: 0, report: null, error: 'cancelled', cancelled: true }]);
  });
});

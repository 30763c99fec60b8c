import { describe, expect, it } from 'vitest';
import type { ApiEvent, RepriseClient, StartJobRequest } from '../../shared/api.js';
import type { Comparison, Report } from '../../shared/report.js';
import { runSweepJobs, sweepDeltas, SWEEP_IN_FLIGHT, type Sweep } from '../../renderer/src/lib/sweep.js';

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

/**
 * A fake engine: every job stays running until the test ends it, so the number of jobs
 * running at once is counted, not timed.
 */
function fakeEngine(result: (req: StartJobRequest) => Report | string) {
  const listeners = new Set<(e: ApiEvent) => void>();
  const running: { jobId: string; req: StartJobRequest }[] = [];
  let most = 0;
  let next = 1;
  const api: Pick<RepriseClient, 'startJob' | 'onEvent'> = {
    onEvent(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    async startJob(req) {
      const jobId = `job-${next++}`;
      running.push({ jobId, req });
      most = Math.max(most, running.length);
      return { jobId };
    },
  };
  /** Ends the oldest running job; false when none runs. */
  const endOne = (): boolean => {
    const j = running.shift();
    if (!j) return false;
    const r = result(j.req);
    const e: ApiEvent =
      typeof r === 'string'
        ? { type: 'job-failed', jobId: j.jobId, message: r, cancelled: false }
        : { type: 'job-done', jobId: j.jobId, report: r };
    for (const l of [...listeners]) l(e);
    return true;
  };
  return { api, endOne, running, most: () => most };
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
    expect(d[0]).toMatchObject({ runs: 3, worst: 2, best: 2, why: null });
    expect(d[0]!.outputs).toEqual([{ output: 'o', deltas: [0.06, 0.06, 0.06], epsilon: 0.03, beyond: true }]);
    expect(d[2]).toMatchObject({ worst: 0, best: 0 });
    expect(d[3]).toMatchObject({ worst: null, best: null, why: 'RPR-X: cannot replay' });
  });

  it('charts the spread over repeated runs: the worst and the best run of a substitution', () => {
    const run = (repeat: number, delta: number) => ({
      whatIf: 'model=ref-1',
      repeat,
      report: report([
        { output: 'score', delta, epsilon: 0.02 },
        { output: 'confidence', delta: 0.01, epsilon: 0.03 },
      ]),
      error: null,
    });
    const sweep: Sweep = {
      plan: ['model=ref-1', 'model=none'],
      repeats: 3,
      runs: [run(2, 0.04), run(0, 0.01), run(1, 0.03)],
      done: 3,
      planned: 6,
    };
    const [d, none] = sweepDeltas(sweep);
    expect(d!.worst).toBeCloseTo(2);
    expect(d!.best).toBeCloseTo(0.5);
    // |Δ| as the engine wrote it, in repeat order.
    expect(d!.outputs.find((o) => o.output === 'score')!.deltas).toEqual([0.01, 0.03, 0.04]);
    expect(none).toMatchObject({ runs: 0, worst: null, why: 'not replayed yet' });
  });
});

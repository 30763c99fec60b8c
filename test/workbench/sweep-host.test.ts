/**
 * The trainer's sweep against the real engine host (workers from dist/): its replays are
 * handed to the host's pool side by side, counted as jobs started and not yet ended (never
 * timed), and every substitution's repeated runs land with the same |Δ| (the replay is
 * deterministic on any worker of the pool).
 */
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepriseClient } from '../../shared/api.js';
import type { EngineHost } from '../../main/host/engine-host.js';
import { distHost } from '../helpers/dist-host.js';
import { runSweepJobs, sweepDeltas, SWEEP_IN_FLIGHT } from '../../renderer/src/lib/sweep.js';

let host: EngineHost;
beforeAll(() => {
  host = distHost({ workers: 2, roots: [tmpdir()] });
});
afterAll(async () => host.close());

describe("the trainer's sweep on the engine host", () => {
  it('hands SWEEP_IN_FLIGHT replays to the pool at once, and every repeated run agrees', async () => {
    const example = 'tg/banded-drift-material/manifest.json';
    const offers = await host.providerOffers({ example });
    const plan = offers.providers.flatMap((p) => [
      ...p.models.map((m) => `model=${m}`),
      ...p.computeShapes.map((s) => `shape=${s}`),
    ]);
    expect(plan.length).toBeGreaterThan(SWEEP_IN_FLIGHT);
    let running = 0;
    let most = 0;
    const api: Pick<RepriseClient, 'startJob' | 'onEvent' | 'cancelJob'> = {
      onEvent: (l) => host.subscribe(l),
      cancelJob: (req) => host.cancelJob(req),
      startJob: async (req) => {
        running++;
        most = Math.max(most, running);
        return host.startJob(req);
      },
    };
    const off = host.subscribe((e) => {
      if (e.type === 'job-done' || e.type === 'job-failed') running--;
    });
    const sweep = await runSweepJobs(api, { source: { type: 'example', path: example } }, plan, 2, () => undefined);
    off();
    expect(most).toBe(SWEEP_IN_FLIGHT);
    expect(sweep.done).toBe(plan.length * 2);
    expect(sweep.runs.filter((r) => r.error)).toEqual([]);
    const deltas = sweepDeltas(sweep);
    expect(deltas.every((d) => d.worst !== null && d.worst === d.best)).toBe(true);
    expect(deltas.find((d) => d.whatIf === 'model=ref-1')!.worst).toBeGreaterThan(1);
  }, 120_000);

  it('cancelled after its first run: the runs in flight are stopped in the pool and the rest never start', async () => {
    const example = 'tg/banded-drift-material/manifest.json';
    const plan = ['model=ref-1', 'model=ref-2', 'shape=advisor.cpu_v1/1/fp32', 'shape=advisor.cpu_v1/2/fp32'];
    let started = 0;
    const ended = new Set<string>();
    const off = host.subscribe((e) => {
      if (e.type === 'job-done' || e.type === 'job-failed') ended.add(e.jobId);
    });
    const stop = new AbortController();
    const api: Pick<RepriseClient, 'startJob' | 'onEvent' | 'cancelJob'> = {
      onEvent: (l) => host.subscribe(l),
      cancelJob: (req) => host.cancelJob(req),
      startJob: async (req) => {
        started++;
        return host.startJob(req);
      },
    };
    const sweep = await runSweepJobs(
      api,
      { source: { type: 'example', path: example } },
      plan,
      3,
      (s) => {
        if (s.done === 1) stop.abort();
      },
      stop.signal,
    );
    off();
    // Of 12 runs: SWEEP_IN_FLIGHT started, one more took the first's place before the abort at most.
    expect(started).toBeLessThanOrEqual(SWEEP_IN_FLIGHT + 1);
    expect(ended.size).toBe(started);
    expect(sweep).toMatchObject({ running: false, cancelled: true, planned: 12 });
    expect(sweep.done).toBe(started);
    expect(sweep.runs.filter((r) => r.cancelled).length).toBeGreaterThan(0);
  }, 120_000);
});

/**
 * The window follows a job to its end even when the job's events overtake the answer to
 * startJob (the intermittent "job never ends" stall in the workbench came from dropping
 * them), and it ignores other jobs' events.
 */
import { describe, expect, it } from 'vitest';
import type { ApiEvent, StartJobRequest } from '../../shared/api.js';
import type { Report } from '../../shared/report.js';
import { startWatchedJob } from '../../renderer/src/lib/watch-job.js';

const REQ: StartJobRequest = { source: { type: 'example', path: 'dumps/intact.dump.json' }, mode: 'verify' };
const REPORT = { verdict: 'pass' } as unknown as Report;

/** A client whose startJob answer comes after `before` events and before `after` ones. */
function client(before: ApiEvent[], after: ApiEvent[] = [], fail = false) {
  const listeners = new Set<(e: ApiEvent) => void>();
  const push = (es: ApiEvent[]) => es.forEach((e) => listeners.forEach((l) => l(e)));
  return {
    listeners,
    onEvent(l: (e: ApiEvent) => void) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
    async startJob() {
      push(before);
      if (fail) throw new Error('refused');
      setTimeout(() => push(after), 5);
      return { jobId: 'job-7' };
    },
  };
}

describe('startWatchedJob', () => {
  it('keeps a job-done that arrives before the job id is known', async () => {
    const api = client([
      { type: 'job-progress', jobId: 'job-7', fraction: 0.5 },
      { type: 'job-done', jobId: 'job-6', report: {} as Report },
      { type: 'job-done', jobId: 'job-7', report: REPORT },
    ]);
    const seen: number[] = [];
    const w = await startWatchedJob(api, REQ, (f) => seen.push(f));
    expect(w.jobId).toBe('job-7');
    expect(await w.end).toEqual({ ok: true, report: REPORT });
    expect(seen).toEqual([0.5]);
    expect(api.listeners.size).toBe(0);
  });

  it('follows a job whose events come after the answer, and reports a failure as such', async () => {
    const api = client(
      [],
      [
        { type: 'job-failed', jobId: 'job-8', message: 'not ours', cancelled: false },
        { type: 'job-failed', jobId: 'job-7', message: 'cancelled', cancelled: true },
      ],
    );
    const w = await startWatchedJob(api, REQ);
    expect(await w.end).toEqual({ ok: false, message: 'cancelled', cancelled: true });
    expect(api.listeners.size).toBe(0);
  });

  it('a refused start rejects and stops listening', async () => {
    const api = client([], [], true);
    await expect(startWatchedJob(api, REQ)).rejects.toThrow('refused');
    expect(api.listeners.size).toBe(0);
  });
});

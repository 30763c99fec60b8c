/** A stand-in engine API for the window's stores: jobs start at once and end when the test says. */
import type { Report } from '../../shared/report';

type Listener = (e: unknown) => void;
export type FakeJobRequest = { options?: Record<string, string>; key?: string };

/** `jobs` the requests sent, in order; `end(report)` ends the last one with that report. */
export function fakeEngine() {
  const subs = new Set<Listener>();
  const jobs: { jobId: string; req: FakeJobRequest }[] = [];
  const api = {
    onEvent: (f: Listener) => (subs.add(f), () => subs.delete(f)),
    async startJob(req: FakeJobRequest) {
      jobs.push({ jobId: `j${jobs.length + 1}`, req });
      return { jobId: jobs.at(-1)!.jobId };
    },
    async cancelJob({ jobId }: { jobId: string }) {
      [...subs].forEach((f) => f({ type: 'job-failed', jobId, message: 'cancelled', cancelled: true }));
      return {};
    },
    artifactContent: async () => ({ raw: null, canonical: null, note: '' }),
    recentFiles: async () => [],
    judgementRules: async () => null,
    listJudgements: async () => ({ judgements: [] }),
  };
  const end = (r: Report) => [...subs].forEach((f) => f({ type: 'job-done', jobId: jobs.at(-1)!.jobId, report: r }));
  return { api, jobs, end };
}

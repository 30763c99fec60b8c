/**
 * Starts an engine job and follows it to its end: the one way the window runs a job.
 *
 * A job's events can reach the window before the answer to `startJob` does: the engine
 * runs the job on another thread, and the host relays its events as soon as they come
 * (Node delivers several IPC messages read at once before the promise that carries the
 * answer settles). Listening only once the job id is known would then drop the job's
 * end, and the window would wait for it forever. So this listens before asking, keeps
 * what arrives early, and replays it once the id is known.
 */
import type { ApiEvent, RepriseClient, StartJobRequest, UnreadOption } from '../../../shared/api.js';
import type { Report } from '../../../shared/report.js';

/** `unread`: the options sent that the artifact's kind does not read, when the host said any (ApiEvent job-done). */
export type JobEnd =
  { ok: true; report: Report; unread?: UnreadOption[] } | { ok: false; message: string; cancelled: boolean };

export interface WatchedJob {
  jobId: string;
  /** Settles once, with the job's report or why it has none; never rejects. */
  end: Promise<JobEnd>;
}

/** At most this many events are kept while the job id is unknown (other jobs' events among them). */
const MAX_EARLY = 1000;

export async function startWatchedJob(
  api: Pick<RepriseClient, 'startJob' | 'onEvent'>,
  req: StartJobRequest,
  onProgress?: (fraction: number, label?: string) => void,
): Promise<WatchedJob> {
  const early: ApiEvent[] = [];
  let handle: ((e: ApiEvent) => void) | null = null;
  const off = api.onEvent((e) => {
    if (handle) handle(e);
    else if ('jobId' in e && early.length < MAX_EARLY) early.push(e);
  });
  let jobId: string;
  try {
    jobId = (await api.startJob(req)).jobId;
  } catch (e) {
    off();
    throw e;
  }
  const end = new Promise<JobEnd>((resolve) => {
    handle = (e) => {
      if (!('jobId' in e) || e.jobId !== jobId) return;
      if (e.type === 'job-progress') onProgress?.(e.fraction, e.label);
      else {
        off();
        handle = () => undefined;
        resolve(
          e.type === 'job-done'
            ? { ok: true, report: e.report, ...(e.unread?.length ? { unread: e.unread } : {}) }
            : { ok: false, message: e.message, cancelled: e.cancelled },
        );
      }
    };
    for (const e of early.splice(0)) handle(e);
  });
  return { jobId, end };
}

/**
 * A job's report through the API as the window gets it: startJob, then its events, followed
 * by the renderer's own startWatchedJob (the one way a job is followed). The API has no
 * request/response "check" call: every report comes from a job.
 */
import type { ApiEvent, JobStarted, StartJobRequest } from '../../shared/api.js';
import type { Report } from '../../shared/report.js';
import { startWatchedJob, type JobEnd } from '../../renderer/src/lib/watch-job.js';

export interface JobApi {
  startJob(req: StartJobRequest): Promise<JobStarted>;
  subscribe(listener: (e: ApiEvent) => void): () => void;
}

/** How the job ended: its report, or why it has none. */
export async function jobEnd(api: JobApi, req: StartJobRequest): Promise<JobEnd> {
  const watched = await startWatchedJob({ startJob: (r) => api.startJob(r), onEvent: (l) => api.subscribe(l) }, req);
  return watched.end;
}

/** The job's report; rejects with the job's failure message. */
export async function jobReport(api: JobApi, req: StartJobRequest): Promise<Report> {
  const end = await jobEnd(api, req);
  if (!end.ok) throw new Error(end.message);
  return end.report;
}

/** The bytes of a file as a job source. */
export const bytesSource = (name: string, data: Uint8Array | string): StartJobRequest['source'] => ({
  type: 'bytes',
  name,
  dataBase64: Buffer.from(data).toString('base64'),
});

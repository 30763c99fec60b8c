/**
 * The engine host's jobs: `startJob` returns a job id at once and runs the job in the
 * worker pool; progress, the report or the failure arrive as events; `cancelJob`
 * terminates the worker running it (the pool replaces it).
 */
import type { ResourceLimits } from 'node:worker_threads';
import type { ApiEvent, JobStarted, StartJobRequest, UnreadOption } from '../../shared/api.js';
import type { Report } from '../../shared/report.js';
import { WorkerPool } from '../../app/jobs/pool.js';
import { kindNamed, unreadOptions } from '../../app/kinds/registry.js';
import type { EngineOptions } from '../../app/kinds/types.js';
import type { JobRequests } from './job-requests.js';
import { abandonedWords, type Uploads } from './uploads.js';

/**
 * The window's options (its Open view's fields, an example's own) that the kind of the
 * artifact it opened does not read. The CLI refuses such a flag typed for one file; the
 * window sends its fields with every file, so it cannot refuse, and says them beside the
 * verdict instead, which was made without them. Only options the window may send count
 * (KindOption.workbench): a signing key, what-if substitutions are no field of the Open view.
 */
function unreadSent(report: Report, options: EngineOptions): UnreadOption[] {
  const kind = kindNamed(report.artifact.kind);
  if (!kind) return []; // unknown content: no kind read anything, and its verdict says so
  return unreadOptions(kind, options)
    .filter((o) => o.workbench)
    .map((o) => ({ name: o.name, help: o.help }));
}

interface RunningJob {
  cancel: () => void;
  cancelled: boolean;
}

export class JobSide {
  private readonly pool: WorkerPool;
  private readonly jobs = new Map<string, RunningJob>();
  private nextJob = 1;

  constructor(
    o: { workers: number; workerUrl: URL; limits: ResourceLimits },
    private readonly requests: JobRequests,
    private readonly uploads: Uploads,
    private readonly emit: (e: ApiEvent) => void,
  ) {
    this.pool = new WorkerPool(o.workers, o.workerUrl, { pipeline: 1, resourceLimits: o.limits });
  }

  async startJob(req: StartJobRequest): Promise<JobStarted> {
    const { job } = await this.requests.jobOf(req, true);
    const jobId = `job-${this.nextJob++}`;
    const handle = this.pool.run(job, (fraction, label) =>
      this.emit({ type: 'job-progress', jobId, fraction, ...(label !== undefined ? { label } : {}) }),
    );
    const running: RunningJob = { cancel: handle.cancel, cancelled: false };
    this.jobs.set(jobId, running);
    void handle.promise.then((o) => {
      this.jobs.delete(jobId);
      if (o.ok) this.emit({ type: 'job-done', jobId, report: o.report, unread: unreadSent(o.report, job.options) });
      else {
        // A job that followed an upload whose sending failed says why it failed, not only that its bytes stopped.
        const upload = req.source?.type === 'upload' ? abandonedWords(this.uploads.get(req.source.uploadId)) : null;
        this.emit({
          type: 'job-failed',
          jobId,
          message: running.cancelled ? 'cancelled' : (upload ?? o.message),
          cancelled: running.cancelled,
        });
      }
    });
    return { jobId };
  }

  async cancelJob(req: { jobId: string }): Promise<boolean> {
    const j = typeof req?.jobId === 'string' ? this.jobs.get(req.jobId) : undefined;
    if (!j) return false;
    j.cancelled = true;
    j.cancel();
    return true;
  }

  async close(): Promise<void> {
    for (const j of this.jobs.values()) j.cancel();
    await this.pool.close();
  }
}

/** Runs one engine job and turns every error into an outcome (workers never throw). */
import { followArriving } from '../engine/arriving.js';
import { LAZY_MIN, runBytes, runPath, UsageError } from '../engine/run.js';
import type { EngineJob, JobOutcome } from './protocol.js';

export async function executeJob(job: EngineJob, onProgress?: (f: number, label?: string) => void): Promise<JobOutcome> {
  try {
    const arrived = job.op === 'runPath' && job.arriving !== undefined ? await followArriving(job.path, job.arriving, { shown: job.shown ?? job.path, onProgress, decodeMin: LAZY_MIN }) : undefined;
    const report =
      job.op === 'runPath'
        ? await runPath(job.path, job.mode, job.options, onProgress, job.shown, arrived)
        : await runBytes(job.path, Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength), job.mode, job.options, onProgress);
    return { ok: true, report };
  } catch (e) {
    if (e instanceof UsageError) return { ok: false, usage: true, message: e.message };
    return { ok: false, usage: false, message: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  }
}

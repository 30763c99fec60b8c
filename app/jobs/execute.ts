/** Runs one engine job and turns every error into an outcome (workers never throw). */
import { followArriving } from '../engine/arriving.js';
import { LAZY_MIN, runBytes, runPath, UsageError } from '../engine/run.js';
import type { EngineJob, JobOutcome } from './protocol.js';

type OnProgress = (f: number, label?: string) => void;

/** The bar's share of a job that follows an arriving upload spent receiving it. */
const RECEIVING_SHARE = 0.5;

/**
 * A job that follows an arriving upload tells its receiving as the first half of the bar and
 * its verification as the second, so the bar never runs back from "receiving 100%" to the
 * verification's 0%, and says "verifying" as soon as the last byte is in.
 */
function shared(onProgress: OnProgress | undefined, from: number, span: number): OnProgress | undefined {
  return onProgress && ((f, label) => onProgress(from + span * f, label));
}

export async function executeJob(job: EngineJob, onProgress?: OnProgress): Promise<JobOutcome> {
  try {
    const following = job.op === 'runPath' && job.arriving !== undefined;
    const arrived = following ? await followArriving(job.path, job.arriving!, { shown: job.shown ?? job.path, onProgress: shared(onProgress, 0, RECEIVING_SHARE), decodeMin: LAZY_MIN }) : undefined;
    if (following) onProgress?.(RECEIVING_SHARE, 'verifying');
    const running = following ? shared(onProgress, RECEIVING_SHARE, 1 - RECEIVING_SHARE) : onProgress;
    const report =
      job.op === 'runPath'
        ? await runPath(job.path, job.mode, job.options, running, job.shown, arrived)
        : await runBytes(job.path, Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength), job.mode, job.options, onProgress);
    return { ok: true, report };
  } catch (e) {
    if (e instanceof UsageError) return { ok: false, usage: true, message: e.message };
    return { ok: false, usage: false, message: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** Runs one engine job and turns every error into an outcome (workers never throw). */
import { withReadConfinement } from '../core/files.js';
import { followArriving, type Arrived } from '../engine/arriving.js';
import { LAZY_MIN, runBytes, runPath, UsageError } from '../engine/run.js';
import type { EngineJob, JobOutcome } from './protocol.js';

type OnProgress = (f: number, label?: string) => void;

/**
 * The bar's share of a job that follows an arriving upload spent receiving it: receiving is
 * its first half and the verification its second, so the bar never runs back from
 * "receiving 100%" to the verification's 0%, and says "verifying" at the last byte.
 */
const RECEIVING_SHARE = 0.5;

/** Progress told as the part `from`..`from + span` of the bar. */
function scaled(onProgress: OnProgress | undefined, from: number, span: number): OnProgress | undefined {
  return onProgress && ((f, label) => onProgress(from + span * f, label));
}

export function executeJob(job: EngineJob, onProgress?: OnProgress): Promise<JobOutcome> {
  // The host's jobs open only what lies in the folders it granted (EngineOptions.readRoots).
  return withReadConfinement(job.options.readRoots, () => runJob(job, onProgress));
}

async function runJob(job: EngineJob, onProgress?: OnProgress): Promise<JobOutcome> {
  let arrived: Arrived | null | undefined;
  try {
    const arriving = job.op === 'runPath' ? job.arriving : undefined;
    const shown = job.op === 'runPath' ? (job.shown ?? job.path) : job.path;
    arrived =
      arriving !== undefined
        ? await followArriving(job.path, arriving, {
            shown,
            onProgress: scaled(onProgress, 0, RECEIVING_SHARE),
            decodeMin: LAZY_MIN,
          })
        : undefined;
    if (arriving !== undefined) onProgress?.(RECEIVING_SHARE, 'verifying');
    const running = arriving !== undefined ? scaled(onProgress, RECEIVING_SHARE, 1 - RECEIVING_SHARE) : onProgress;
    const report =
      job.op === 'runPath'
        ? await runPath(job.path, job.mode, job.options, { onProgress: running, shown: job.shown, arrived })
        : await runBytes(
            job.path,
            Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength),
            job.mode,
            job.options,
            onProgress,
          );
    return { ok: true, report };
  } catch (e) {
    if (e instanceof UsageError) return { ok: false, usage: true, message: e.message };
    return { ok: false, usage: false, message: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    // The run took the stripping it needed (Sniffed.json); any other is dropped.
    arrived?.strip?.drop();
  }
}

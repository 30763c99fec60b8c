/**
 * The names a run's jobs go by, shared by the enqueue, the worker, its sandboxed processes
 * and the merge; imports nothing, so a sandboxed process loads no queue code for them.
 */

/** A batch's job id (`b0`, `b1`, …), and a batch split after it failed for good: one job per artifact (`b3.0`, `b3.1`, …). */
export const batchId = (b: number): string => `b${b}`;
export const splitId = (parent: string, k: number): string => `${parent}.${k}`;

/** The batch a job id names, and for `bN.k` the artifact k split off it; null for any other id. */
export function parseJobId(id: string): { batch: number; part: number | null } | null {
  const m = /^b(0|[1-9]\d{0,8})(?:\.(0|[1-9]\d{0,4}))?$/.exec(id);
  return m ? { batch: Number(m[1]), part: m[2] === undefined ? null : Number(m[2]) } : null;
}

/** How a job's failure says that a worker refused it (not a crash: it is neither split nor recorded as one). */
export const REFUSED = 'reprise refused the job:';

/**
 * Progress of one job's long work, as KindContext.progress tells it (to a worker's parent,
 * then the workbench's job bar). The work may report as often as it likes, per line or per
 * item: the listener hears at most one update per PROGRESS_INTERVAL_MS, never a smaller
 * fraction than the last one, and 1 at the end. Nothing is told during the first interval,
 * so the short jobs (nearly every job of a batch) post no message at all.
 */

/** At most 20 updates a second: a moving bar, and no flood of messages between threads. */
export const PROGRESS_INTERVAL_MS = 50;

export type ProgressListener = (fraction: number, label?: string) => void;

export class Progress {
  private due: number;
  private told = 0;
  private spoke = false;
  /** The current stage, as fractions of the whole. */
  private from = 0;
  private span = 1;
  private label: string | undefined;
  /** The part of the whole that stages divide (see `within`), as fractions. */
  private base = 0;
  private scale = 1;

  constructor(private readonly listener: ProgressListener) {
    this.due = Date.now() + PROGRESS_INTERVAL_MS;
  }

  /**
   * Starts a stage of the work, `from`..`to` percent of the whole, told with `label` (what
   * is being worked through: "EVALs", "executions"); `at` says how far into it the work is.
   * Percent, as a progress bar reads: a job's plan of its stages holds no fractions.
   */
  stage(from: number, to: number, label?: string): this {
    this.from = this.base + (this.scale * from) / 100;
    this.span = (this.scale * (to - from)) / 100;
    this.label = label;
    return this;
  }

  /**
   * Makes the stages that follow parts of `from`..`to` percent of the whole: for a step that
   * is itself one stage of a larger job (a manifest's verification, before its replay).
   */
  within(from: number, to: number): this {
    this.base = from / 100;
    this.scale = (to - from) / 100;
    return this;
  }

  /** `done` of the current stage's `total` items are done (cheap: one clock read when not due). */
  at(done: number, total: number): void {
    const now = Date.now();
    if (now < this.due) return;
    this.due = now + PROGRESS_INTERVAL_MS;
    const f = Math.min(1, Math.max(this.told, this.from + (total > 0 ? (this.span * done) / total : 0)));
    this.told = f;
    this.spoke = true;
    this.listener(f, this.label);
  }

  /** The work has ended: 1, when anything was told before (a short job tells nothing). */
  done(): void {
    if (!this.spoke || this.told >= 1) return;
    this.told = 1;
    this.listener(1, this.label);
  }
}

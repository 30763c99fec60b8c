/**
 * Progress of a long re-judgement (`rejudge`, `rejudge merge --wait`, `worker`): done,
 * failed, remaining and rate, as a bar on stderr when it is a terminal (the printer's own
 * progress line), else as JSON Lines events on stdout that a pipeline can follow.
 */
import type { CliIO } from '../io.js';

export interface ProgressCounts {
  done: number;
  failed: number;
  remaining: number;
}

const BAR = 24;

export class RejudgeProgress {
  private readonly started = Date.now();
  private last = 0;
  /** What was done before this one started following (a queue half done): not part of its rate. */
  private baseline: number | null = null;

  constructor(
    private readonly io: CliIO,
    private readonly what: string,
  ) {}

  private rate(done: number): number {
    this.baseline ??= done;
    const s = (Date.now() - this.started) / 1000;
    return s > 0 ? Math.round(((done - this.baseline) / s) * 10) / 10 : 0;
  }

  /** Reports counts: at most 4 times a second on a terminal, once a second when piped; `final` always. */
  show(c: ProgressCounts, final = false): void {
    const now = Date.now();
    if (!final && now - this.last < (this.io.stderrIsTTY ? 250 : 1000)) return;
    this.last = now;
    const rate = this.rate(c.done);
    if (!this.io.stderrIsTTY) {
      this.io.out(JSON.stringify({ event: final ? 'done' : 'progress', what: this.what, ...c, rate }) + '\n');
      return;
    }
    const total = c.done + c.remaining;
    const filled = total > 0 ? Math.round((c.done / total) * BAR) : BAR;
    this.io.progress(
      `${this.what} [${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}] ${c.done}/${total} done, ${c.failed} failed, ${c.remaining} left, ${rate}/s`,
    );
    if (final) this.io.progress(null);
  }

  /** A JSON Lines event of another sort (a worker's job taken or finished); nothing on a terminal. */
  event(name: string, fields: Record<string, unknown>): void {
    if (!this.io.stderrIsTTY) this.io.out(JSON.stringify({ event: name, what: this.what, ...fields }) + '\n');
  }
}

/**
 * What the engine showed the window, remembered so that only that is signed. A judgement
 * is recorded on "the report the reviewer read", and the window sends that report back
 * with the request (RecordJudgementRequest.report): without this, a saved report opened in
 * the window (never re-verified), or a window whose page was subverted, could have a
 * reviewer's key sign a judgement bound to a report no verification produced. The host sees
 * every report a job returns (`job-done`) and every artifact a case listed (`case-done`);
 * it signs a judgement only on a report among them, byte for byte, and a note only on an
 * artifact among them.
 *
 * A report is remembered by the SHA-256 of its JSON text. The window's copy crossed one
 * serialization (IPC's structured clone or the web host's JSON) that keeps member order and
 * every value a report holds, so the same text comes back from an unchanged report; the
 * RFC 8785 digest would cost a canonical walk of each report on the host's own thread.
 */
import type { ApiEvent } from '../../shared/api.js';
import type { Report } from '../../shared/report.js';
import { hashBytes } from '../../app/core/hash.js';
import { ApiError } from './api-error.js';

/** How many reports and artifacts are remembered (the oldest go first): a day's work many times over. */
export const REMEMBERED = 4096;

/** A set that forgets its oldest member past `limit`. */
class Recent {
  private readonly seen = new Set<string>();
  constructor(private readonly limit: number) {}
  add(key: string): void {
    this.seen.delete(key);
    this.seen.add(key);
    if (this.seen.size > this.limit) this.seen.delete(this.seen.values().next().value!);
  }
  has(key: string): boolean {
    return this.seen.has(key);
  }
}

const textDigest = (report: unknown): string => hashBytes(JSON.stringify(report) ?? '');

export class EmittedReports {
  private readonly reports: Recent;
  private readonly artifacts: Recent;

  constructor(limit = REMEMBERED) {
    this.reports = new Recent(limit);
    this.artifacts = new Recent(limit);
  }

  /** Called with every event the host sends the window, before it is sent. */
  see(e: ApiEvent): void {
    if (e.type === 'job-done') this.rememberReport(e.report);
    else if (e.type === 'case-done')
      for (const a of e.report.artifacts) if (a.sha256 !== null) this.artifacts.add(a.sha256);
  }

  private rememberReport(report: Report): void {
    this.reports.add(textDigest(report));
    if (typeof report.artifact?.sha256 === 'string') this.artifacts.add(report.artifact.sha256);
  }

  /** Refuses a report this engine did not return (`what`: the act refused, for the message). */
  checkReport(report: unknown, what: string): void {
    if (!this.reports.has(textDigest(report)))
      throw new ApiError(
        `${what} is made only on a report this engine returned, as it returned it: this one is not (a saved ` +
          'report shown as saved, one from before the engine restarted, or one changed since). Nothing was ' +
          'signed: open the artifact and run it again, then record it on the report that run shows.',
        true,
      );
  }

  /** Refuses an artifact no report or case of this engine named. */
  checkArtifact(sha256: unknown, what: string): void {
    if (typeof sha256 !== 'string' || !this.artifacts.has(sha256))
      throw new ApiError(
        `${what} is made only on an artifact this engine verified (opened, or listed in a case): ` +
          `${typeof sha256 === 'string' ? sha256 : 'this one'} is not one of them. Nothing was signed: open it first.`,
        true,
      );
  }
}

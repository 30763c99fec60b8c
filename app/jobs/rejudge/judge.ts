/**
 * Judging one listed artifact into its record (docs/rejudge.md): the same run `verify` makes
 * (jobs/execute.ts), under the artifact's list name, reduced to what a re-judgement keeps:
 * SHA-256, kind, verdict, the rules above info and the report's digest (the one
 * app/journal/judgement.ts defines: the report without its run times and path). The same
 * function runs inline, on a batch thread (rejudge-worker.ts) and in a queue worker's
 * sandboxed process (queue/processor.ts), so all three make the same bytes.
 */
import type { Report } from '../../../shared/report.js';
import { readFailure } from '../../core/files.js';
import { reportDigest } from '../../journal/judgement.js';
import { shardOf, type JudgedRecord, type RuleHit, type RunSpec } from '../../rejudge/index.js';
import type { EngineOptions } from '../../kinds/types.js';
import { executeJob } from '../execute.js';
import type { ListItem } from './list.js';
import { contentDigest } from './digest.js';

/** What a batch of the run carries: the items, the engine's options and mode, and the shard to keep. */
export interface JudgeJob {
  items: ListItem[];
  options: EngineOptions;
  mode: RunSpec['mode'];
  shard: { index: number; count: number };
}

/** Per item: its record, null when it belongs to another shard, or why it could not even be placed. */
export type JudgeOutcome = { record: JudgedRecord } | { skipped: true } | { problem: string };

/** The rules a report has above info, each (rule, severity) once, in the report's order. */
export function rulesOf(report: Report): RuleHit[] {
  const seen = new Set<string>();
  const out: RuleHit[] = [];
  for (const f of report.findings) {
    if (f.severity === 'info') continue;
    const key = `${f.rule}\n${f.severity}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ rule: f.rule, severity: f.severity });
  }
  return out;
}

const errorRecord = (sha256: string, path: string, error: string): JudgedRecord => ({
  sha256,
  path,
  kind: null,
  verdict: 'error',
  rules: [],
  reportDigest: null,
  error,
});

/** The digest placement and records use, or why there is none (a file that cannot be read and has no listed hash). */
async function placeOf(item: ListItem): Promise<string | { problem: string }> {
  if (item.sha256) return item.sha256;
  try {
    return await contentDigest(item.path);
  } catch (e) {
    return {
      problem: `${item.name} cannot be read (${readFailure(e)}) and the list gives no SHA-256 for it: it has no shard; fix it or list its hash`,
    };
  }
}

/** Judges one item (or skips it when it belongs to another shard). */
export async function judgeItem(item: ListItem, job: Omit<JudgeJob, 'items'>): Promise<JudgeOutcome> {
  // A shard must know the content before it judges; a single shard or a queue learns it from the report.
  let placed: string | undefined = item.sha256;
  if (job.shard.count > 1 && !placed) {
    const p = await placeOf(item);
    if (typeof p !== 'string') return p;
    placed = p;
  }
  if (placed && shardOf(placed, job.shard.count) !== job.shard.index) return { skipped: true };
  const o = await executeJob({
    op: 'runPath',
    path: item.path,
    shown: item.name,
    mode: job.mode,
    options: job.options,
  });
  if (!o.ok) {
    const at = placed ?? (await placeOf(item));
    return typeof at === 'string' ? { record: errorRecord(at, item.name, o.message) } : at;
  }
  const actual = o.report.artifact.sha256 ?? (await contentDigest(item.path).catch(() => null));
  if (actual === null)
    return { record: errorRecord(placed!, item.name, 'the directory could not be read again after it was judged') };
  if (placed && actual !== placed)
    return {
      record: errorRecord(
        placed,
        item.name,
        `its content is ${actual}, not ${placed} (${item.sha256 ? "the list's hash" : 'what placed it in its shard'}): it changed while the archive was judged, or the list is wrong`,
      ),
    };
  return {
    record: {
      sha256: actual,
      path: item.name,
      kind: o.report.artifact.kind,
      verdict: o.report.verdict,
      rules: rulesOf(o.report),
      reportDigest: reportDigest(o.report),
    },
  };
}

/** Judges a batch, one item after another (each outcome at its item's index). */
export async function judgeBatch(job: JudgeJob): Promise<JudgeOutcome[]> {
  const out: JudgeOutcome[] = [];
  for (const item of job.items) out.push(await judgeItem(item, job));
  return out;
}

/**
 * The trainer's last sweep, kept across a reload of the tab (lib/tab-keep.ts) once it has
 * ended: its runs with their reports, what it swept (the substitutions, the runs of each) and
 * the options its runs were sent with, and the artifact it replayed, by how the window
 * opened it (an example or a path: a picked file is not opened again by a reload) and its
 * SHA-256. Read back, it is the result of the sweep that was run, shown as such, never run
 * again, and only over that artifact: the same example or path, its report naming the same
 * SHA-256.
 */
import type { JobSource } from '../../../shared/api.js';
import type { Report } from '../../../shared/report.js';
import { HASH, reportShapeProblems } from '../../../shared/report-shape.js';
import type { Sweep, SweepRun } from './sweep.js';
import { isPlainObject } from '../../../shared/plain-object.js';
import { forgetInTab, isCount, isStrings, keepInTab, keptInTab } from './tab-keep.js';

/** What a reload opens again: an example or a file by its path. */
export interface KeptSource {
  type: 'example' | 'path';
  path: string;
}

export interface KeptSweep {
  /** The artifact swept: its name as shown, how it was opened, its SHA-256 as its report named it. */
  artifact: { name: string; source: KeptSource; sha256: string };
  /** The options each of its runs was sent with (paths: a trust store, a provider registry; never a key). */
  options: Record<string, string>;
  /** The sweep as it ended (never one still running). */
  sweep: Sweep;
}

const KEY = 'reprise.sweep';
/** Its runs' reports whole (a report of the examples is about 10 KB): a sweep larger than this is not kept. */
export const MAX_SWEEP_CHARS = 2_000_000;
/** Far more substitutions and runs than a registry offers: a bound on what is read back. */
const MAX_PLAN = 1_000;
const MAX_REPEATS = 100;

const isKeptSource = (v: unknown): v is KeptSource =>
  isPlainObject(v) && (v['type'] === 'example' || v['type'] === 'path') && typeof v['path'] === 'string';

const isOptions = (v: unknown): v is Record<string, string> =>
  isPlainObject(v) && Object.values(v).every((x) => typeof x === 'string');

/** A run of the plan (its substitution, one of its repeats), with a report of the report's own shape or none. */
function isRun(v: unknown, plan: readonly string[], repeats: number): v is SweepRun {
  if (!isPlainObject(v) || typeof v['whatIf'] !== 'string' || !plan.includes(v['whatIf'])) return false;
  if (!isCount(v['repeat'], 0, repeats - 1) || typeof v['cancelled'] !== 'boolean') return false;
  const { report, error } = v;
  if (report === null) return typeof error === 'string';
  return error === null && reportShapeProblems(report, { runOptional: true }).length === 0;
}

/** A sweep that ended: its counts agree with its runs, each run of its plan at most once. */
function isEndedSweep(v: unknown): v is Sweep {
  if (!isPlainObject(v) || v['running'] !== false || typeof v['cancelled'] !== 'boolean') return false;
  const { plan, repeats, runs, done, planned } = v;
  if (!isStrings(plan, MAX_PLAN) || plan.length === 0 || !isCount(repeats, 1, MAX_REPEATS)) return false;
  if (planned !== plan.length * repeats || !Array.isArray(runs) || done !== runs.length || runs.length > planned)
    return false;
  if (!runs.every((r) => isRun(r, plan, repeats))) return false;
  return new Set(runs.map((r: SweepRun) => `${r.repeat} ${r.whatIf}`)).size === runs.length;
}

export function isKeptSweep(v: unknown): v is KeptSweep {
  if (!isPlainObject(v) || !isPlainObject(v['artifact']) || !isOptions(v['options'])) return false;
  const { name, source, sha256 } = v['artifact'];
  return (
    typeof name === 'string' &&
    isKeptSource(source) &&
    typeof sha256 === 'string' &&
    HASH.test(sha256) &&
    isEndedSweep(v['sweep'])
  );
}

/** How a reload opens `source` again, or null for what it does not (a picked file). */
const keptSource = (source: JobSource | null | undefined): KeptSource | null =>
  source?.type === 'example' || source?.type === 'path' ? { type: source.type, path: source.path } : null;

/**
 * Keeps a sweep that ended, over the artifact `name` opened as `source` whose report named
 * `sha256`; one that cannot be opened again by a reload, that names no SHA-256 or is too
 * large is not kept (and the one kept before goes).
 */
export function keepSweep(
  name: string,
  source: JobSource | null,
  sha256: string | null | undefined,
  options: Record<string, string>,
  sweep: Sweep,
): boolean {
  const kept = keptSource(source);
  if (kept === null || typeof sha256 !== 'string' || sweep.running) {
    forgetSweep();
    return false;
  }
  return keepInTab(KEY, { artifact: { name, source: kept, sha256 }, options, sweep }, MAX_SWEEP_CHARS);
}

/** The sweep kept by this tab before it was reloaded, or null (none, or dropped as malformed or too large). */
export const keptSweep = (): KeptSweep | null => keptInTab(KEY, isKeptSweep, MAX_SWEEP_CHARS);

export const forgetSweep = (): void => forgetInTab(KEY);

/** Whether `source` is the artifact the kept sweep replayed, as the window opened it. */
export function sweptSource(kept: KeptSweep, source: JobSource | null | undefined): boolean {
  const k = keptSource(source);
  return k?.type === kept.artifact.source.type && k.path === kept.artifact.source.path;
}

/**
 * The kept sweep to show: only over the artifact it swept, opened the same way, once its
 * report names the same SHA-256 (the same bytes); else null.
 */
export function earlierSweepShown(
  kept: KeptSweep | null,
  source: JobSource | null | undefined,
  report: Report | null,
): KeptSweep | null {
  if (kept === null || !sweptSource(kept, source)) return null;
  return report?.artifact.sha256 === kept.artifact.sha256 ? kept : null;
}

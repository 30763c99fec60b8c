/**
 * Drift telemetry as an engine operation (`reprise drift`): drift rates per model version,
 * from replaying (read-only) the artifacts under the given paths that the kind offering
 * drift telemetry claims (TG replay manifests), or from a journal's records when a path is
 * an evidence journal, and the recalibration flags anchored in a journal.
 *
 * One replay is one observation however often it is given (a path twice, copies of one
 * manifest, a journal that recorded it, a replay recorded twice), and the governed window is
 * the last observations in time, not in the order the paths were given (countable).
 */
import type { Finding } from '../../shared/report.js';
import { MAX_WHOLE_FILE_BYTES, readRegularFile } from '../core/files.js';
import type { TrustStore } from '../core/keys.js';
import { epochMs, isRfc3339Utc } from '../core/time.js';
import { isJournalDir } from '../journal/layout.js';
import type { DriftObservation, DriftRate, FlagAnchor } from '../kinds/operations.js';
import { Sniffed } from '../kinds/sniff.js';
import type { EngineOptions } from '../kinds/types.js';
import { operationFor, operationOf } from './operations.js';
import { expandPaths, makeContext } from './run.js';

export interface DriftTelemetry {
  /** Artifacts replayed (journal directories count none). */
  manifests: number;
  /** Those counted: one per replay, in time order. */
  observations: DriftObservation[];
  /** Observations dropped as repeats of a replay already counted. */
  duplicates: number;
  rates: DriftRate[];
  /** Why an input counted nothing or less (a journal that does not verify, an entry refused, a replay that failed). */
  findings: Finding[];
}

/**
 * What an observation may carry beyond DriftObservation (a kind's, e.g. TG's): which replay
 * it is and when (RFC 3339 UTC). Without them it is its own replay, and the latest.
 */
type Observed = DriftObservation & { executionId?: unknown; manifestHash?: unknown; at?: unknown };

/** The findings a kind's drift operation gives with its observations (kinds/tg/drift.ts `withFindings`). */
const findingsOf = (list: readonly DriftObservation[]): Finding[] => (list as { findings?: Finding[] }).findings ?? [];

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The replay an observation is of: (claimRef, executionId, manifestHash). */
const replayKey = (o: Observed): string => JSON.stringify([o.claimRef, str(o.executionId), str(o.manifestHash)]);

/** When it was observed; unknown is the latest, so it never leaves the window first (fail-closed). */
const timeOf = (o: Observed): number => (isRfc3339Utc(o.at) ? epochMs(o.at) : Number.POSITIVE_INFINITY);

/**
 * One observation per replay, in time order (ties keep the order given). Repeats of a replay
 * merge into its first: it drifted if any copy says so (a copy never hides drift), at the
 * earliest time recorded (the manifest's creation, before any journal recorded its replay).
 */
export function countable(observations: readonly DriftObservation[]): {
  observations: DriftObservation[];
  duplicates: number;
} {
  const byReplay = new Map<string, Observed>();
  for (const o of observations as readonly Observed[]) {
    const k = replayKey(o);
    const seen = byReplay.get(k);
    if (!seen) byReplay.set(k, { ...o });
    else byReplay.set(k, { ...seen, drift: seen.drift || o.drift, at: timeOf(o) < timeOf(seen) ? o.at : seen.at });
  }
  const kept = [...byReplay.values()]
    .map((o, i) => ({ o, i, t: timeOf(o) }))
    .sort((a, b) => (a.t === b.t ? a.i - b.i : a.t < b.t ? -1 : 1))
    .map((x) => x.o);
  return { observations: kept, duplicates: observations.length - kept.length };
}

/** The observations under one path, and the findings of those that gave none (files no kind observes are skipped). */
async function observePath(p: string, options: EngineOptions, trust: TrustStore | null) {
  const drift = await operationFor('drift');
  if (await isJournalDir(p)) return { manifests: 0, lists: [await drift.fromJournal(p, trust)] };
  const lists: DriftObservation[][] = [];
  for (const path of await expandPaths([p])) {
    let bytes: Buffer;
    try {
      bytes = await readRegularFile(path, MAX_WHOLE_FILE_BYTES);
    } catch {
      continue;
    }
    const s = new Sniffed(path, bytes);
    const observed = await operationOf('drift', s);
    if (observed) lists.push(await observed.observe(s, makeContext(path, options)));
  }
  return { manifests: lists.length, lists };
}

/** Observations from every path, one per replay in time order, their rates, and the findings of inputs that counted less. */
export async function driftTelemetry(
  paths: readonly string[],
  options: EngineOptions,
  trust: TrustStore | null,
): Promise<DriftTelemetry> {
  let manifests = 0;
  const all: DriftObservation[] = [];
  const findings: Finding[] = [];
  for (const p of paths) {
    const r = await observePath(p, options, trust);
    manifests += r.manifests;
    for (const list of r.lists) {
      all.push(...list);
      findings.push(...findingsOf(list));
    }
  }
  const { observations, duplicates } = countable(all);
  const rates = (await operationFor('drift')).rates(observations);
  return { manifests, observations, duplicates, rates, findings };
}

/** Anchors each raised flag as a `recalibration-flag` entry; the entry of each model flagged. */
export async function anchorRecalibrationFlags(
  journal: string,
  key: string,
  trust: TrustStore | null,
  rates: readonly DriftRate[],
): Promise<Record<string, FlagAnchor>> {
  return (await operationFor('drift')).anchorFlags(journal, key, trust, rates);
}

/**
 * Drift telemetry as an engine operation (`reprise drift`): drift rates per model version,
 * from replaying (read-only) the artifacts under the given paths that the kind offering
 * drift telemetry claims (TG replay manifests), or from a journal's records when a path is
 * (or a folder holds) an evidence journal, and the recalibration flags anchored in a journal.
 *
 * One replay is one observation however often it is given (a path twice, copies of one
 * manifest, a journal that recorded it, a replay recorded twice), and the governed window is
 * the last observations in time, not in the order the paths were given (countable).
 *
 * Every input counts or says why not (docs/tg-replay.md, "What drift reads"): a file that
 * cannot be read refuses the run; content no kind claims fails it (RPR-KIND-001, as verify
 * says); a file of another kind is refused when named, and listed as skipped in a folder.
 */
import { exact, ExactDecimal, exactText } from '../../shared/exact-decimal.js';
import type { Finding } from '../../shared/report.js';
import { UsageError } from '../core/errors.js';
import { cannotOpen, MAX_WHOLE_FILE_BYTES, readRegularFile } from '../core/files.js';
import type { TrustStore } from '../core/keys.js';
import { isRfc3339Utc } from '../core/time.js';
import type { Checkpoint } from '../journal/format.js';
import { isJournalDir } from '../journal/layout.js';
import { compareTimestamps } from '../../shared/timestamps.js';
import type { DriftObservation, DriftRate, FlagAnchor } from '../kinds/operations.js';
import { KINDS } from '../kinds/registry.js';
import { Sniffed } from '../kinds/sniff.js';
import type { EngineOptions } from '../kinds/types.js';
import { operationFor, operationOf } from './operations.js';
import { expandPaths, makeContext, runBytes } from './run.js';

/** A journal as drift judged it: its size and root, and its latest signed checkpoint whole (null: none). */
export interface JudgedJournal {
  path: string;
  treeSize: number;
  root: string;
  checkpoint: Checkpoint | null;
}

/** A file in a folder that drift does not count: of another kind (named alone, it is refused). */
export interface SkippedInput {
  path: string;
  kind: string;
}

export interface DriftTelemetry {
  /** Artifacts replayed (journal directories count none). */
  manifests: number;
  /** Those counted: one per replay, in time order. */
  observations: DriftObservation[];
  /** Observations dropped as repeats of a replay already counted. */
  duplicates: number;
  rates: DriftRate[];
  /** Why an input counted nothing or less (a journal that does not verify, an entry refused, a replay that failed, content no kind claims). */
  findings: Finding[];
  /** The journals read, as judged (so the result can be checked against a checkpoint held later). */
  journals: JudgedJournal[];
  /** Files in a folder of a kind drift does not count. */
  skipped: SkippedInput[];
}

/**
 * What an observation may carry beyond DriftObservation (a kind's, e.g. TG's): which replay
 * it is and when (RFC 3339 UTC). Without them it is its own replay, and the latest.
 */
type Observed = DriftObservation & { executionId?: unknown; manifestHash?: unknown; at?: unknown };

/** What a kind's drift operation gives with its observations (kinds/tg/drift.ts `withFindings`). */
type Given = readonly DriftObservation[] & { findings?: Finding[]; journal?: JudgedJournal };

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The replay an observation is of: (claimRef, executionId, manifestHash). */
const replayKey = (o: Observed): string => JSON.stringify([o.claimRef, str(o.executionId), str(o.manifestHash)]);

/** Everything an observation says, to order two of the same time by content, never by the order given. */
const contentKey = (o: Observed): string =>
  JSON.stringify([replayKey(o), o.model, o.drift, o.driftRate.window, o.driftRate.maxRate]);

/**
 * Time order to the nanosecond the times carry (compareTimestamps; milliseconds would tie
 * 00.0009Z with 00.0001Z); an unknown time is the latest, so it never leaves the window first.
 */
function compareTimes(a: Observed, b: Observed): number {
  const ta = isRfc3339Utc(a.at) ? a.at : null;
  const tb = isRfc3339Utc(b.at) ? b.at : null;
  if (ta === null || tb === null) return ta === tb ? 0 : ta === null ? 1 : -1;
  return compareTimestamps(ta, tb);
}

const compareObserved = (a: Observed, b: Observed): number =>
  compareTimes(a, b) || byCodeUnits(contentKey(a), contentKey(b));

/**
 * One observation per replay, in time order (ties by content). Repeats of a replay merge
 * into their earliest copy (the manifest's creation, before any journal recorded its
 * replay): it drifted if any copy says so (a copy never hides drift).
 */
export function countable(observations: readonly DriftObservation[]): {
  observations: DriftObservation[];
  duplicates: number;
} {
  const byReplay = new Map<string, Observed[]>();
  for (const o of observations as readonly Observed[]) {
    const k = replayKey(o);
    const copies = byReplay.get(k);
    if (copies) copies.push(o);
    else byReplay.set(k, [o]);
  }
  const kept = [...byReplay.values()]
    .map((copies) => ({ ...copies.sort(compareObserved)[0]!, drift: copies.some((c) => c.drift) }))
    .sort(compareObserved);
  return { observations: kept, duplicates: observations.length - kept.length };
}

/** What one path gave: the lists of observations (each with its findings), and the files skipped. */
interface PathObservations {
  manifests: number;
  lists: Given[];
  skipped: SkippedInput[];
}

/** A file's bytes, or the refusal that names it (exit 3): an input that cannot be read is never passed over. */
async function bytesOf(path: string): Promise<Buffer> {
  try {
    return await readRegularFile(path, MAX_WHOLE_FILE_BYTES);
  } catch (e) {
    throw e instanceof UsageError ? e : cannotOpen(path, e);
  }
}

/** Content no kind claims: the RPR-KIND-001 finding verify gives it, naming the file. */
async function unclaimed(path: string, bytes: Buffer, options: EngineOptions): Promise<Finding[]> {
  const report = await runBytes(path, bytes, 'verify', options);
  return report.findings.map((f) => ({ ...f, message: `${path}: ${f.message}; not counted` }));
}

/** One file: its observations, or why it gives none (`named`: given as a PATH itself, not met in a folder). */
async function observeFile(
  path: string,
  named: boolean,
  options: EngineOptions,
  into: PathObservations,
): Promise<void> {
  const bytes = await bytesOf(path);
  const s = new Sniffed(path, bytes);
  const observed = await operationOf('drift', s);
  if (observed) {
    into.manifests++;
    into.lists.push(await observed.observe(s, makeContext(path, options)));
    return;
  }
  const kind = KINDS.find((k) => k.detect(s));
  if (!kind)
    into.lists.push(Object.assign([] as DriftObservation[], { findings: await unclaimed(path, bytes, options) }));
  else if (named)
    await operationFor('drift', s); // refuses, in the words of every kind that offers drift
  else into.skipped.push({ path, kind: kind.kind });
}

/** The observations under one path: a journal, or the files (and journals) a walk of it finds. */
async function observePath(p: string, options: EngineOptions, trust: TrustStore | null): Promise<PathObservations> {
  const drift = await operationFor('drift');
  const into: PathObservations = { manifests: 0, lists: [], skipped: [] };
  // A journal named is one input; its folder's other files are not walked.
  const paths = (await isJournalDir(p)) ? [p] : await expandPaths([p]);
  for (const path of paths) {
    if (await isJournalDir(path)) into.lists.push(await drift.fromJournal(path, trust));
    else await observeFile(path, path === p, options, into);
  }
  return into;
}

/** Observations from every path, one per replay in time order, their rates, and what each input did not count. */
export async function driftTelemetry(
  paths: readonly string[],
  options: EngineOptions,
  trust: TrustStore | null,
): Promise<DriftTelemetry> {
  const t: Omit<DriftTelemetry, 'observations' | 'duplicates' | 'rates'> = {
    manifests: 0,
    findings: [],
    journals: [],
    skipped: [],
  };
  const all: DriftObservation[] = [];
  for (const p of paths) {
    const r = await observePath(p, options, trust);
    t.manifests += r.manifests;
    t.skipped.push(...r.skipped);
    for (const list of r.lists) {
      all.push(...list);
      t.findings.push(...(list.findings ?? []));
      if (list.journal) t.journals.push(list.journal);
    }
  }
  const { observations, duplicates } = countable(all);
  const rates = (await operationFor('drift')).rates(observations);
  return { ...t, observations, duplicates, rates };
}

/**
 * drifted / inWindow as a decimal that stands where the rate stands against maxRate: rounded
 * to at least maxRate's own places (and 4), and to more while the rounding would read equal
 * to maxRate when the rate is not (1/3 against 0.3333333333333333 is 0.33333333333333333).
 */
export function rateText(drifted: number, inWindow: number, maxRate: number): string {
  const rate = new ExactDecimal(drifted).div(inWindow);
  const max = exact(maxRate);
  let places = Math.max(4, max.decimalPlaces());
  while (rate.toDecimalPlaces(places).cmp(max) !== rate.cmp(max)) places++;
  return rate.toFixed(places);
}

/** maxRate as the decimal it is written as, in plain digits (0.0000005, not 5e-7). */
export const maxRateText = (maxRate: number): string => exactText(exact(maxRate));

/** Anchors each raised flag as a `recalibration-flag` entry; the entry of each model flagged. */
export async function anchorRecalibrationFlags(
  journal: string,
  key: string,
  trust: TrustStore | null,
  rates: readonly DriftRate[],
): Promise<Record<string, FlagAnchor>> {
  return (await operationFor('drift')).anchorFlags(journal, key, trust, rates);
}

/**
 * Drift telemetry as an engine operation (`reprise drift`): drift rates per model version,
 * from replaying (read-only) the artifacts under the given paths that the kind offering
 * drift telemetry claims (TG replay manifests), or from a journal's records when a path is
 * an evidence journal, and the recalibration flags anchored in a journal.
 */
import { MAX_WHOLE_FILE_BYTES, readRegularFile } from '../core/files.js';
import type { TrustStore } from '../core/keys.js';
import { isJournalDir } from '../journal/layout.js';
import type { DriftObservation, DriftRate, FlagAnchor } from '../kinds/operations.js';
import { Sniffed } from '../kinds/sniff.js';
import type { EngineOptions } from '../kinds/types.js';
import { operationFor, operationOf } from './operations.js';
import { expandPaths, makeContext } from './run.js';

export interface DriftTelemetry {
  /** Artifacts replayed (journal directories count none). */
  manifests: number;
  observations: DriftObservation[];
  rates: DriftRate[];
}

/** Observations from every path (files that cannot be read or that no kind observes are skipped). */
export async function driftTelemetry(
  paths: readonly string[],
  options: EngineOptions,
  trust: TrustStore | null,
): Promise<DriftTelemetry> {
  const drift = await operationFor('drift');
  const observations: DriftObservation[] = [];
  let manifests = 0;
  for (const p of paths) {
    if (await isJournalDir(p)) {
      observations.push(...(await drift.fromJournal(p, trust)));
      continue;
    }
    for (const path of await expandPaths([p])) {
      let bytes: Buffer;
      try {
        bytes = await readRegularFile(path, MAX_WHOLE_FILE_BYTES);
      } catch {
        continue;
      }
      const s = new Sniffed(path, bytes);
      const observed = await operationOf('drift', s);
      if (!observed) continue;
      manifests++;
      observations.push(...(await observed.observe(s, makeContext(path, options))));
    }
  }
  return { manifests, observations, rates: drift.rates(observations) };
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

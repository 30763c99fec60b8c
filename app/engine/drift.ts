/**
 * Drift telemetry as an engine operation (`reprise drift`): drift rates per model version
 * over the bundles' windows, from replaying the TG manifests under the given paths
 * (read-only) or from a journal's replay-comparison entries when a path is an evidence
 * journal, and the recalibration flags anchored in a journal.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_WHOLE_FILE_BYTES, readRegularFile } from '../core/files.js';
import type { TrustStore } from '../core/keys.js';
import { Sniffed } from '../kinds/sniff.js';
import { tgManifestKind } from '../kinds/tg/declare.js';
import { openJournalPort } from '../kinds/tg/journal-adapter.js';
import { replayManifestFull } from '../kinds/tg/replay.js';
import { driftRates, type ModelDrift as DriftRate, type TelemetryObservation } from '../kinds/tg/telemetry.js';
import type { EngineOptions } from '../kinds/types.js';
import { expandPaths, makeContext } from './run.js';

export interface DriftTelemetry {
  /** TG manifests replayed (journal directories count none). */
  manifests: number;
  observations: TelemetryObservation[];
  rates: DriftRate[];
}

async function isJournalDir(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory() && (await stat(join(p, 'entries.jsonl'))).isFile();
  } catch {
    return false;
  }
}

function fromJournalBody(body: Record<string, unknown>, claimRef: string): TelemetryObservation[] {
  const dr = body['driftRate'] as { window?: unknown; maxRate?: unknown } | undefined;
  const banded = body['banded'];
  if (!dr || !Number.isSafeInteger(dr.window) || typeof dr.maxRate !== 'number' || !Array.isArray(banded)) return [];
  return banded
    .filter((b): b is { model: string; drift: boolean } => typeof b === 'object' && b !== null && typeof (b as { model?: unknown }).model === 'string' && typeof (b as { drift?: unknown }).drift === 'boolean')
    .map((b) => ({ model: b.model, drift: b.drift, driftRate: { window: dr.window as number, maxRate: dr.maxRate as number }, claimRef }));
}

/** Observations from every path (files that cannot be read or are no TG manifest are skipped). */
export async function driftTelemetry(paths: readonly string[], options: EngineOptions, trust: TrustStore | null): Promise<DriftTelemetry> {
  const observations: TelemetryObservation[] = [];
  let manifests = 0;
  for (const p of paths) {
    if (await isJournalDir(p)) {
      const port = openJournalPort(p, undefined, trust);
      for (const e of await port.entries()) if (e.kind === 'replay-comparison') observations.push(...fromJournalBody(e.body, e.claimRef));
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
      if (!tgManifestKind.detect(s)) continue;
      manifests++;
      const { journal: _j, key: _k, ...ro } = options;
      const outcome = await replayManifestFull(s, makeContext(path, ro), { anchor: false });
      observations.push(...outcome.observations);
    }
  }
  return { manifests, observations, rates: driftRates(observations) };
}

/** Anchors each raised flag as a `recalibration-flag` entry; the entry of each model flagged. */
export async function anchorRecalibrationFlags(journal: string, key: string, trust: TrustStore | null, rates: readonly DriftRate[]): Promise<Record<string, { seq: number; entryHash: string }>> {
  const anchors: Record<string, { seq: number; entryHash: string }> = Object.create(null) as Record<string, { seq: number; entryHash: string }>;
  const port = openJournalPort(journal, key, trust);
  for (const r of rates.filter((x) => x.flag)) {
    anchors[r.model] = await port.append('recalibration-flag', { claimRef: `model:${r.model}` }, { model: r.model, rate: r.rate, drifted: r.drifted, inWindow: r.inWindow, window: r.window, maxRate: r.maxRate, authority: 'TG-SG calibration authority' });
  }
  return anchors;
}

/**
 * Drift telemetry of TG replays (KindOperations.drift, `reprise drift`): the observations of
 * a manifest's read-only replay or of a journal's replay-comparison entries, the drift rate
 * per model version (telemetry.ts), and the recalibration flags anchored in a journal.
 */
import type { TrustStore } from '../../core/keys.js';
import type { DriftObservation, DriftOperations, DriftRate, FlagAnchor } from '../operations.js';
import type { Sniffed } from '../sniff.js';
import type { KindContext } from '../types.js';
import { openJournalPort } from './journal-adapter.js';
import { driftRates } from './telemetry.js';

function fromJournalBody(body: Record<string, unknown>, claimRef: string): DriftObservation[] {
  const dr = body['driftRate'] as { window?: unknown; maxRate?: unknown } | undefined;
  const banded = body['banded'];
  if (!dr || !Number.isSafeInteger(dr.window) || typeof dr.maxRate !== 'number' || !Array.isArray(banded)) return [];
  return banded
    .filter(
      (b): b is { model: string; drift: boolean } =>
        typeof b === 'object' &&
        b !== null &&
        typeof (b as { model?: unknown }).model === 'string' &&
        typeof (b as { drift?: unknown }).drift === 'boolean',
    )
    .map((b) => ({
      model: b.model,
      drift: b.drift,
      driftRate: { window: dr.window as number, maxRate: dr.maxRate as number },
      claimRef,
    }));
}

/**
 * Read-only: the replay neither reads judgements from nor appends to a journal. The checks
 * (decimal arithmetic, JsonLogic) load on first use, as the kind's jobs load them (index.ts).
 */
async function observe(s: Sniffed, ctx: KindContext): Promise<DriftObservation[]> {
  const { journal: _j, key: _k, ...ro } = ctx.options;
  const { replayManifestFull } = await import('./replay.js');
  return (await replayManifestFull(s, { ...ctx, options: ro }, { anchor: false })).observations;
}

async function fromJournal(dir: string, trust: TrustStore | null): Promise<DriftObservation[]> {
  const port = openJournalPort(dir, undefined, trust);
  return (await port.entries()).flatMap((e) =>
    e.kind === 'replay-comparison' ? fromJournalBody(e.body, e.claimRef) : [],
  );
}

async function anchorFlags(
  journal: string,
  key: string,
  trust: TrustStore | null,
  rates: readonly DriftRate[],
): Promise<Record<string, FlagAnchor>> {
  const anchors: Record<string, FlagAnchor> = Object.create(null) as Record<string, FlagAnchor>;
  const port = openJournalPort(journal, key, trust);
  for (const r of rates.filter((x) => x.flag)) {
    anchors[r.model] = await port.append(
      'recalibration-flag',
      { claimRef: `model:${r.model}` },
      {
        model: r.model,
        rate: r.rate,
        drifted: r.drifted,
        inWindow: r.inWindow,
        window: r.window,
        maxRate: r.maxRate,
        authority: 'TG-SG calibration authority',
      },
    );
  }
  return anchors;
}

export const tgDrift: DriftOperations = { observe, fromJournal, rates: driftRates, anchorFlags };

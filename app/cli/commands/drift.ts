/**
 * `reprise drift PATH`: drift rate per model version over the bundle's window, from
 * replaying the TG manifests under PATH (read-only), or from a journal's replay-comparison
 * entries when PATH is an evidence journal. Above driftRate.maxRate the model-recalibration
 * flag is raised; with --journal DIR --key KEY it is anchored as a `recalibration-flag`
 * entry. Exit 1 when a flag is raised, 0 otherwise.
 */
import { stat } from 'node:fs/promises';
import { MAX_WHOLE_FILE_BYTES, readRegularFile } from '../../core/files.js';
import { join } from 'node:path';
import { EXIT, type ExitCode } from '../../../shared/report.js';
import { expandPaths, makeContext } from '../../engine/run.js';
import { openJournalPort } from '../../kinds/tg/journal-adapter.js';
import { tgManifestKind } from '../../kinds/tg/index.js';
import { replayManifestFull } from '../../kinds/tg/replay.js';
import { driftRates, type TelemetryObservation } from '../../kinds/tg/telemetry.js';
import { Sniffed } from '../../kinds/sniff.js';
import { loadTrustStore } from '../../core/keys.js';
import { parse } from '../args.js';
import { safeText } from '../../engine/report-text.js';
import { CliUsageError, type CliIO, type Command } from '../io.js';
import { INFO } from './info.js';
import { engineOptions } from './check.js';

const usage = INFO.drift.usage;

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

export const driftCommand: Command = {
  ...INFO.drift,
  async run(args: string[], io: CliIO): Promise<ExitCode> {
    const { values, positionals } = parse(args, { journal: { type: 'string' }, key: { type: 'string' }, 'trust-store': { type: 'string' }, policy: { type: 'string' }, providers: { type: 'string' }, json: { type: 'boolean' } }, usage);
    if (positionals.length === 0) throw new CliUsageError(`no PATH given\nusage: ${usage}`);
    const options = engineOptions(values);
    const trust = typeof values['trust-store'] === 'string' ? await loadTrustStore(values['trust-store']) : null;
    const obs: TelemetryObservation[] = [];
    let manifests = 0;
    for (const p of positionals) {
      if (await isJournalDir(p)) {
        const port = openJournalPort(p, undefined, trust);
        for (const e of await port.entries()) if (e.kind === 'replay-comparison') obs.push(...fromJournalBody(e.body, e.claimRef));
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
        obs.push(...outcome.observations);
      }
    }
    const rates = driftRates(obs);
    const anchors: Record<string, { seq: number; entryHash: string }> = Object.create(null) as Record<string, { seq: number; entryHash: string }>;
    if (typeof values['journal'] === 'string' && rates.some((r) => r.flag)) {
      if (typeof values['key'] !== 'string') throw new CliUsageError('anchoring the recalibration flag needs --key KEYFILE with --journal');
      const port = openJournalPort(values['journal'], values['key'], trust);
      for (const r of rates.filter((x) => x.flag)) {
        anchors[r.model] = await port.append('recalibration-flag', { claimRef: `model:${r.model}` }, { model: r.model, rate: r.rate, drifted: r.drifted, inWindow: r.inWindow, window: r.window, maxRate: r.maxRate, authority: 'TG-SG calibration authority' });
      }
    }
    const models = rates.map((r) => ({ ...r, anchor: anchors[r.model] ?? null }));
    if (values['json']) io.out(JSON.stringify({ schema: 'reprise.drift-telemetry/v1', manifests, observations: obs.length, models }, null, 2) + '\n');
    else {
      io.out(`${obs.length} BANDED A replay(s)${manifests ? ` from ${manifests} manifest(s)` : ''}\n`);
      for (const m of models)
        io.out(`${m.flag ? 'FLAG' : 'ok  '}  ${safeText(m.model).padEnd(28)} drift ${m.drifted}/${m.inWindow} in window ${m.window} = ${m.rate.toFixed(4)} (max ${m.maxRate})${m.flag ? ' model-recalibration flag raised' : ''}${m.anchor ? ` anchored as entry ${m.anchor.seq}` : ''}\n`);
    }
    return models.some((m) => m.flag) ? EXIT.fail : EXIT.pass;
  },
};

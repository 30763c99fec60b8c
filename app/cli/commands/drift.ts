/**
 * `reprise drift PATH`: drift rate per model version over the bundle's window, from
 * replaying the TG manifests under PATH (read-only), or from a journal's replay-comparison
 * entries when PATH is an evidence journal. Above driftRate.maxRate the model-recalibration
 * flag is raised; with --journal DIR --key KEY it is anchored as a `recalibration-flag`
 * entry. Exit 1 when a flag is raised, 0 otherwise.
 */
import { EXIT, type ExitCode } from '../../../shared/report.js';
import { loadTrustStore } from '../../core/keys.js';
import { anchorRecalibrationFlags, driftTelemetry } from '../../engine/drift.js';
import { safeText } from '../../engine/report-text.js';
import { parse } from '../args.js';
import type { CliIO, Command } from '../io.js';
import { INFO } from './info.js';
import { engineOptions } from './check.js';
import { UsageError } from '../../core/errors.js';

const usage = INFO.drift.usage;

export const driftCommand: Command = {
  ...INFO.drift,
  async run(args: string[], io: CliIO): Promise<ExitCode> {
    const { values, positionals } = parse(
      args,
      {
        journal: { type: 'string' },
        key: { type: 'string' },
        'trust-store': { type: 'string' },
        policy: { type: 'string' },
        providers: { type: 'string' },
        json: { type: 'boolean' },
      },
      usage,
    );
    if (positionals.length === 0) throw new UsageError(`no PATH given\nusage: ${usage}`);
    const options = engineOptions(values);
    const trust = typeof values['trust-store'] === 'string' ? await loadTrustStore(values['trust-store']) : null;
    const { manifests, observations: obs, rates } = await driftTelemetry(positionals, options, trust);
    let anchors: Record<string, { seq: number; entryHash: string }> = Object.create(null) as Record<
      string,
      { seq: number; entryHash: string }
    >;
    if (typeof values['journal'] === 'string' && rates.some((r) => r.flag)) {
      if (typeof values['key'] !== 'string')
        throw new UsageError('anchoring the recalibration flag needs --key KEYFILE with --journal');
      anchors = await anchorRecalibrationFlags(values['journal'], values['key'], trust, rates);
    }
    const models = rates.map((r) => ({ ...r, anchor: anchors[r.model] ?? null }));
    if (values['json'])
      io.out(
        JSON.stringify({ schema: 'reprise.drift-telemetry/v1', manifests, observations: obs.length, models }, null, 2) +
          '\n',
      );
    else {
      io.out(`${obs.length} BANDED A replay(s)${manifests ? ` from ${manifests} manifest(s)` : ''}\n`);
      for (const m of models)
        io.out(
          `${m.flag ? 'FLAG' : 'ok  '}  ${safeText(m.model).padEnd(28)} drift ${m.drifted}/${m.inWindow} in window ${m.window} = ${m.rate.toFixed(4)} (max ${m.maxRate})${m.flag ? ' model-recalibration flag raised' : ''}${m.anchor ? ` anchored as entry ${m.anchor.seq}` : ''}\n`,
        );
    }
    return models.some((m) => m.flag) ? EXIT.fail : EXIT.pass;
  },
};

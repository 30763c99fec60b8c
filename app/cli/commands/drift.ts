/**
 * `reprise drift PATH`: drift rate per model version over the bundle's window, from
 * replaying the TG manifests under PATH (read-only), or from a journal's replay-comparison
 * entries when PATH is (or holds) an evidence journal (counted only when it verifies under
 * --trust-store). Above driftRate.maxRate the model-recalibration flag is raised; with
 * --journal DIR --key KEY --trust-store FILE it is anchored as a `recalibration-flag` entry
 * (once). Exit 1 when a flag is raised or an input failed (a replay that failed, a journal
 * that does not verify, an entry refused, content no kind claims), else 2 when an input could
 * not be checked, else 0; a file that cannot be read, or one of another kind named as PATH, is
 * exit 3. Each journal read is printed with the tree size and root it was judged at.
 */
import { EXIT, worstExit, type ExitCode, type Finding } from '../../../shared/report.js';
import { loadTrustStore, type TrustStore } from '../../core/keys.js';
import {
  anchorRecalibrationFlags,
  driftTelemetry,
  maxRateText,
  rateText,
  type DriftTelemetry,
  type JudgedJournal,
} from '../../engine/drift.js';
import { formatFinding, safeText } from '../../engine/report-text.js';
import { parse } from '../args.js';
import type { CliIO, Command } from '../io.js';
import { INFO } from './info.js';
import { engineOptions } from './check.js';
import { UsageError } from '../../core/errors.js';

const usage = INFO.drift.usage;

/** Where a flag is anchored; `alreadyAnchored` when the journal held the same flag, not written again. */
type Anchor = Awaited<ReturnType<typeof anchorRecalibrationFlags>>[string] & { alreadyAnchored?: boolean };
type Model = DriftTelemetry['rates'][number] & { anchor: Anchor | null };

/** The flags anchored, when --journal asks and a flag is raised: --key and --trust-store are needed first. */
async function anchored(
  values: Record<string, unknown>,
  trust: TrustStore | null,
  t: DriftTelemetry,
): Promise<Record<string, Anchor>> {
  const journal = values['journal'];
  // No prototype: a model named like an Object member is no anchor.
  if (typeof journal !== 'string' || !t.rates.some((r) => r.flag)) return Object.create(null) as Record<string, Anchor>;
  if (typeof values['key'] !== 'string')
    throw new UsageError('anchoring the recalibration flag needs --key KEYFILE with --journal');
  // The kind refuses it too; here no key is read and nothing is written without a store.
  if (trust === null)
    throw new UsageError(
      'anchoring the recalibration flag needs --trust-store FILE with --journal; nothing was written',
    );
  return anchorRecalibrationFlags(journal, values['key'], trust, t.rates);
}

/** A failing input fails the run and one that could not be checked leaves it unavailable, as a flag fails it. */
function exitOf(models: readonly Model[], findings: readonly Finding[]): ExitCode {
  const codes: ExitCode[] = findings.map((f) =>
    f.severity === 'fail' ? EXIT.fail : f.severity === 'unavailable' ? EXIT.unavailable : EXIT.pass,
  );
  return worstExit([...codes, models.some((m) => m.flag) ? EXIT.fail : EXIT.pass]);
}

function modelLine(m: Model): string {
  const anchor = m.anchor
    ? m.anchor.alreadyAnchored
      ? ` already anchored as entry ${m.anchor.seq} (not anchored again)`
      : ` anchored as entry ${m.anchor.seq}`
    : '';
  const rate = `${rateText(m.drifted, m.inWindow, m.maxRate)} (max ${maxRateText(m.maxRate)})`;
  return `${m.flag ? 'FLAG' : 'ok  '}  ${safeText(m.model).padEnd(28)} drift ${m.drifted}/${m.inWindow} in window ${m.window} = ${rate}${m.flag ? ' model-recalibration flag raised' : ''}${anchor}\n`;
}

/** The journal as judged: a reader holding a later checkpoint can check these entries were not cut off since. */
function journalLine(j: JudgedJournal): string {
  const cp = j.checkpoint
    ? `latest signed checkpoint: tree size ${j.checkpoint.treeSize}, root ${j.checkpoint.rootHash}, ${safeText(j.checkpoint.timestampUtc)}`
    : 'no signed checkpoint';
  return `journal ${safeText(j.path)} judged at tree size ${j.treeSize}, root ${j.root}; ${cp}\n`;
}

function printText(io: CliIO, t: DriftTelemetry, models: readonly Model[]): void {
  const dropped = t.duplicates > 0 ? `; ${t.duplicates} duplicate observation(s) of one replay dropped` : '';
  io.out(
    `${t.observations.length} BANDED A replay(s)${t.manifests ? ` from ${t.manifests} manifest(s)` : ''}${dropped}\n`,
  );
  for (const j of t.journals) io.out(journalLine(j));
  for (const x of t.skipped)
    io.out(`skipped ${safeText(x.path)}: of kind ${safeText(x.kind)}, which drift does not count\n`);
  for (const f of t.findings) io.out(`${formatFinding(f)}\n`);
  for (const m of models) io.out(modelLine(m));
}

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
    const t = await driftTelemetry(positionals, options, trust);
    const anchors = await anchored(values, trust, t);
    const models: Model[] = t.rates.map((r) => ({ ...r, anchor: anchors[r.model] ?? null }));
    if (values['json'])
      io.out(
        JSON.stringify(
          {
            schema: 'reprise.drift-telemetry/v1',
            manifests: t.manifests,
            observations: t.observations.length,
            duplicates: t.duplicates,
            findings: t.findings,
            journals: t.journals,
            skipped: t.skipped,
            models,
          },
          null,
          2,
        ) + '\n',
      );
    else printText(io, t, models);
    return exitOf(models, t.findings);
  },
};

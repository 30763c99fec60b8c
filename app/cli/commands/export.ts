/**
 * `reprise export PATH --journal DIR --out FILE`: the evidence bundle of one artifact
 * (docs/evidence-bundle.md): its report, every judgement the journal holds on it with its
 * inclusion proof, the latest signed checkpoint, and (--attestation) a TG replay's
 * attestation. PATH a case folder: the case bundle (export-case.ts). Nothing is written to the journal: the engine runs with the journal for
 * reading only (no --key). Exit 0 when written whole, 2 when written without a judgement it
 * cannot prove (exportExit); 3 with one line otherwise.
 */
import { REPORT_SCHEMA, VERDICT_RANK, type ExitCode, type Report, type Verdict } from '../../../shared/report.js';
import { checkOutputFile, readFailure, readRegularFile, writeOutputFile } from '../../core/files.js';
import { hashBytes, hashFile } from '../../core/hash.js';
import { loadTrustStore } from '../../core/keys.js';
import { runPath } from '../../engine/run.js';
import type { EngineOptions } from '../../kinds/types.js';
import { bundleFromJournal } from '../../engine/evidence.js';
import { safeText } from '../../core/text.js';
import { parse } from '../args.js';
import type { CliIO, Command } from '../io.js';
import { checkFlags } from './check.js';
import { INFO } from './info.js';
import { readJsonFile } from './journal.js';
import { UsageError } from '../../core/errors.js';
import { stat } from 'node:fs/promises';
import { isJournalDir } from '../../journal/layout.js';
import { exportCase, exportEngineOptions, exportExit, sayOmitted } from './export-case.js';
import { optionReads, refuseWritesOn } from './outputs-on-inputs.js';

const USAGE = INFO.export.usage;

const { json: _j, jsonl: _l, workers: _w, 'what-if': _wi, out: _o, key: _k, quiet: _q, ...ENGINE_FLAGS } = checkFlags();
const FLAGS = {
  ...ENGINE_FLAGS,
  out: { type: 'string' },
  replay: { type: 'boolean' },
  report: { type: 'string' },
  attestation: { type: 'string' },
  json: { type: 'boolean' },
  // A case folder's artifacts are verified in this many threads (export-case.ts).
  workers: { type: 'string' },
} as const;

/**
 * Refuses `--out` on anything export reads: the artifact (`path`; a case folder refuses
 * what lands in it itself, export-case.ts), a file an engine option names, the journal or a
 * file in it, `--report`, `--attestation`.
 */
async function refuseOutOnReads(out: string, path: string | null, values: Record<string, unknown>): Promise<void> {
  const own = (['report', 'attestation'] as const).flatMap((f) => {
    const v = values[f];
    return typeof v === 'string' ? [{ path: v, named: `the --${f} file` }] : [];
  });
  const artifact = path === null ? [] : [{ path, named: 'the artifact being exported' }];
  await refuseWritesOn([['--out', out]], [...artifact, ...optionReads(values), ...own]);
}

/** The judged report: `--report FILE` (checked to be about PATH), else the engine's report of PATH now. */
async function reportOf(path: string, values: Record<string, unknown>): Promise<Report> {
  const { key: _key, out: _out, ...options } = exportEngineOptions(values);
  if (typeof values['report'] !== 'string')
    return runPath(path, values['replay'] === true ? 'replay' : 'verify', options);
  const r = (await readJsonFile(values['report'], 'report')) as Report;
  if (
    typeof r !== 'object' ||
    r === null ||
    r.schema !== REPORT_SCHEMA ||
    typeof r.artifact !== 'object' ||
    r.artifact === null
  )
    throw new UsageError(`--report ${values['report']} is not a ${REPORT_SCHEMA} report`);
  const sha = await hashFile(path).catch((e: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${path}: ${e.code ?? 'error'}`, 'path');
  });
  if (r.artifact.sha256 !== sha)
    throw new UsageError(`--report ${values['report']} is about ${String(r.artifact.sha256)}, not ${path} (${sha})`);
  await refuseUnlessGiven(values['report'], path, options, r);
  return r;
}

/**
 * The checks of `reprise verify REPORT --artifact PATH` (the report kind) that a report to
 * bundle must pass: its form, its verdict the one its findings make (RPR-RPT-001, 002, 004),
 * and never a better verdict than the artifact gives again. A bundle's verifier holds no
 * artifact to run, so a report edited before export (its failing findings removed, its
 * verdict made PASS) would otherwise be laundered into a bundle that verifies. A report that
 * differs from the artifact's again otherwise is bundled, as `--report` is for: a TG replay
 * that anchored its drift in a journal as it ran names entries a second replay does not
 * write again (RPR-RPT-005 says so); a report that honestly FAILS is bundled as it is.
 */
const REFUSED_REPORT_RULES: ReadonlySet<string> = new Set(['RPR-RPT-001', 'RPR-RPT-002', 'RPR-RPT-004']);

async function refuseUnlessGiven(file: string, path: string, options: EngineOptions, saved: Report): Promise<void> {
  const checked = await runPath(file, 'verify', { ...options, artifact: path });
  const say = (why: string): never => {
    throw new UsageError(
      `--report ${file} is not a report ${path} gives: ${why} ('reprise verify ${file} --artifact ${path}' says more)`,
    );
  };
  if (checked.artifact.kind !== 'reprise-report') say(`it is read as ${checked.artifact.kind}`);
  const wrong = checked.findings.find((f) => f.severity === 'fail' && REFUSED_REPORT_RULES.has(f.rule));
  if (wrong) say(`${wrong.rule}: ${wrong.message}`);
  const again = (checked.details?.['rerun'] as { verdict?: Verdict | null } | null | undefined)?.verdict;
  if (again !== undefined && again !== null && VERDICT_RANK[saved.verdict] < VERDICT_RANK[again])
    say(
      `its verdict is ${saved.verdict.toUpperCase()}, the artifact gives ${again.toUpperCase()} again (give export the engine options the report was made with)`,
    );
}

const isDirectory = (p: string): Promise<boolean> =>
  stat(p).then(
    (st) => st.isDirectory(),
    () => false,
  );

async function attestationOf(v: unknown): Promise<Buffer | null> {
  if (typeof v !== 'string') return null;
  return readRegularFile(v).catch((e: unknown) => {
    throw new UsageError(`cannot read --attestation ${v}: ${readFailure(e)}`, 'path');
  });
}

export const exportCommand: Command = {
  ...INFO.export,
  async run(args: string[], io: CliIO): Promise<ExitCode> {
    const { values, positionals } = parse(args, FLAGS, USAGE);
    if (positionals.length !== 1) throw new UsageError(`export takes exactly one PATH\nusage: ${USAGE}`);
    const path = positionals[0]!;
    const journal = values['journal'];
    const out = values['out'];
    if (typeof journal !== 'string' || journal === '')
      throw new UsageError(`--journal DIR (the journal holding the judgements) is required\nusage: ${USAGE}`);
    if (typeof out !== 'string' || out === '') throw new UsageError(`--out FILE is required\nusage: ${USAGE}`);
    // A folder that is no journal is a case: one bundle of every artifact in it (export-case.ts).
    const asCase = (await isDirectory(path)) && !(await isJournalDir(path));
    await refuseOutOnReads(out, asCase ? null : path, values);
    await checkOutputFile(out, '--out');
    const trust = typeof values['trust-store'] === 'string' ? await loadTrustStore(values['trust-store']) : null;
    if (asCase) return exportCase({ dir: path, journal, out, trust, values }, io);
    if (values['workers'] !== undefined)
      throw new UsageError('--workers is for a case folder; one artifact is verified on this thread');
    const report = await reportOf(path, values);
    if (report.artifact.kind === 'journal' || report.artifact.sha256 === null)
      throw new UsageError(
        `${path} is a ${report.artifact.kind}, not an artifact file with a SHA-256: nothing to export judgements on`,
      );
    const attestation = await attestationOf(values['attestation']);
    // The bundle must be one `verify` reads under the same --limit (maxEntries: its member count).
    const b = await bundleFromJournal(journal, report, trust, attestation, exportEngineOptions(values).limits);
    await writeOutputFile(out, b.bytes);
    sayOmitted(io, b.omitted);
    const summary = {
      out,
      sha256: hashBytes(b.bytes),
      artifact: report.artifact.sha256,
      reportDigest: b.reportDigest,
      judgements: b.judgements.map((j) => ({ seq: j.seq, decision: j.decision, pointer: j.pointer, author: j.author })),
      omitted: b.omitted.map(({ line: _line, ...o }) => o),
      checkpoint: { treeSize: b.checkpoint.treeSize, rootHash: b.checkpoint.rootHash },
    };
    if (values['json']) io.out(JSON.stringify(summary, null, 2) + '\n');
    else
      io.out(
        `evidence bundle ${safeText(out)} (${summary.sha256})\n  artifact ${summary.artifact}, report digest ${b.reportDigest}\n  ${b.judgements.length} judgement(s), proven under checkpoint tree ${b.checkpoint.treeSize} root ${b.checkpoint.rootHash}\n  check it: reprise verify ${safeText(out)} --trust-store FILE\n`,
      );
    return exportExit(b.omitted, []);
  },
};

/**
 * `reprise attest MANIFEST --key KEY [--out FILE]`: replay a TG manifest (read-only: no
 * journal writes) and export an in-toto Statement v1 in a DSSE envelope signed with the
 * reviewer's key. `reprise attest --verify FILE --trust-store FILE [--manifest FILE]`
 * checks one. The exit code is the replay verdict's (creation) or the check's (verify).
 */
import { writeFile } from 'node:fs/promises';
import { MAX_WHOLE_FILE_BYTES, readFailure, readRegularFile } from '../../core/files.js';
import { EXIT, exitOfVerdict, verdictOf, type ExitCode, type Finding, type Verdict } from '../../../shared/report.js';
import { IN_TOTO_PAYLOAD_TYPE, signEnvelope } from '../../attest/dsse.js';
import { buildStatement } from '../../attest/statement.js';
import { verifyAttestation } from '../../attest/verify.js';
import { fail } from '../../core/findings.js';
import { hashValue, sha256Hex } from '../../core/hash.js';
import { canonicalizeValue } from '../../core/jcs.js';
import { loadSigner, loadTrustStore } from '../../core/keys.js';
import { makeContext } from '../../engine/run.js';
import { tgManifestKind } from '../../kinds/tg/index.js';
import { replayManifestFull } from '../../kinds/tg/replay.js';
import { Sniffed } from '../../kinds/sniff.js';
import { parse } from '../args.js';
import { safeText } from '../../engine/report-text.js';
import { CliUsageError, type CliIO, type Command } from '../io.js';
import { INFO } from './info.js';
import { engineOptions } from './check.js';

const usage = INFO.attest.usage;

async function read(path: string, what: string): Promise<Buffer> {
  try {
    return await readRegularFile(path, MAX_WHOLE_FILE_BYTES);
  } catch (e) {
    throw new CliUsageError(`cannot read ${what} ${path}: ${readFailure(e)}`);
  }
}

function printFindings(io: CliIO, title: string, verdict: Verdict, findings: Finding[]): void {
  io.out(`${verdict.toUpperCase().padEnd(11)} ${safeText(title)}\n`);
  for (const f of findings) {
    io.out(safeText(`  ${f.severity.padEnd(11)} ${f.rule}  ${f.message}${f.pointer ? `  [${f.pointer}]` : ''}`) + '\n');
    if (f.expected !== undefined) io.out(`              expected ${typeof f.expected === 'string' ? f.expected : JSON.stringify(f.expected)}\n`);
    if (f.actual !== undefined) io.out(`              actual   ${typeof f.actual === 'string' ? f.actual : JSON.stringify(f.actual)}\n`);
  }
}

export const attestCommand: Command = {
  ...INFO.attest,
  async run(args: string[], io: CliIO): Promise<ExitCode> {
    const { values, positionals } = parse(
      args,
      { key: { type: 'string' }, out: { type: 'string' }, verify: { type: 'string' }, manifest: { type: 'string' }, 'trust-store': { type: 'string' }, policy: { type: 'string' }, providers: { type: 'string' }, journal: { type: 'string' }, json: { type: 'boolean' } },
      usage,
    );
    if (typeof values['verify'] === 'string') {
      if (positionals.length > 0) throw new CliUsageError(`--verify takes the envelope file; unexpected ${positionals[0]}\nusage: ${usage}`);
      const bytes = await read(values['verify'], 'attestation');
      const trust = typeof values['trust-store'] === 'string' ? await loadTrustStore(values['trust-store']) : null;
      const check = verifyAttestation(bytes, trust);
      if (typeof values['manifest'] === 'string' && check.statement) {
        const want = sha256Hex(await read(values['manifest'], 'manifest'));
        const subj = (check.statement['subject'] as { digest?: { sha256?: string } }[] | undefined)?.[0]?.digest?.sha256;
        if (subj !== want) check.findings.push(fail('RPR-ATTEST-009', 'the attestation is not about this manifest', { pointer: '/subject/0/digest/sha256', expected: want, actual: subj ?? null }));
      }
      const verdict = verdictOf(check.findings);
      if (values['json']) io.out(JSON.stringify({ schema: 'reprise.attestation-check/v1', path: values['verify'], verdict, keyId: check.keyId, findings: check.findings, statement: check.statement }, null, 2) + '\n');
      else printFindings(io, `${values['verify']}  (attestation${check.keyId ? ` signed by ${check.keyId}` : ''})`, verdict, check.findings);
      return exitOfVerdict(verdict);
    }
    if (positionals.length !== 1) throw new CliUsageError(`attest takes exactly one MANIFEST\nusage: ${usage}`);
    if (typeof values['key'] !== 'string') throw new CliUsageError(`--key KEYFILE (the reviewer's key) is required\nusage: ${usage}`);
    const path = positionals[0]!;
    const bytes = await read(path, 'manifest');
    const s = new Sniffed(path, bytes);
    if (!tgManifestKind.detect(s)) throw new CliUsageError(`${path} is not a TG replay manifest (comp.TG.OUTPUT.REPLAY-MANIFEST.v1_0)`);
    const signer = await loadSigner(values['key']);
    const { key: _key, out: _out, ...options } = engineOptions(values);
    const outcome = await replayManifestFull(s, makeContext(path, options), { anchor: false });
    const verdict = verdictOf(outcome.result.findings);
    if (!outcome.comparison || !outcome.manifest || !outcome.bundle || !outcome.manifestHash) {
      printFindings(io, `${path}  (cannot be attested: the manifest could not be replayed)`, verdict, outcome.result.findings);
      return verdict === 'pass' ? EXIT.fail : exitOfVerdict(verdict);
    }
    const statement = buildStatement({
      manifestBytes: bytes,
      manifest: outcome.manifest,
      manifestHash: outcome.manifestHash,
      bundle: outcome.bundle,
      bundleHash: (outcome.comparison['policyContext'] as { bundleHash: string }).bundleHash,
      comparison: outcome.comparison,
      comparisonHash: hashValue(outcome.comparison),
      comparisons: outcome.result.comparisons ?? [],
      verdict,
      reviewer: signer.keyId,
    });
    const envelope = signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(canonicalizeValue(statement), 'utf8'), signer);
    const text = canonicalizeValue(envelope) + '\n';
    if (typeof values['out'] === 'string') {
      try {
        await writeFile(values['out'], text);
      } catch (e) {
        throw new CliUsageError(`cannot write ${values['out']}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
      }
      io.err(safeText(`attestation of ${path} (replay verdict ${verdict}) signed by ${signer.keyId}, written to ${values['out']}`) + '\n');
    } else io.out(text);
    return exitOfVerdict(verdict);
  },
};

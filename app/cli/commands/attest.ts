/**
 * `reprise attest MANIFEST --key KEY [--out FILE]`: replay a TG manifest (read-only: no
 * journal writes) and export an in-toto Statement v1 in a DSSE envelope signed with the
 * reviewer's key. `reprise attest --verify FILE --trust-store FILE [--manifest FILE]`
 * checks one. The exit code is the replay verdict's (creation) or the check's (verify).
 */
import {
  checkOutputFile,
  MAX_WHOLE_FILE_BYTES,
  readFailure,
  readRegularFile,
  writeOutputFile,
} from '../../core/files.js';
import { EXIT, exitOfVerdict } from '../../../shared/report.js';
import type { ExitCode } from '../../../shared/report.js';
import { loadTrustStore } from '../../core/keys.js';
import { attestManifest, checkAttestation } from '../../engine/attest.js';
import { formatAttestationText, safeText } from '../../engine/report-text.js';
import { parse } from '../args.js';
import type { CliIO, Command } from '../io.js';
import { INFO } from './info.js';
import { engineOptions } from './check.js';
import { optionReads, refuseWritesOn } from './outputs-on-inputs.js';
import { UsageError } from '../../core/errors.js';

const usage = INFO.attest.usage;

async function read(path: string, what: string): Promise<Buffer> {
  try {
    return await readRegularFile(path, MAX_WHOLE_FILE_BYTES);
  } catch (e) {
    throw new UsageError(`cannot read ${what} ${path}: ${readFailure(e)}`, 'path');
  }
}

/** "signed by" only for a signature that verified with the trust store's key; else what the envelope claims. */
function signerWords(check: { keyId: string | null; signatureVerified: boolean }): string {
  if (check.keyId === null) return '';
  return check.signatureVerified ? ` signed by ${check.keyId}` : ` naming key ${check.keyId}, signature not verified`;
}

export const attestCommand: Command = {
  ...INFO.attest,
  async run(args: string[], io: CliIO): Promise<ExitCode> {
    const { values, positionals } = parse(
      args,
      {
        key: { type: 'string' },
        out: { type: 'string' },
        verify: { type: 'string' },
        manifest: { type: 'string' },
        'trust-store': { type: 'string' },
        policy: { type: 'string' },
        providers: { type: 'string' },
        journal: { type: 'string' },
        json: { type: 'boolean' },
      },
      usage,
    );
    if (typeof values['verify'] === 'string') {
      if (positionals.length > 0)
        throw new UsageError(`--verify takes the envelope file; unexpected ${positionals[0]}\nusage: ${usage}`);
      const bytes = await read(values['verify'], 'attestation');
      const trust = typeof values['trust-store'] === 'string' ? await loadTrustStore(values['trust-store']) : null;
      const manifest = values['manifest'];
      const check = await checkAttestation(
        bytes,
        trust,
        typeof manifest === 'string' ? () => read(manifest, 'manifest') : undefined,
      );
      const { verdict } = check;
      if (values['json'])
        io.out(
          JSON.stringify(
            {
              schema: 'reprise.attestation-check/v1',
              path: values['verify'],
              verdict,
              keyId: check.keyId,
              signatureVerified: check.signatureVerified,
              findings: check.findings,
              statement: check.statement,
            },
            null,
            2,
          ) + '\n',
        );
      else
        io.out(
          formatAttestationText(`${values['verify']}  (attestation${signerWords(check)})`, verdict, check.findings),
        );
      return exitOfVerdict(verdict);
    }
    if (positionals.length !== 1) throw new UsageError(`attest takes exactly one MANIFEST\nusage: ${usage}`);
    if (typeof values['key'] !== 'string')
      throw new UsageError(`--key KEYFILE (the reviewer's key) is required\nusage: ${usage}`);
    const path = positionals[0]!;
    if (typeof values['out'] === 'string') {
      await checkOutputFile(values['out'], '--out');
      const manifest = { path, named: 'the manifest being attested' };
      await refuseWritesOn([['--out', values['out']]], [manifest, ...optionReads(values)]);
    }
    const a = await attestManifest(path, values['key'], () => {
      // Read-only: the journal is read, never created (no anchors are written).
      const { key: _key, out: _out, ...options } = engineOptions(values, false);
      return options;
    });
    if (!a.attested) {
      io.out(
        formatAttestationText(
          `${path}  (cannot be attested: the manifest could not be replayed)`,
          a.verdict,
          a.findings,
        ),
      );
      return a.verdict === 'pass' ? EXIT.fail : exitOfVerdict(a.verdict);
    }
    const { verdict, envelope: text } = a;
    if (typeof values['out'] === 'string') {
      await writeOutputFile(values['out'], text);
      io.err(
        safeText(
          `attestation of ${path} (replay verdict ${verdict}) signed by ${a.keyId}, written to ${values['out']}`,
        ) + '\n',
      );
    } else io.bytes(text);
    return exitOfVerdict(verdict);
  },
};

/**
 * `reprise journal cosign DIR --key WITNESS.pem --name NAME --trust-store FILE [--state FILE]`:
 * a witness cosigns the journal's latest checkpoint (C2SP tlog-cosignature/v1) after checking
 * that it extends the last checkpoint this witness cosigned (app/journal/witness.ts). What
 * the witness cosigned is remembered in its own state file (default: beside its key,
 * `WITNESS.pem.witness-state.json`), apart from the journal, as C2SP witnesses keep it, under
 * the state's lock and before the signature is given (app/journal/witness-state.ts). Prints the
 * cosigned note; exits 0 (also when this witness had already cosigned the checkpoint: no line is
 * added to the journal then), 1 when the cosignature is refused, 3 on a usage or I/O error (a
 * state that cannot be written or stays locked among them: nothing is cosigned then).
 */
import { EXIT, type ExitCode } from '../../../shared/report.js';
import { UsageError } from '../../core/errors.js';
import { loadSigner, loadTrustStore } from '../../core/keys.js';
import { JournalError } from '../../journal/errors.js';
import { isValidKeyName } from '../../journal/note.js';
import { cosignJournal, type CosignResult } from '../../journal/witness.js';
import { withWitnessState } from '../../journal/witness-state.js';
import { parse } from '../args.js';
import type { CliIO } from '../io.js';
import { formatError } from '../output.js';

export async function cosignCmd(args: string[], io: CliIO): Promise<ExitCode> {
  const usage = 'reprise journal cosign DIR --key WITNESS.pem --name NAME --trust-store FILE [--state FILE] [--json]';
  const { values, positionals } = parse(
    args,
    {
      key: { type: 'string' },
      name: { type: 'string' },
      'trust-store': { type: 'string' },
      state: { type: 'string' },
      json: { type: 'boolean' },
    },
    usage,
  );
  if (positionals.length !== 1) throw new UsageError(`journal cosign takes one DIR\nusage: ${usage}`);
  const need = (k: 'key' | 'name' | 'trust-store'): string => {
    const v = values[k];
    if (typeof v !== 'string' || v === '') throw new UsageError(`--${k} is required\nusage: ${usage}`);
    return v;
  };
  const name = need('name');
  if (!isValidKeyName(name))
    throw new UsageError('--name is the witness key name: no spaces, no "+", no control characters');
  const trust = await loadTrustStore(need('trust-store'));
  const signer = await loadSigner(need('key'));
  const statePath = typeof values['state'] === 'string' ? values['state'] : `${need('key')}.witness-state.json`;
  let r;
  try {
    r = await withWitnessState(statePath, (memory) =>
      cosignJournal(positionals[0]!, name, signer, trust, Math.floor(Date.now() / 1000), memory),
    );
  } catch (e) {
    if (e instanceof JournalError && (e.code === 'REFUSED' || e.code === 'UNVERIFIED')) {
      io.err(formatError(e.message));
      return EXIT.fail;
    }
    throw e;
  }
  const { cosignature: c } = r;
  if (values['json'])
    io.out(
      JSON.stringify(
        {
          witness: c.witness,
          treeSize: c.treeSize,
          rootHash: c.rootHash,
          extends: r.extended,
          alreadyCosigned: r.already,
          note: r.note,
        },
        null,
        2,
      ) + '\n',
    );
  else io.out(`${cosignedLine(r)}\n\n${r.note}`);
  return EXIT.pass;
}

/** What the witness did, in one line: a new cosignature (and what it extends), or none because its line is there. */
function cosignedLine(r: CosignResult): string {
  const c = r.cosignature;
  if (r.already)
    return `${c.witness} already cosigned tree ${c.treeSize} (${c.rootHash}): no line was added to the journal (a witness counts once per checkpoint)`;
  return `${c.witness} cosigned tree ${c.treeSize} (${c.rootHash})${r.extended !== null ? `, consistent with tree ${r.extended} it cosigned before` : ''}`;
}

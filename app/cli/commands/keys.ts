/** `reprise keys generate --out FILE --role ROLE`: an Ed25519 key for a reviewer, officer or trainer. */
import { EXIT, type ExitCode } from '../../../shared/report.js';
import {
  addToTrustStore,
  generateSigner,
  ROLES,
  trustStoreEntry,
  writePrivateKey,
  type Role,
} from '../../core/keys.js';
import { safeText } from '../../core/text.js';
import { parse } from '../args.js';
import type { CliIO, Command } from '../io.js';
import { INFO } from './info.js';
import { UsageError } from '../../core/errors.js';

const usage = INFO.keys.usage;

export const keysCommand: Command = {
  ...INFO.keys,
  async run(args: string[], io: CliIO): Promise<ExitCode> {
    const [sub, ...rest] = args;
    if (sub !== 'generate')
      throw new UsageError(
        `unknown keys subcommand ${sub === undefined ? '(none)' : JSON.stringify(sub)}\nusage: ${usage}`,
      );
    const { values, positionals } = parse(
      rest,
      {
        out: { type: 'string' },
        role: { type: 'string' },
        label: { type: 'string' },
        'trust-store': { type: 'string' },
        json: { type: 'boolean' },
      },
      usage,
    );
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}\nusage: ${usage}`);
    const out = values['out'];
    const role = values['role'];
    if (typeof out !== 'string') throw new UsageError(`--out FILE is required\nusage: ${usage}`);
    if (typeof role !== 'string' || !ROLES.includes(role as Role))
      throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
    const signer = generateSigner();
    await writePrivateKey(out, signer);
    const entry = trustStoreEntry(
      signer,
      role as Role,
      typeof values['label'] === 'string' ? values['label'] : `${role} key ${out}`,
    );
    if (typeof values['trust-store'] === 'string') await addToTrustStore(values['trust-store'], entry);
    if (values['json']) io.out(JSON.stringify(entry) + '\n');
    else {
      io.out(`${signer.keyId}\n`);
      io.err(
        safeText(
          `private key written to ${out} (mode 0600); role ${role}${typeof values['trust-store'] === 'string' ? `; added to ${values['trust-store']}` : ''}`,
        ) + '\n',
      );
    }
    return EXIT.pass;
  },
};

/** `reprise keys generate --out FILE --role ROLE`: an Ed25519 key for a reviewer, officer or trainer. */
import { EXIT, type ExitCode } from '../../../shared/report.js';
import {
  addToTrustStore,
  generateSigner,
  ROLES,
  trustStoreEntry,
  writePrivateKey,
  type Role,
  type TrustStoreEntry,
} from '../../core/keys.js';
import { rm, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { checkOutputFile, isMissing, readFailure } from '../../core/files.js';
import { refuseWritesOn } from './outputs-on-inputs.js';
import { safeText } from '../../core/text.js';
import { parse } from '../args.js';
import type { CliIO, Command } from '../io.js';
import { INFO } from './info.js';
import { UsageError } from '../../core/errors.js';

const usage = INFO.keys.usage;

/**
 * Refuses, before a key is made, a trust store that cannot be written: a key written first
 * would be left behind, a private key nobody's store lists.
 */
async function checkStoreTarget(store: string, out: string): Promise<void> {
  if (store === '') throw new UsageError('--trust-store needs a file name');
  await refuseWritesOn([['--out', out]], [{ path: store, named: 'the --trust-store file' }]);
  const folder = await stat(dirname(resolve(store))).catch((e: unknown) => (isMissing(e) ? null : undefined));
  if (folder === null) throw new UsageError(`cannot write --trust-store ${store}: its folder does not exist`, 'path');
  try {
    await checkOutputFile(store, '--trust-store');
  } catch (e) {
    throw new UsageError(`cannot write --trust-store ${store}: ${readFailure(e)}`, 'path');
  }
}

/** Adds the key's entry to the store; when that fails (a store that is not one), the new key file is removed. */
async function addOrRemoveKey(store: string, entry: TrustStoreEntry, out: string): Promise<void> {
  try {
    await addToTrustStore(store, entry);
  } catch (e) {
    await rm(out, { force: true });
    const why = e instanceof UsageError ? e.message : `cannot write --trust-store ${store}: ${readFailure(e)}`;
    throw new UsageError(`${why} (the new key ${out} was removed)`, e instanceof UsageError ? e.usageCode : 'path');
  }
}

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
    const store = values['trust-store'];
    if (typeof store === 'string') await checkStoreTarget(store, out);
    const signer = generateSigner();
    await writePrivateKey(out, signer);
    const entry = trustStoreEntry(
      signer,
      role as Role,
      typeof values['label'] === 'string' ? values['label'] : `${role} key ${out}`,
    );
    if (typeof store === 'string') await addOrRemoveKey(store, entry, out);
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

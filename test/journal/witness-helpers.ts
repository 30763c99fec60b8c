/**
 * The set-up the witness and `verify --since` tests share: a journal with keys and a trust store
 * (helpers.ts makeKeys), a witness with its key file and a policy, `journal cosign` and
 * `journal verify` run through the in-process CLI (test/cli/in-process.ts), and a held
 * checkpoint written where `--since` or `--checkpoint` reads it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSigner, rawPublicKey, type Signer } from '../../app/core/keys.js';
import { appendEntry } from '../../app/journal/index.js';
import type { Finding } from '../../shared/report.js';
import { cliIn, type InProcessResult } from '../cli/in-process.js';
import { makeKeys, tmp, type Keys } from './helpers.js';

/** The rule of the witness quorum's findings. */
const QUORUM_RULE = 'RPR-JOURNAL-044';

export interface Journal {
  /** The temporary folder: keys, trust store, policy and held files, and the CLI's working folder. */
  base: string;
  /** The journal, `base/J`. */
  dir: string;
  keys: Keys;
  /** Adds `count` `replay-drift` entries by the reviewer, numbered on from the last one added. */
  append(count: number): Promise<void>;
}

/** A new temporary folder (its name begins with `prefix`) holding keys, a trust store and a journal of `entries` entries. */
export async function journalWithKeys(prefix: string, entries = 0): Promise<Journal> {
  const base = tmp(prefix);
  const keys = makeKeys(base);
  const dir = join(base, 'J');
  let n = 0;
  const append = async (count: number) => {
    for (let i = 0; i < count; i++, n++)
      await appendEntry(
        dir,
        { kind: 'replay-drift', subject: { claimRef: `claim:${n}` }, body: { x: n } },
        keys.reviewer,
        { trustStore: keys.trust, fsync: false },
      );
  };
  await append(entries);
  return { base, dir, keys, append };
}

/** The lines of the journal's file `name` (split on newlines, so a final newline gives a last empty line). */
export function journalLines(dir: string, name: string): string[] {
  return readFileSync(join(dir, name), 'utf8').split('\n');
}

/** The journal's origin: the first line of its first signed note (notes.jsonl). */
export function journalOrigin(dir: string): string {
  return (JSON.parse(journalLines(dir, 'notes.jsonl')[0]!) as string).split('\n')[0]!;
}

export interface Witness {
  name: string;
  signer: Signer;
  /** Its private key, `base/NAME.pem`. */
  pem: string;
  /** Its policy line: `witness NAME HEX`. */
  line: string;
}

/** A witness with a new key, its private key written to `base/NAME.pem`. */
export function newWitness(base: string, name = 'w1'): Witness {
  const signer = generateSigner();
  const pem = join(base, `${name}.pem`);
  writeFileSync(pem, signer.privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  return { name, signer, pem, line: `witness ${name} ${rawPublicKey(signer.publicKey).toString('hex')}` };
}

/** A witness policy of `text`, written to `base/policy.txt`: its path. */
export function writePolicy(base: string, text: string): string {
  const p = join(base, 'policy.txt');
  writeFileSync(p, text);
  return p;
}

/** `text` written to `base/held.json`, the held file `--since` and `--checkpoint` read: its path. */
export function writeHeld(base: string, text: string): string {
  const held = join(base, 'held.json');
  writeFileSync(held, text);
  return held;
}

/** The journal's checkpoint of tree `size` (its line in checkpoints.jsonl) held in `base/held.json`: its path. */
export function holdCheckpoint(j: Pick<Journal, 'base' | 'dir'>, size: number): string {
  return writeHeld(j.base, journalLines(j.dir, 'checkpoints.jsonl')[size - 1]!);
}

type Cli = Pick<Journal, 'base' | 'dir' | 'keys'>;

/** `journal cosign DIR --key PEM --name NAME --trust-store … MORE` by witness `w`. */
export function cosignCli(j: Cli, w: Witness, ...more: string[]): Promise<InProcessResult> {
  return cliIn(
    j.base,
    'journal',
    'cosign',
    j.dir,
    '--key',
    w.pem,
    '--name',
    w.name,
    '--trust-store',
    j.keys.trustPath,
    ...more,
  );
}

/** `journal verify DIR --trust-store … FLAGS`. */
export function verifyCli(j: Cli, ...flags: string[]): Promise<InProcessResult> {
  return cliIn(j.base, 'journal', 'verify', j.dir, '--trust-store', j.keys.trustPath, ...flags);
}

export interface Verified {
  code: number;
  findings: Finding[];
  err: string;
}

/** `journal verify DIR --trust-store … FLAGS --json`: its exit code, all its findings and its stderr. */
export async function verifyJson(j: Cli, ...flags: string[]): Promise<Verified> {
  const r = await verifyCli(j, ...flags, '--json');
  return { code: r.code, findings: (JSON.parse(r.out) as { findings: Finding[] }).findings, err: r.err };
}

/** `v` with only the witness quorum's findings (RPR-JOURNAL-044). */
export function quorumOnly(v: Verified): Verified {
  return { ...v, findings: v.findings.filter((f) => f.rule === QUORUM_RULE) };
}

/** `journal verify DIR --trust-store … --witness-policy POLICY --json`: the witness quorum's findings. */
export async function verifyQuorum(j: Cli, policy: string): Promise<Verified> {
  return quorumOnly(await verifyJson(j, '--witness-policy', policy));
}

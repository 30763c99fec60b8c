/**
 * A TG replay judged by a reviewer, and attestations of it as `reprise attest` writes them,
 * for the attestation-*.test.ts files: the examples, keys (a reviewer and a quarantine
 * officer in the trust store, an outsider not in it), a journal holding a reviewer's accept
 * of the replay's report, and that report saved for `export --report`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { hashBytes } from '../../app/core/hash.js';
import { runBytes } from '../../app/engine/run.js';
import { recordJudgement } from '../../app/journal/index.js';
import { writeZip } from '../../app/zip/writer.js';
import { cliIn, examplesIn } from '../cli/in-process.js';
import { makeKeys, type Keys } from '../journal/helpers.js';
import { json, put, unzip } from './helpers.js';

export const ATTESTATION = 'attestation.dsse.json';
const MANIFEST = 'reprise-evidence-bundle.json';

export interface AttestedReplay {
  ex: string;
  keys: Keys;
  /** The TG manifest replayed and judged. */
  manifest: string;
  /** Another TG manifest: an attestation of it is about another artifact. */
  other: string;
  journal: string;
  /** The judged report, saved. */
  report: string;
}

export async function attestedReplay(prefix: string): Promise<AttestedReplay> {
  const ex = await examplesIn(prefix);
  const keys = makeKeys(ex);
  const manifest = join(ex, 'tg', 'exact-intact', 'manifest.json');
  const report = await runBytes(manifest, readFileSync(manifest), 'replay', {});
  const journal = join(ex, 'J');
  await recordJudgement(
    journal,
    { report, pointer: '', decision: 'accept', rationale: 'The replay matched every recorded output exactly.' },
    keys.reviewer,
    keys.trust,
    { fsync: false },
  );
  const saved = join(ex, 'report.json');
  writeFileSync(saved, JSON.stringify(report));
  // Another manifest that replays to PASS without --policy (zero delta: its ε is not needed).
  const other = join(ex, 'tg', 'exit-human-review', 'manifest.json');
  return { ex, keys, manifest, other, journal, report: saved };
}

/** `reprise attest MANIFEST --key PEM` written to `name` in the examples folder; its path. */
export async function attest(a: AttestedReplay, pem: string, name: string, manifest = a.manifest): Promise<string> {
  const out = join(a.ex, name);
  const r = await cliIn(a.ex, 'attest', manifest, '--key', pem, '--out', out);
  expect(r.code, r.err).toBe(0);
  return out;
}

/** An envelope whose one signature is `edit`ed, written as `reprise attest` writes one (canonical JSON and a newline). */
export function resigned(from: string, to: string, edit: (s: { keyid: string; sig: string }) => void): string {
  const env = JSON.parse(readFileSync(from, 'utf8')) as { signatures: { keyid: string; sig: string }[] };
  edit(env.signatures[0]!);
  writeFileSync(to, canonicalizeValue(env as never) + '\n');
  return to;
}

/** `reprise export` of the judged report, with the extra `args`; its result and the bundle's path. */
export async function exported(a: AttestedReplay, name: string, ...args: string[]) {
  const out = join(a.ex, name);
  const r = await cliIn(
    a.ex,
    'export',
    a.manifest,
    '--report',
    a.report,
    '--journal',
    a.journal,
    '--out',
    out,
    ...args,
  );
  return { ...r, out };
}

/**
 * The bundle in `bundle` with `data` as its attestation, added (or swapped in) after the export
 * and the unsigned manifest rewritten to list it: only the attestation's own check can tell.
 */
export async function withAttestation(bundle: string, data: Buffer, to: string): Promise<string> {
  const [head, ...rest] = (await unzip(readFileSync(bundle))).filter((x) => x.name !== ATTESTATION);
  const members = [...rest, { name: ATTESTATION, data }].sort((x, y) => (x.name < y.name ? -1 : 1));
  const files = [head!, ...members];
  const m = json(files, MANIFEST);
  m['members'] = members.map((x) => ({ name: x.name, sha256: hashBytes(x.data), size: x.data.length }));
  put(files, MANIFEST, m);
  writeFileSync(to, writeZip(files));
  return to;
}

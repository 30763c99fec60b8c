import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  generateSigner,
  parseTrustStore,
  trustStoreEntry,
  type Signer,
  type TrustStore,
  type Role,
} from '../../app/core/keys.js';
import { appendEntry } from '../../app/journal/writer.js';

export const ROOT = join(__dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'reprise.js');

export function tmp(prefix = 'reprise-journal-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface Keys {
  reviewer: Signer;
  officer: Signer;
  outsider: Signer;
  trust: TrustStore;
  trustPath: string;
  reviewerPem: string;
  officerPem: string;
  outsiderPem: string;
}

/** A reviewer, a quarantine officer (both in the trust store) and an outsider (not in it). */
export function makeKeys(
  dir: string,
  extra: { signer: Signer; role: Role; status: 'active' | 'retired' | 'revoked' }[] = [],
): Keys {
  const reviewer = generateSigner();
  const officer = generateSigner();
  const outsider = generateSigner();
  const doc = {
    type: 'reprise.trust-store/v1',
    keys: [
      trustStoreEntry(reviewer, 'reviewer', 'test reviewer'),
      trustStoreEntry(officer, 'quarantine-officer', 'test officer'),
      ...extra.map((e) => trustStoreEntry(e.signer, e.role, 'extra', e.status)),
    ],
  };
  const trustPath = join(dir, 'trust-store.json');
  writeFileSync(trustPath, JSON.stringify(doc, null, 2));
  const pem = (s: Signer, name: string) => {
    const p = join(dir, name);
    writeFileSync(p, s.privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    return p;
  };
  return {
    reviewer,
    officer,
    outsider,
    trust: parseTrustStore(Buffer.from(JSON.stringify(doc)), trustPath),
    trustPath,
    reviewerPem: pem(reviewer, 'reviewer.pem'),
    officerPem: pem(officer, 'officer.pem'),
    outsiderPem: pem(outsider, 'outsider.pem'),
  };
}

export function cli(args: string[], opts: { cwd?: string } = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: opts.cwd ?? ROOT, timeout: 60_000 });
}

/** `journal record` of a review rationale on claim `claim`, its body from `bodyFile`, signed with `key`. */
export function recordArgs(dir: string, bodyFile: string, key: string, claim = 'c'): string[] {
  return [
    'journal',
    'record',
    dir,
    '--kind',
    'review-rationale',
    '--claim',
    claim,
    '--body-file',
    bodyFile,
    '--key',
    key,
  ];
}

/** A rationale that passes the rule (shared/rationale.ts). */
export const GOOD_RATIONALE = 'Replayed with the recalibrated band; drift is not decision-material.';

/** `quarantine release DIR case-0` signed with `keyPem`, roles from `trustPath`. */
export function releaseArgs(dir: string, keyPem: string, trustPath: string, rationale = GOOD_RATIONALE): string[] {
  return [
    'quarantine',
    'release',
    dir,
    'case-0',
    '--rationale',
    rationale,
    '--key',
    keyPem,
    '--trust-store',
    trustPath,
  ];
}

export function writeJson(path: string, v: unknown): string {
  writeFileSync(path, JSON.stringify(v));
  return path;
}

/** A journal of two `replay-drift` entries by the reviewer, under a new temporary folder. */
export async function twoEntries(prefix: string): Promise<{ dir: string; keys: Keys }> {
  const base = tmp(prefix);
  const keys = makeKeys(base);
  const dir = join(base, 'J');
  for (let i = 0; i < 2; i++)
    await appendEntry(dir, { kind: 'replay-drift', subject: { claimRef: 'claim:X' }, body: { x: i } }, keys.reviewer, {
      trustStore: keys.trust,
      fsync: false,
    });
  return { dir, keys };
}

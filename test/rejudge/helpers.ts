/** The examples (`reprise examples`) as an archive to re-judge, a signing key and a trust store for records. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, makeKeys, tmp, type Keys } from '../journal/helpers.js';

export interface Archive {
  dir: string;
  /** The examples, the archive re-judged. */
  examples: string;
  /** The dumps' trust store, the one the archive is judged under. */
  trust: string;
  keys: Keys;
}

export function archive(prefix = 'reprise-rejudge-'): Archive {
  const dir = tmp(prefix);
  const examples = join(dir, 'examples');
  const w = cli(['examples', examples]);
  if (w.status !== 0) throw new Error(`examples: ${w.stderr}`);
  const keysDir = join(dir, 'keys');
  mkdirSync(keysDir);
  return { dir, examples, trust: join(examples, 'dumps', 'trust-store.json'), keys: makeKeys(keysDir) };
}

/** A copy of a trust store (outside the archive) with `keyId` revoked. */
export function revokedCopy(trust: string, keyId: string, out: string): string {
  const doc = JSON.parse(readFileSync(trust, 'utf8')) as { keys: { keyId: string; status: string }[] };
  const k = doc.keys.find((x) => x.keyId === keyId);
  if (!k) throw new Error(`${keyId} is not in ${trust}`);
  k.status = 'revoked';
  writeFileSync(out, JSON.stringify(doc, null, 2));
  return out;
}

/** Runs the CLI and fails with its stderr unless it exits `code`. */
export function ok(args: string[], code = 0): string {
  const r = cli(args);
  if (r.status !== code) throw new Error(`reprise ${args.join(' ')} exited ${r.status}, not ${code}: ${r.stderr}`);
  return r.stdout;
}

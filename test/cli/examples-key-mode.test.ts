/**
 * `reprise examples DIR` writes its private keys as every private key file is written,
 * mode 0600 (spec common.md), and every other file as before (as the umask gives). A file
 * already holding the very bytes is accepted and left as it is, its mode included.
 */
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildExamples, exampleOutputs, writeExamples } from '../../app/examples/index.js';
import { tmp } from '../journal/helpers.js';
import { cliIn } from './in-process.js';

const modeOf = (p: string): number => statSync(p).mode & 0o777;

/** The mode a new file gets under this process's umask (what every file but a key keeps). */
function plainMode(): number {
  const p = join(tmp('reprise-umask-'), 'f');
  writeFileSync(p, '');
  return modeOf(p);
}

/** The example outputs split into private keys and the rest, by their bytes. */
async function outputs(): Promise<{ keys: string[]; others: string[] }> {
  const all = exampleOutputs(await buildExamples());
  const isKey = (b: Uint8Array | string): boolean => Buffer.from(b).toString('latin1').includes('PRIVATE KEY-----');
  return {
    keys: all.filter((f) => isKey(f.bytes)).map((f) => f.path),
    others: all.filter((f) => !isKey(f.bytes)).map((f) => f.path),
  };
}

describe('example key files', () => {
  it('`reprise examples DIR` writes every private key 0600 and the other files as before', async () => {
    const { keys, others } = await outputs();
    expect(keys).toEqual(expect.arrayContaining(['journal/keys/reviewer.pem', 'journal/keys/quarantine-officer.pem']));
    const dir = tmp('reprise-ex-mode-');
    const r = await cliIn(dir, 'examples', dir);
    expect(r.code, r.err).toBe(0);
    for (const k of keys) expect([k, modeOf(join(dir, k))]).toEqual([k, 0o600]);
    const plain = plainMode();
    for (const o of others) expect([o, modeOf(join(dir, o))]).toEqual([o, plain]);
  });

  it('the engine host`s examples (writeExamples) write their keys 0600 too', async () => {
    const { keys } = await outputs();
    const dir = tmp('reprise-ex-mode-');
    await writeExamples(dir);
    for (const k of keys) expect([k, modeOf(join(dir, k))]).toEqual([k, 0o600]);
  });

  it('a key file already holding the very bytes is accepted and left as it is, mode included', async () => {
    const dir = tmp('reprise-ex-mode-');
    const key = join(dir, 'journal', 'keys', 'reviewer.pem');
    const bytes = exampleOutputs(await buildExamples()).find((f) => f.path === 'journal/keys/reviewer.pem')!.bytes;
    await mkdir(join(dir, 'journal', 'keys'), { recursive: true });
    writeFileSync(key, bytes);
    chmodSync(key, 0o640);
    const r = await cliIn(dir, 'examples', dir);
    expect(r.code, r.err).toBe(0);
    expect(modeOf(key)).toBe(0o640);
    expect(readFileSync(key).equals(Buffer.from(bytes))).toBe(true);
    expect(modeOf(join(dir, 'journal', 'keys', 'quarantine-officer.pem'))).toBe(0o600);
    const again = await cliIn(dir, 'examples', dir);
    expect(again.code, again.err).toBe(0);
    expect(modeOf(join(dir, 'journal', 'keys', 'quarantine-officer.pem'))).toBe(0o600);
  });
});

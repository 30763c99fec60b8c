/**
 * The name an attestation's bytes come under (`attestReplay` with `source: {type: 'bytes'}`,
 * journal-ops.ts attest): only the label of the file they are written to in a private temp
 * folder, so a name that is no file name (`..`, `.`, empty, a path, a NUL, too long) becomes
 * manifest.json and can never lead the write out of that folder. The folder goes whatever
 * happens, and no message names it. Run in this process, from the source, with this file's
 * own temporary directory, so what is left there is this file's to see.
 */
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigner, writePrivateKey } from '../../app/core/keys.js';
import { writeExamples } from '../../app/examples/index.js';
import { attest, attestFileName } from '../../main/host/journal-ops.js';

let base = '';
let tmp = '';
let keyFile = '';
let manifest: Uint8Array = new Uint8Array();
const saved = process.env.TMPDIR;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'reprise-attest-name-'));
  tmp = join(base, 'tmp');
  await mkdir(tmp);
  keyFile = join(base, 'reviewer.key.pem');
  await writePrivateKey(keyFile, generateSigner());
  await writeExamples(join(base, 'ex'));
  manifest = await readFile(join(base, 'ex', 'tg', 'exact-intact', 'manifest.json'));
  process.env.TMPDIR = tmp;
});
afterAll(async () => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
  await rm(base, { recursive: true, force: true });
});

/** An attestation of `bytes` sent under `name`, read as the host confines it (the key's folder). */
const attestSent = (name: string, bytes: Uint8Array) =>
  attest({ op: 'attest', name, bytes, keyFile, options: {}, readRoots: [base] });

const NO_FILE_NAMES = ['..', '.', '', 'a/b.json', '../../x.json', 'a\\..\\b.json', 'a\0b.json', 'x'.repeat(256)];

describe('the name bytes to attest are sent under', () => {
  it.each(NO_FILE_NAMES.map((n) => [JSON.stringify(n.slice(0, 20)), n]))(
    '%s is no file name: the bytes are attested as manifest.json, and no temp folder is left',
    async (_shown, name) => {
      const a = await attestSent(name, manifest);
      expect(a.verdict).toBe('pass');
      expect(await readdir(tmp)).toEqual([]);
    },
  );

  it('a failed attestation under such a name names no host path and leaves no temp folder', async () => {
    for (const name of NO_FILE_NAMES) {
      const err = await attestSent(name, Buffer.from('{"not": "a manifest"}\n')).catch((e: unknown) => e);
      expect(err, name).toBeInstanceOf(Error);
      const message = (err as Error).message;
      expect(message, name).not.toContain(tmp);
      expect(message, name).not.toContain(base);
      expect(message, name).not.toMatch(/reprise-attest-|EISDIR/);
      expect(await readdir(tmp), name).toEqual([]);
    }
  });

  it('a plain name is kept; any other is manifest.json', () => {
    expect(attestFileName('run-7.manifest.json')).toBe('run-7.manifest.json');
    expect(attestFileName('..manifest.json')).toBe('..manifest.json');
    for (const name of NO_FILE_NAMES) expect(attestFileName(name), name).toBe('manifest.json');
    expect(attestFileName(undefined)).toBe('manifest.json');
  });
});

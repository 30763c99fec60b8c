/**
 * Attestation export through the API (`attestReplay`): the engine host replays a TG
 * manifest read-only in its worker and signs the in-toto Statement with the reviewer's
 * key; the envelope is the very bytes `reprise attest` writes, and `reprise attest
 * --verify` accepts it. Workers run from dist/ (npm test builds it first).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigner, trustStoreEntry, writePrivateKey, TRUST_STORE_TYPE } from '../../app/core/keys.js';
import { ApiError, type EngineHost } from '../../main/host/engine-host.js';
import { distHost } from '../helpers/dist-host.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), ...args], { encoding: 'utf8' });

let host: EngineHost;
let dir = '';
let keyFile = '';
let trustStore = '';
let keyId = '';
beforeAll(async () => {
  host = distHost();
  dir = await mkdtemp(join(tmpdir(), 'reprise-attest-ui-'));
  const reviewer = generateSigner();
  keyId = reviewer.keyId;
  keyFile = join(dir, 'reviewer.key.pem');
  trustStore = join(dir, 'trust-store.json');
  await writePrivateKey(keyFile, reviewer);
  await writeFile(
    trustStore,
    JSON.stringify({ type: TRUST_STORE_TYPE, keys: [trustStoreEntry(reviewer, 'reviewer', 'test reviewer')] }),
  );
  // The key the user picked for signing (reprise serve --key, or the native dialog).
  await host.grant({ keys: [keyFile] });
});
afterAll(async () => host.close());

describe('attestReplay', () => {
  it('signs a TG replay in the engine: the CLI verifies the saved envelope, byte-identical to reprise attest', async () => {
    const a = await host.attestReplay({ source: { type: 'example', path: 'tg/exact-intact/manifest.json' }, keyFile });
    expect(a.keyId).toBe(keyId);
    expect(a.verdict).toBe('pass');
    expect(a.digest).toBe(`sha256:${createHash('sha256').update(a.envelope, 'utf8').digest('hex')}`);
    const file = join(dir, 'exact.dsse.json');
    await writeFile(file, a.envelope);
    // The same bytes the CLI writes for the same manifest and key.
    const examples = await mkdtemp(join(tmpdir(), 'reprise-attest-ex-'));
    expect(cli('examples', examples).status).toBe(0);
    const manifest = join(examples, 'tg/exact-intact/manifest.json');
    const v = cli('attest', '--verify', file, '--trust-store', trustStore, '--manifest', manifest);
    expect(v.status, v.stdout + v.stderr).toBe(0);
    expect(v.stdout).toContain(`signed by ${keyId}`);
    const made = cli('attest', join(examples, 'tg/exact-intact/manifest.json'), '--key', keyFile);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toBe(a.envelope);
    // Bytes sent by the window attest the same manifest.
    const bytes = await readFile(join(examples, 'tg/exact-intact/manifest.json'));
    const b = await host.attestReplay({
      source: { type: 'bytes', name: 'manifest.json', dataBase64: bytes.toString('base64') },
      keyFile,
    });
    expect(b.envelope).toBe(a.envelope);
  });

  it('a drifted replay is attested with its fail verdict', async () => {
    const a = await host.attestReplay({
      source: { type: 'example', path: 'tg/banded-drift-material/manifest.json' },
      keyFile,
    });
    expect(a.verdict).toBe('fail');
    const statement = JSON.parse(
      Buffer.from((JSON.parse(a.envelope) as { payload: string }).payload, 'base64').toString('utf8'),
    ) as { predicate: { verdict: string; reviewer: string } };
    expect(statement.predicate).toMatchObject({ verdict: 'fail', reviewer: keyId });
  });

  it('refuses what cannot be attested with one line the user can act on', async () => {
    const usage = async (p: Promise<unknown>, re: RegExp) => {
      const e = await p.then(
        () => null,
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).usage).toBe(true);
      expect((e as ApiError).message).toMatch(re);
      expect((e as ApiError).message).not.toContain('\n');
    };
    await usage(
      host.attestReplay({ source: { type: 'example', path: 'dumps/intact.dump.json' }, keyFile }),
      /is not a TG replay manifest/,
    );
    await usage(
      host.attestReplay({
        source: { type: 'example', path: 'tg/exact-intact/manifest.json' },
        keyFile: 'relative.pem',
      }),
      /reviewer key file/,
    );
    await usage(
      host.attestReplay({
        source: { type: 'example', path: 'tg/exact-intact/manifest.json' },
        keyFile: join(dir, 'missing.pem'),
      }),
      /missing\.pem/,
    );
    // A real key the user did not pick for signing.
    const other = join(dir, 'other.key.pem');
    await writePrivateKey(other, generateSigner());
    await usage(
      host.attestReplay({ source: { type: 'example', path: 'tg/exact-intact/manifest.json' }, keyFile: other }),
      /^refused: .*other\.key\.pem was not picked for signing; start reprise serve with --key FILE naming it$/,
    );
  });
});

import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../app/core/hash.js';
import {
  addToTrustStore,
  generateSigner,
  KeyError,
  keyIdOf,
  loadSigner,
  loadTrustStore,
  parseTrustStore,
  signBytes,
  trustStoreEntry,
  verifyBytes,
  writePrivateKey,
} from '../../app/core/keys.js';

describe('Ed25519 keys', () => {
  it('key id is ed25519: + hex SHA-256 of the raw public key', () => {
    const s = generateSigner();
    const raw = Buffer.from(s.publicKeyB64, 'base64');
    expect(raw.length).toBe(32);
    expect(s.keyId).toBe('ed25519:' + sha256Hex(raw));
    expect(keyIdOf(raw)).toBe(s.keyId);
  });
  it('signs and verifies; any changed byte fails', () => {
    const s = generateSigner();
    const msg = Buffer.from('anchored at creation');
    const sig = signBytes(s, msg);
    expect(sig).toMatch(/^[A-Za-z0-9+/]{86}==$/);
    expect(verifyBytes(s.publicKey, msg, sig)).toBe(true);
    const other = Buffer.from(msg);
    other[0]! ^= 1;
    expect(verifyBytes(s.publicKey, other, sig)).toBe(false);
    expect(verifyBytes(generateSigner().publicKey, msg, sig)).toBe(false);
    expect(verifyBytes(s.publicKey, msg, sig.replace(/==$/, ''))).toBe(false);
  });
  it('writes the private key as PKCS#8 PEM with mode 0600, never overwriting', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reprise-keys-'));
    const s = generateSigner();
    const p = join(dir, 'k.pem');
    await writePrivateKey(p, s);
    expect((await stat(p)).mode & 0o777).toBe(0o600);
    expect(await readFile(p, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect((await loadSigner(p)).keyId).toBe(s.keyId);
    await expect(writePrivateKey(p, generateSigner())).rejects.toThrow(/never overwrites/);
  });
});

describe('trust store', () => {
  it('round-trips entries and refuses a key id that does not match its key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reprise-ts-'));
    const p = join(dir, 'trust.json');
    const a = generateSigner();
    const b = generateSigner();
    await addToTrustStore(p, trustStoreEntry(a, 'reviewer', 'Alice'));
    await addToTrustStore(p, trustStoreEntry(b, 'quarantine-officer', 'Bob', 'revoked'));
    const store = await loadTrustStore(p);
    expect(store.get(a.keyId)?.role).toBe('reviewer');
    expect(store.get(b.keyId)?.status).toBe('revoked');
    const doc = JSON.parse(await readFile(p, 'utf8'));
    doc.keys[0].keyId = b.keyId;
    await writeFile(p, JSON.stringify(doc));
    await expect(loadTrustStore(p)).rejects.toThrow(/does not match its public key/);
  });
  it('refuses unknown members, roles and statuses', () => {
    const s = generateSigner();
    const entry = trustStoreEntry(s, 'trainer', 't');
    const store = (o: unknown) => Buffer.from(JSON.stringify(o));
    expect(() => parseTrustStore(store({ type: 'reprise.trust-store/v1', keys: [entry], extra: 1 }), 'x')).toThrow(
      KeyError,
    );
    expect(() =>
      parseTrustStore(store({ type: 'reprise.trust-store/v1', keys: [{ ...entry, role: 'admin' }] }), 'x'),
    ).toThrow(/role/);
    expect(() =>
      parseTrustStore(store({ type: 'reprise.trust-store/v1', keys: [{ ...entry, status: 'ok' }] }), 'x'),
    ).toThrow(/status/);
    expect(() => parseTrustStore(store({ type: 'other', keys: [] }), 'x')).toThrow(/type/);
    expect(() => parseTrustStore(Buffer.from('{"type":"reprise.trust-store/v1","keys":[],"keys":[]}'), 'x')).toThrow(
      /ERR_DUPLICATE_KEY/,
    );
  });
});

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
describe.skipIf(!isRoot)(
  'a key written to a full filesystem (tmpfs; skipped unless root, which mounting needs)',
  () => {
    it('leaves no half-written key file and says what the system refused', async () => {
      const { execFileSync } = await import('node:child_process');
      const { existsSync, rmSync } = await import('node:fs');
      const mnt = await mkdtemp(join(tmpdir(), 'reprise-keys-full-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8k', 'tmpfs', mnt], { stdio: 'ignore' });
      try {
        // Fill the filesystem whole, so the key's first page cannot be allocated.
        await writeFile(join(mnt, 'fill'), Buffer.alloc(8192)).catch(() => undefined);
        const path = join(mnt, 'reviewer.pem');
        const err = await writePrivateKey(path, generateSigner()).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(KeyError);
        expect((err as Error).message).toMatch(/ENOSPC.*no key was written/);
        expect(existsSync(path)).toBe(false);
      } finally {
        execFileSync('umount', [mnt]);
        rmSync(mnt, { recursive: true, force: true });
      }
    });
  },
);

/**
 * Writers of one trust store take turns under its lock file and never write over a change
 * made to the store meanwhile (docs/architecture.md, "The trust store's writers"). The
 * writers here run at once for real (in this process, each awaiting the file system); a
 * foreign edit (a revocation renamed into place by a program that takes no lock) is
 * injected at a chosen read or write of the store, so that where it lands is certain.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readdir, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addToTrustStore, generateSigner, KeyError, parseTrustStore, trustStoreEntry } from '../../app/core/keys.js';
import { cliIn } from '../cli/in-process.js';
import { tmp } from '../journal/helpers.js';

/** What the store's file does besides the writer's own reads and writes (a foreign program's edit). */
const hooks = vi.hoisted(() => ({
  afterRead: null as ((path: string) => void) | null,
  afterWrite: null as ((path: string) => void) | null,
}));

vi.mock('../../app/core/files.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../app/core/files.js')>();
  return {
    ...real,
    readRegularFile: async (...args: Parameters<typeof real.readRegularFile>) => {
      const bytes = await real.readRegularFile(...args);
      hooks.afterRead?.(args[0]);
      return bytes;
    },
    writeFileAtomic: async (...args: Parameters<typeof real.writeFileAtomic>) => {
      await real.writeFileAtomic(...args);
      hooks.afterWrite?.(args[0]);
    },
  };
});

afterEach(() => {
  hooks.afterRead = null;
  hooks.afterWrite = null;
});

interface StoreDoc {
  type: string;
  keys: { keyId: string; status: string }[];
}

const readStore = (p: string): StoreDoc => JSON.parse(readFileSync(p, 'utf8')) as StoreDoc;

/** A foreign program's write: the whole store renamed into place, no lock taken. */
function renameInto(p: string, bytes: string | Buffer): void {
  writeFileSync(`${p}.foreign`, bytes);
  renameSync(`${p}.foreign`, p);
}

/** Revokes `keyId` in the store at `p` as a hand edit would. */
function revokeByHand(p: string, keyId: string): void {
  const doc = readStore(p);
  for (const k of doc.keys) if (k.keyId === keyId) k.status = 'revoked';
  renameInto(p, JSON.stringify(doc, null, 2) + '\n');
}

/** A store at `dir/ts.json` holding one active reviewer key; its key id. */
async function storeWithOneKey(dir: string): Promise<{ store: string; keyId: string }> {
  const store = join(dir, 'ts.json');
  const signer = generateSigner();
  await addToTrustStore(store, trustStoreEntry(signer, 'reviewer', 'first'));
  return { store, keyId: signer.keyId };
}

/** A lock at `lock` as a writer that is `pid` on this host would hold it. */
const holderLine = (pid: number): string =>
  JSON.stringify({ pid, host: hostname(), sinceUtc: '2026-05-04T10:00:00.000Z' }) + '\n';

describe('trust store writers at once', () => {
  it('eight `keys generate` into one store: each says added, the store holds all eight, a revocation made meanwhile stays', async () => {
    const dir = tmp('reprise-ts-lock-');
    const { store, keyId: revoked } = await storeWithOneKey(dir);
    let fired = false;
    // The revocation lands just after the first writer has read the store.
    hooks.afterRead = (p) => {
      if (p !== store || fired) return;
      fired = true;
      revokeByHand(store, revoked);
    };
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        cliIn(dir, 'keys', 'generate', '--out', join(dir, `k${i}.pem`), '--role', 'reviewer', '--trust-store', store),
      ),
    );
    expect(fired).toBe(true);
    for (const r of runs) {
      expect(r.code, r.err).toBe(0);
      expect(r.err).toContain(`added to ${store}`);
    }
    const doc = readStore(store);
    expect(doc.keys).toHaveLength(9);
    const ids = new Set(doc.keys.map((k) => k.keyId));
    for (const r of runs) expect(ids.has(r.out.trim())).toBe(true);
    expect(doc.keys.find((k) => k.keyId === revoked)?.status).toBe('revoked');
    // No lock or private file is left behind.
    expect((await readdir(dir)).sort()).toEqual(
      [...Array.from({ length: 8 }, (_, i) => `k${i}.pem`), 'ts.json'].sort(),
    );
  });

  it('sixteen writers in one process: every key is in the store', async () => {
    const dir = tmp('reprise-ts-lock-');
    const store = join(dir, 'ts.json');
    const entries = Array.from({ length: 16 }, (_, i) => trustStoreEntry(generateSigner(), 'trainer', `t${i}`));
    await Promise.all(entries.map((e) => addToTrustStore(store, e)));
    const stored = parseTrustStore(readFileSync(store), store);
    expect(stored.keys).toHaveLength(16);
    for (const e of entries) expect(stored.get(e.keyId)?.label).toBe(e.label);
  });
});

describe('a store changed by a program that takes no lock', () => {
  it('a revocation renamed in between the read and the write is kept: the edit starts again from it', async () => {
    const dir = tmp('reprise-ts-lock-');
    const { store, keyId } = await storeWithOneKey(dir);
    let fired = false;
    hooks.afterRead = (p) => {
      if (p !== store || fired) return;
      fired = true;
      revokeByHand(store, keyId);
    };
    const added = trustStoreEntry(generateSigner(), 'reviewer', 'second');
    await addToTrustStore(store, added);
    const doc = readStore(store);
    expect(doc.keys.find((k) => k.keyId === keyId)?.status).toBe('revoked');
    expect(doc.keys.some((k) => k.keyId === added.keyId)).toBe(true);
  });

  it('a store put back just after the write: the key is added again, never reported added while missing', async () => {
    const dir = tmp('reprise-ts-lock-');
    const { store } = await storeWithOneKey(dir);
    const before = readFileSync(store);
    let reverts = 0;
    hooks.afterWrite = (p) => {
      if (p !== store || reverts > 0) return;
      reverts++;
      renameInto(store, before);
    };
    const added = trustStoreEntry(generateSigner(), 'reviewer', 'second');
    await addToTrustStore(store, added);
    expect(reverts).toBe(1);
    expect(readStore(store).keys.map((k) => k.keyId)).toContain(added.keyId);
  });

  it('a store put back after every write: refused, the new key removed, nothing said added', async () => {
    const dir = tmp('reprise-ts-lock-');
    const { store } = await storeWithOneKey(dir);
    const before = readFileSync(store);
    let reverts = 0;
    hooks.afterWrite = (p) => {
      if (p !== store) return;
      reverts++;
      renameInto(store, before);
    };
    const key = join(dir, 'k.pem');
    const r = await cliIn(dir, 'keys', 'generate', '--out', key, '--role', 'reviewer', '--trust-store', store);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/kept changing/);
    expect(r.err).toContain(`${store}.lock`);
    expect(r.err).toMatch(/was removed/);
    expect(r.err).not.toMatch(/added to/);
    expect(r.out).toBe('');
    expect(existsSync(key)).toBe(false);
    expect(readFileSync(store).equals(before)).toBe(true);
    expect(reverts).toBeGreaterThan(1);
    expect(reverts).toBeLessThanOrEqual(10);
  });
});

describe('the store lock', () => {
  it('a writer waits while another holds the lock, then writes', async () => {
    const dir = tmp('reprise-ts-lock-');
    const store = join(dir, 'ts.json');
    const lock = `${store}.lock`;
    await writeFile(lock, holderLine(process.pid));
    const entry = trustStoreEntry(generateSigner(), 'reviewer', 'waited');
    const writing = addToTrustStore(store, entry);
    await sleep(50);
    // The holder still holds it: nothing may have been written, however long that took.
    expect(existsSync(store)).toBe(false);
    await unlink(lock);
    await writing;
    expect(readStore(store).keys.map((k) => k.keyId)).toEqual([entry.keyId]);
    expect(existsSync(lock)).toBe(false);
  });

  it('a lock held past the wait is refused naming its holder; the store and the lock are left as they are', async () => {
    const dir = tmp('reprise-ts-lock-');
    const { store } = await storeWithOneKey(dir);
    const before = readFileSync(store);
    await writeFile(`${store}.lock`, holderLine(process.pid));
    const refused = addToTrustStore(store, trustStoreEntry(generateSigner(), 'reviewer', 'x'), 30);
    await expect(refused).rejects.toThrow(KeyError);
    await expect(refused).rejects.toThrow(new RegExp(`locked by another writer .*pid ${process.pid} on`));
    expect(readFileSync(store).equals(before)).toBe(true);
    expect(existsSync(`${store}.lock`)).toBe(true);
  });

  it('a stale lock, or one whose holder cannot be read, is refused at once and never removed', async () => {
    const dir = tmp('reprise-ts-lock-');
    const { store } = await storeWithOneKey(dir);
    const before = readFileSync(store);
    const lock = `${store}.lock`;
    for (const [text, said] of [
      [holderLine(2 ** 31 - 2), /stale lock .*no longer running.*delete .*ts\.json\.lock/],
      ['', /holder cannot be read .*it is empty.*delete .*ts\.json\.lock/],
    ] as const) {
      await writeFile(lock, text);
      // A long wait allowed: refused without it, since waiting would not release such a lock.
      const r = addToTrustStore(store, trustStoreEntry(generateSigner(), 'reviewer', 'x'), 60_000);
      await expect(r).rejects.toThrow(said);
      expect(readFileSync(lock, 'utf8')).toBe(text);
      expect(readFileSync(store).equals(before)).toBe(true);
    }
  });

  it('the CLI refuses a locked store with exit 3 and removes the key it made', async () => {
    const dir = tmp('reprise-ts-lock-');
    const { store } = await storeWithOneKey(dir);
    await writeFile(`${store}.lock`, holderLine(2 ** 31 - 2));
    const key = join(dir, 'k.pem');
    const r = await cliIn(dir, 'keys', 'generate', '--out', key, '--role', 'reviewer', '--trust-store', store);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/stale lock.*was removed/);
    expect(existsSync(key)).toBe(false);
  });
});

/**
 * Ed25519 keys, key ids, signatures and the trust store (common.md), via node:crypto.
 * node:crypto is chosen over @noble/curves in the engine: it is native, ships with Node,
 * reads and writes PKCS#8 PEM, and verifies ~9,000 signatures/s with a cached KeyObject.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { open, unlink } from 'node:fs/promises';
import { UsageError, type UsageCode } from './errors.js';
import { isMissing, readFailure, readRegularFile, writeFileAtomic, writeTarget } from './files.js';
import { sha256Hex } from './hash.js';
import { decodeJsonBytes, parseCanonical, JcsError } from './jcs.js';
import { heldBy, isStale, LockTakenError, takeLockWaiting, type HeldLock } from './lock.js';

export const ROLES = ['reviewer', 'quarantine-officer', 'trainer'] as const;
export type Role = (typeof ROLES)[number];
export const KEY_STATUSES = ['active', 'retired', 'revoked'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

export const TRUST_STORE_TYPE = 'reprise.trust-store/v1';

/**
 * A user-facing error about a key or trust-store file: a usage error (the CLI exits 3 with
 * its message). `bad-file` unless the file could not be read or written (`path`), or a
 * store's write was refused while it is locked or kept changing (`refused`).
 */
export class KeyError extends UsageError {
  constructor(message: string, usageCode: UsageCode = 'bad-file') {
    super(message, usageCode);
    this.name = 'KeyError';
  }
}

const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Raw keys already exported: a journal writer names its key in every note it signs, and exporting a KeyObject costs more than the signature. */
const RAW_KEYS = new WeakMap<KeyObject, Buffer>();

export function rawPublicKey(key: KeyObject): Buffer {
  const have = RAW_KEYS.get(key);
  if (have) return Buffer.from(have);
  const der = key.export({ format: 'der', type: 'spki' });
  if (der.length !== 44 || !der.subarray(0, 12).equals(SPKI_ED25519_PREFIX))
    throw new KeyError('not an Ed25519 public key');
  RAW_KEYS.set(key, Buffer.from(der.subarray(12)));
  return der.subarray(12);
}

export function publicKeyFromRaw(raw: Uint8Array): KeyObject {
  if (raw.length !== 32) throw new KeyError('an Ed25519 public key is 32 bytes');
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, raw]), format: 'der', type: 'spki' });
}

/** `ed25519:` + hex SHA-256 of the raw 32-byte public key. */
export function keyIdOf(raw: Uint8Array): string {
  return 'ed25519:' + sha256Hex(raw);
}

const KEY_ID_RE = /^ed25519:[0-9a-f]{64}$/;
export function isKeyId(s: unknown): s is string {
  return typeof s === 'string' && KEY_ID_RE.test(s);
}

export interface Signer {
  keyId: string;
  publicKeyB64: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export function signerFromPrivateKey(privateKey: KeyObject): Signer {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new KeyError('the key is not an Ed25519 private key');
  const publicKey = createPublicKey(privateKey);
  const raw = rawPublicKey(publicKey);
  return { keyId: keyIdOf(raw), publicKeyB64: raw.toString('base64'), privateKey, publicKey };
}

export function signerFromPem(pem: string | Buffer): Signer {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new KeyError('the key file is not a PKCS#8 PEM private key');
  }
  return signerFromPrivateKey(key);
}

export async function loadSigner(path: string): Promise<Signer> {
  let pem: Buffer;
  try {
    pem = await readRegularFile(path);
  } catch (e) {
    throw new KeyError(`cannot read key file ${path}: ${readFailure(e)}`, 'path');
  }
  return signerFromPem(pem);
}

export function generateSigner(): Signer {
  const { privateKey } = generateKeyPairSync('ed25519');
  return signerFromPrivateKey(privateKey);
}

/** Writes the private key as PKCS#8 PEM with mode 0600; refuses to overwrite a file. */
export async function writePrivateKey(path: string, signer: Signer): Promise<void> {
  await writePrivateKeyFile(path, signer.privateKey.export({ format: 'pem', type: 'pkcs8' }));
}

/**
 * Writes a private key's PEM with mode 0600, set again on the descriptor once written (a
 * umask may take bits from the mode, and flag 'w' keeps the mode of a file it replaces).
 * `flag` 'wx' (the default) refuses to overwrite a file.
 */
export async function writePrivateKeyFile(path: string, pem: string | Uint8Array, flag = 'wx'): Promise<void> {
  let fh;
  try {
    fh = await open(path, flag, 0o600);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new KeyError(
      code === 'EEXIST'
        ? `${path} exists; Reprise never overwrites a key file`
        : `cannot write ${path}: ${code ?? 'error'}`,
      'path',
    );
  }
  try {
    await fh.writeFile(pem);
    await fh.chmod(0o600);
    await fh.sync();
  } catch (e) {
    // A half-written key file (a full disk, a size limit) is worse than none: it looks like a
    // key and refuses to be overwritten. Remove it, then say what the system refused.
    await fh.close().catch(() => undefined);
    fh = undefined;
    await unlink(path).catch(() => undefined);
    throw new KeyError(
      `cannot write ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; no key was written`,
      'path',
    );
  } finally {
    await fh?.close();
  }
}

/** A 64-byte Ed25519 signature as standard base64 with padding. */
export function signBytes(signer: Signer, data: Uint8Array): string {
  return sign(null, data, signer.privateKey).toString('base64');
}

/**
 * A signature string in its one canonical base64 form: 64 bytes = 512 bits = 85 characters
 * of 6 bits (510) and an 86th carrying the last 2 bits and 4 zero bits, so its value is a
 * multiple of 16 (A, Q, g or w). Decoders ignore those unused bits, so without this check one
 * signature has 16 spellings, and bytes of a signed file (a journal line, an attestation, a
 * re-judgement record) could change while its signature still verifies.
 */
const SIG_RE = /^[A-Za-z0-9+/]{85}[AQgw]==$/;
export function isSignatureString(s: unknown): s is string {
  return typeof s === 'string' && SIG_RE.test(s);
}

export function verifyBytes(publicKey: KeyObject, data: Uint8Array, sigB64: string): boolean {
  if (!isSignatureString(sigB64)) return false;
  const sig = Buffer.from(sigB64, 'base64');
  if (sig.length !== 64) return false;
  try {
    return verify(null, data, publicKey, sig);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------
// Trust store

export interface TrustedKey {
  keyId: string;
  publicKeyB64: string;
  publicKey: KeyObject;
  role: Role;
  status: KeyStatus;
  label: string;
}

export class TrustStore {
  private readonly byId: Map<string, TrustedKey>;
  constructor(
    readonly keys: readonly TrustedKey[],
    readonly source: string,
  ) {
    this.byId = new Map(keys.map((k) => [k.keyId, k]));
  }
  get(keyId: string): TrustedKey | undefined {
    return this.byId.get(keyId);
  }
  /** Who holds a key, as this store names it (role, and label when it has one); null when it does not list the key. */
  holder(keyId: string): { role: TrustedKey['role']; label: string | null } | null {
    const k = this.byId.get(keyId);
    return k ? { role: k.role, label: k.label || null } : null;
  }
  static empty(): TrustStore {
    return new TrustStore([], '(none)');
  }
}

export interface TrustStoreEntry {
  keyId: string;
  publicKey: string;
  role: Role;
  status: KeyStatus;
  label: string;
}

export function trustStoreEntry(
  signer: Signer,
  role: Role,
  label: string,
  status: KeyStatus = 'active',
): TrustStoreEntry {
  return { keyId: signer.keyId, publicKey: signer.publicKeyB64, role, status, label };
}

/** Parses and checks a trust store. Any defect refuses the whole store (KeyError). */
export function parseTrustStore(bytes: Uint8Array, source: string): TrustStore {
  let doc: unknown;
  try {
    doc = parseCanonical(decodeJsonBytes(bytes)).value;
  } catch (e) {
    throw new KeyError(`trust store ${source} is not valid JSON: ${e instanceof JcsError ? e.message : String(e)}`);
  }
  const bad = (why: string): never => {
    throw new KeyError(`trust store ${source} refused: ${why}`);
  };
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) bad('not a JSON object');
  const d = doc as Record<string, unknown>;
  for (const k of Object.keys(d)) if (k !== 'type' && k !== 'keys') bad(`unknown member "${k}"`);
  if (d['type'] !== TRUST_STORE_TYPE) bad(`type must be "${TRUST_STORE_TYPE}"`);
  if (!Array.isArray(d['keys'])) bad('keys must be an array');
  const seen = new Set<string>();
  const keys = (d['keys'] as unknown[]).map((e, i): TrustedKey => {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) bad(`/keys/${i} is not an object`);
    const k = e as Record<string, unknown>;
    for (const m of Object.keys(k)) {
      if (!['keyId', 'publicKey', 'role', 'status', 'label'].includes(m)) bad(`/keys/${i} has unknown member "${m}"`);
    }
    if (!isKeyId(k['keyId'])) bad(`/keys/${i}/keyId is not ed25519:<64 hex>`);
    if (typeof k['publicKey'] !== 'string' || !/^[A-Za-z0-9+/]{43}=$/.test(k['publicKey']))
      bad(`/keys/${i}/publicKey is not base64 of 32 bytes`);
    const raw = Buffer.from(k['publicKey'] as string, 'base64');
    if (keyIdOf(raw) !== k['keyId'])
      bad(`/keys/${i}: keyId ${String(k['keyId'])} does not match its public key (${keyIdOf(raw)})`);
    if (!ROLES.includes(k['role'] as Role)) bad(`/keys/${i}/role must be one of ${ROLES.join(', ')}`);
    if (!KEY_STATUSES.includes(k['status'] as KeyStatus))
      bad(`/keys/${i}/status must be one of ${KEY_STATUSES.join(', ')}`);
    if (k['label'] !== undefined && typeof k['label'] !== 'string') bad(`/keys/${i}/label must be a string`);
    if (seen.has(k['keyId'] as string)) bad(`key ${String(k['keyId'])} is listed twice`);
    seen.add(k['keyId'] as string);
    return {
      keyId: k['keyId'] as string,
      publicKeyB64: k['publicKey'] as string,
      publicKey: publicKeyFromRaw(raw),
      role: k['role'] as Role,
      status: k['status'] as KeyStatus,
      label: (k['label'] as string | undefined) ?? '',
    };
  });
  return new TrustStore(keys, source);
}

export async function loadTrustStore(path: string): Promise<TrustStore> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path);
  } catch (e) {
    throw new KeyError(`cannot read trust store ${path}: ${readFailure(e)}`, 'path');
  }
  return parseTrustStore(bytes, path);
}

// ---------------------------------------------------------------------------
// Writing a trust store

/** How long a writer waits for another's lock on a store: far longer than a write holds it (a few ms). */
export const TRUST_STORE_LOCK_WAIT_MS = 10_000;
/** How often an edit starts again from the store's new bytes when something that ignores the lock changed it meanwhile. */
const TRUST_STORE_WRITE_TRIES = 5;

/**
 * An edit of a trust store: how it changes the entries, and whether a store shows it
 * (checked in the store on disk after the write). `failed` says what was not done, for the
 * refusal when it never shows.
 */
export interface TrustStoreEdit {
  change(entries: TrustStoreEntry[]): TrustStoreEntry[];
  done(store: TrustStore): boolean;
  failed: string;
}

/** The lock file of a trust store: beside the file a write lands in, so every link to one store finds one lock. */
export async function trustStoreLockPath(path: string): Promise<string> {
  return `${await writeTarget(path)}.lock`;
}

/**
 * Every write of a trust store comes through here. Writers serialise on the store's lock
 * file (app/core/lock.ts); under it the store is read, changed, and replaced only while it
 * still holds the bytes that were read, so a change made meanwhile by a program that does
 * not take the lock (a revocation edited by hand) is never written over: the edit starts
 * again from the new bytes. The edit must show in the store afterwards (such a program may
 * have replaced the store just after), else it is made again; after TRUST_STORE_WRITE_TRIES
 * the write is refused, so no caller reports an edit the store does not hold.
 */
export async function updateTrustStore(
  path: string,
  edit: TrustStoreEdit,
  lockWaitMs = TRUST_STORE_LOCK_WAIT_MS,
): Promise<void> {
  const lock = await lockTrustStore(path, lockWaitMs);
  try {
    for (let i = 0; i < TRUST_STORE_WRITE_TRIES; i++) if (await tryEdit(path, edit)) return;
  } finally {
    await lock.release();
  }
  throw new KeyError(
    `trust store ${path} kept changing while Reprise wrote it (a program writes it without taking ${lock.path}); ${edit.failed}`,
    'refused',
  );
}

/** Adds (or replaces, by key id) an entry in a trust store file, creating it when absent. */
export async function addToTrustStore(path: string, entry: TrustStoreEntry, lockWaitMs?: number): Promise<void> {
  await updateTrustStore(
    path,
    {
      change: (entries) => entries.filter((k) => k.keyId !== entry.keyId).concat([entry]),
      done: (store) => store.get(entry.keyId) !== undefined,
      failed: `the key ${entry.keyId} is not in it`,
    },
    lockWaitMs,
  );
}

/** One try of an edit: false when the store changed before it was written, or does not show the edit after. */
async function tryEdit(path: string, edit: TrustStoreEdit): Promise<boolean> {
  const before = await readStoreBytes(path);
  const keys = edit.change(storeEntries(before, path));
  if (!sameBytes(before, await readStoreBytes(path))) return false;
  await writeFileAtomic(path, JSON.stringify({ type: TRUST_STORE_TYPE, keys }, null, 2) + '\n');
  const after = await readStoreBytes(path);
  return after !== null && edit.done(parseTrustStore(after, path));
}

/** The store's bytes; null when there is no store yet. */
async function readStoreBytes(path: string): Promise<Buffer | null> {
  try {
    return await readRegularFile(path);
  } catch (e) {
    if (isMissing(e)) return null;
    throw new KeyError(`cannot read trust store ${path}: ${readFailure(e)}`, 'path');
  }
}

function sameBytes(a: Buffer | null, b: Buffer | null): boolean {
  return a === null || b === null ? a === b : a.equals(b);
}

/** The entries of a store's bytes (none when there is no store); a store Reprise refuses is refused here too. */
function storeEntries(bytes: Buffer | null, path: string): TrustStoreEntry[] {
  if (bytes === null) return [];
  return parseTrustStore(bytes, path).keys.map((k) => ({
    keyId: k.keyId,
    publicKey: k.publicKeyB64,
    role: k.role,
    status: k.status,
    label: k.label,
  }));
}

/** Takes the store's lock, waiting up to `waitMs` for another writer; a KeyError saying why when it cannot. */
async function lockTrustStore(path: string, waitMs: number): Promise<HeldLock> {
  const lockPath = await trustStoreLockPath(path);
  try {
    return await takeLockWaiting(lockPath, waitMs);
  } catch (e) {
    throw lockRefusal(path, lockPath, e, waitMs);
  }
}

/** Why a store's lock could not be taken. Stale or unreadable locks are never removed silently (as the journal's). */
function lockRefusal(path: string, lockPath: string, e: unknown, waitMs: number): KeyError {
  if (!(e instanceof LockTakenError))
    return new KeyError(
      `cannot lock trust store ${path} (${lockPath}: ${readFailure(e)}); nothing was written`,
      'path',
    );
  const held = e.holder;
  const remove = `check that nothing is writing ${path}, then delete ${lockPath}`;
  // There when this writer last tried, gone when its holder was read: the other had just finished.
  if (held === null)
    return new KeyError(
      `trust store ${path} was locked by another writer, which released the lock before its holder could be read; nothing was written, try again`,
      'refused',
    );
  if (held.unreadable !== undefined)
    return new KeyError(
      `trust store ${path} has a lock whose holder cannot be read (${lockPath}: ${held.unreadable}); Reprise writes its locks whole, so another program or a crash that lost the file's contents left it. Nothing was written; ${remove}`,
      'refused',
    );
  if (isStale(held))
    return new KeyError(
      `trust store ${path} has a stale lock (${lockPath}: ${heldBy(held)} is no longer running); a writer crashed. Nothing was written; ${remove}`,
      'refused',
    );
  return new KeyError(
    `trust store ${path} is locked by another writer (${lockPath}: ${heldBy(held)}), still after ${waitMs / 1000} s; nothing was written, try again when it has finished`,
    'refused',
  );
}

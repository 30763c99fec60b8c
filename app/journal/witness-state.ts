/**
 * A witness's memory: for each journal origin, the last checkpoint it cosigned, in a state
 * file of its own, apart from every journal (as C2SP witnesses keep it). Whoever cosigns
 * with a state holds its lock (a lock file of app/core/lock.ts beside the file, as a trust
 * store's writers do) from reading it to signing, so cosigns sharing one state run one at a
 * time and each writes back every origin it read plus its own. The checkpoint is recorded,
 * durably, before it is signed: a witness never gives a signature it could forget, which is
 * what would let it sign a second root for one origin and size.
 */
import { dirname } from 'node:path';
import { isPlainObject } from '../core/closed.js';
import { UsageError } from '../core/errors.js';
import {
  FileWriteError,
  fsyncPath,
  isMissing,
  readFailure,
  readRegularFile,
  writeFileAtomic,
  writeTarget,
} from '../core/files.js';
import { isHashString } from '../core/hash.js';
import { decodeJsonBytes, parseCanonical } from '../core/jcs.js';
import { heldBy, isStale, LockTakenError, takeLockWaiting, type HeldLock } from '../core/lock.js';
import { ioReason, JournalError } from './errors.js';

/** A checkpoint as the witness remembers it. */
export interface Remembered {
  treeSize: number;
  rootHash: string;
}

/** What a cosign asks of the witness's memory. */
export interface WitnessMemory {
  /** The last checkpoint the witness cosigned for `origin`; null when none. */
  recall(origin: string): Remembered | null;
  /** Records, durably, that the witness cosigns `cp` of `origin`; throws (nothing to sign then) when it cannot. */
  remember(origin: string, cp: Remembered): Promise<void>;
}

/** A witness without a state file: it remembers nothing, so only the journal's own record of it is checked. */
export const NO_MEMORY: WitnessMemory = { recall: () => null, remember: async () => undefined };

/** How long a cosign waits for another's lock on the state: far longer than one cosign holds it. */
const WITNESS_STATE_LOCK_WAIT_MS = 10_000;

type WitnessState = Record<string, Remembered>;

/** Runs `cosign` with the memory of the state file at `path`, holding the state's lock throughout. */
export async function withWitnessState<T>(
  path: string,
  cosign: (memory: WitnessMemory) => Promise<T>,
  waitMs = WITNESS_STATE_LOCK_WAIT_MS,
): Promise<T> {
  const lock = await lockState(path, waitMs);
  try {
    return await cosign(memoryOf(path, await readWitnessState(path)));
  } finally {
    await lock.release();
  }
}

function memoryOf(path: string, state: WitnessState): WitnessMemory {
  const recall = (origin: string) => (Object.hasOwn(state, origin) ? state[origin]! : null);
  return {
    recall,
    async remember(origin, { treeSize, rootHash }) {
      const had = recall(origin);
      if (had?.treeSize === treeSize && had.rootHash === rootHash) return;
      const next = { ...state, [origin]: { treeSize, rootHash } };
      await saveState(path, next);
      state[origin] = next[origin]!;
    },
  };
}

/** The state's lock file: beside the file a write lands in, so every link to one state finds one lock. */
async function lockState(path: string, waitMs: number): Promise<HeldLock> {
  let lockPath = `${path}.lock`;
  try {
    lockPath = `${await writeTarget(path)}.lock`;
    return await takeLockWaiting(lockPath, waitMs);
  } catch (e) {
    throw lockRefusal(path, lockPath, e, waitMs);
  }
}

const NOTHING = 'nothing was cosigned';

/** Why the state's lock could not be taken. A stale lock, or one whose holder cannot be read, is never removed silently. */
function lockRefusal(path: string, lockPath: string, e: unknown, waitMs: number): JournalError {
  if (!(e instanceof LockTakenError)) return unwritable(path, e);
  const held = e.holder;
  const remove = `check that no 'journal cosign' uses ${path}, then delete ${lockPath}`;
  const state = `the witness state ${path}`;
  if (held === null)
    return new JournalError(
      `${state} was locked by another cosign, which released it before its holder could be read; ${NOTHING}, try again`,
      'LOCKED',
    );
  if (held.unreadable !== undefined)
    return new JournalError(
      `${state} has a lock whose holder cannot be read (${lockPath}: ${held.unreadable}); ${NOTHING}; ${remove}`,
      'STALE_LOCK',
    );
  if (isStale(held))
    return new JournalError(
      `${state} has a stale lock (${lockPath}: ${heldBy(held)} is no longer running): a cosign crashed; ${NOTHING}; ${remove}`,
      'STALE_LOCK',
    );
  return new JournalError(
    `${state} is locked by another cosign (${lockPath}: ${heldBy(held)}), still after ${waitMs / 1000} s; ${NOTHING}, try again when it has finished`,
    'LOCKED',
  );
}

/** A state that cannot be written is a refusal to sign (exit 3): a witness signs only what it remembers. */
function unwritable(path: string, e: unknown): JournalError {
  const why =
    e instanceof FileWriteError ? e.reason : isMissing(e) ? 'its folder does not exist (ENOENT)' : ioReason(e);
  return new JournalError(
    `not cosigned: the witness state ${path} cannot be written (${why}); a witness signs only what it remembers, so nothing was added to the journal`,
    'IO',
  );
}

/** Replaces the state file (a private file renamed over it) and makes the rename durable before anything is signed. */
async function saveState(path: string, state: WitnessState): Promise<void> {
  try {
    await writeFileAtomic(path, JSON.stringify(state, null, 2) + '\n');
    await fsyncPath(path);
    await fsyncPath(dirname(await writeTarget(path)));
  } catch (e) {
    throw unwritable(path, e);
  }
}

/** The witness's memory as its file holds it; absent: it has cosigned nothing yet. */
async function readWitnessState(path: string): Promise<WitnessState> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path);
  } catch (e) {
    if (isMissing(e)) return {};
    throw new UsageError(`cannot read the witness state ${path}: ${readFailure(e)}`, 'path');
  }
  let v: unknown;
  try {
    v = parseCanonical(decodeJsonBytes(bytes)).value;
  } catch {
    throw new UsageError(`the witness state ${path} is not JSON`, 'bad-file');
  }
  const ok =
    isPlainObject(v) &&
    Object.values(v).every(
      (x) => isPlainObject(x) && Number.isSafeInteger(x['treeSize']) && isHashString(x['rootHash']),
    );
  if (!ok) throw new UsageError(`the witness state ${path} is not {origin: {treeSize, rootHash}}`, 'bad-file');
  return v as WitnessState;
}

/**
 * The single-writer lock: `DIR/journal.lock`, a lock file of app/core/lock.ts (created
 * whole and atomically, holding the writer's pid, host and start time). A second writer
 * gets a clear JournalError naming the holder, at once (a journal writer holds its lock for
 * as long as it is open, so waiting would not help). A lock whose pid no longer runs on this
 * host is *stale*: it is reported as such and never broken silently; `breakStaleLock`
 * removes it only when asked, and only when the holder is provably gone.
 */
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { FileReadError, isMissing, readFailure } from '../core/files.js';
import {
  heldBy,
  isStale,
  LockTakenError,
  provablyHeld,
  readLockFile,
  takeLock,
  type HeldLock,
  type LockInfo,
} from '../core/lock.js';
import { LOCK_FILE } from './format.js';
import { ioReason, JournalError } from './errors.js';

export { isStale, type HeldLock, type LockInfo };

export async function readLock(dir: string): Promise<LockInfo | null> {
  try {
    return await readLockFile(join(dir, LOCK_FILE));
  } catch (e) {
    throw new JournalError(`cannot read ${join(dir, LOCK_FILE)}: ${readFailure(e)}`, 'IO');
  }
}

/** What to do about a lock whose holder Reprise cannot judge (unreadable, or on another host). */
const checkThenForce = (dir: string): string =>
  `check that no writer is active, then run 'reprise journal unlock ${dir} --force'`;

/** The journal's words for a lock another holds: unreadable, stale, held, or gone before its holder was read. */
function takenError(dir: string, path: string, held: LockInfo | null): JournalError {
  // The lock was there when this writer tried to take it, and gone when its holder was read:
  // the other writer had just finished. Said so, not as a holder of unknown pid, host and time.
  if (held === null)
    return new JournalError(
      `journal ${dir} was locked by another writer, which released the lock before its holder could be read; nothing was written, try again`,
      'LOCKED',
    );
  if (held.unreadable !== undefined)
    return new JournalError(
      `journal ${dir} has a lock whose holder cannot be read (${path}: ${held.unreadable}); Reprise writes its locks whole, so another program or a crash that lost the file's contents left it. Nothing was written; ${checkThenForce(dir)}`,
      'STALE_LOCK',
    );
  if (isStale(held))
    return new JournalError(
      `journal ${dir} has a stale lock (${path}: pid ${held.pid} on ${held.host} since ${held.sinceUtc} is no longer running); ` +
        `a writer crashed. Check that no writer is active, then run 'reprise journal unlock ${dir}'`,
      'STALE_LOCK',
    );
  return new JournalError(
    `journal ${dir} is locked by another writer (${heldBy(held)}); try again when it has finished`,
    'LOCKED',
  );
}

export async function acquireLock(dir: string): Promise<HeldLock> {
  const path = join(dir, LOCK_FILE);
  try {
    return await takeLock(path);
  } catch (e) {
    if (e instanceof LockTakenError) throw takenError(dir, path, e.holder);
    if (e instanceof FileReadError) throw new JournalError(`cannot read ${path}: ${e.reason}`, 'IO');
    if (isMissing(e)) throw new JournalError(`journal directory ${dir} does not exist`, 'NOT_FOUND');
    throw new JournalError(`not recorded: cannot lock journal ${dir} (${ioReason(e)}); nothing was written`, 'IO');
  }
}

/**
 * Removes a stale lock; refuses (JournalError) when the holder may still be alive. `force`
 * (the user checked that no writer is active) also removes a lock Reprise cannot judge, one
 * whose holder cannot be read or runs on another host, but never one a running process on
 * this host holds.
 */
export async function breakStaleLock(dir: string, force = false): Promise<LockInfo | null> {
  const info = await readLock(dir);
  if (!info) return null;
  if (provablyHeld(info))
    throw new JournalError(
      `refusing to unlock ${dir}: the lock is held by pid ${info.pid} on ${info.host}, which is still running`,
      'LOCKED',
    );
  if (!isStale(info) && !force) {
    const who =
      info.unreadable !== undefined
        ? `its holder cannot be read (${info.unreadable})`
        : `it is held by pid ${info.pid} on ${info.host}, another host (cannot tell whether it runs)`;
    throw new JournalError(`refusing to unlock ${dir}: ${who}; ${checkThenForce(dir)}`, 'LOCKED');
  }
  await unlink(join(dir, LOCK_FILE));
  return info;
}

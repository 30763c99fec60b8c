/**
 * Lock files, for a writer that must be the only one at a time (the journal's writer, a
 * trust store's writers). A lock is created atomically: the holder's details (pid, host,
 * start time) are written to a private file, then link()ed into place, which fails with
 * EEXIST exactly like O_EXCL, so a lock is never seen half-written. A lock whose pid no
 * longer runs on this host is *stale* (its writer crashed). Nothing here removes a lock it
 * did not take: the lock's owner says who may (`reprise journal unlock`, deleting the file).
 */
import { randomBytes } from 'node:crypto';
import { link, open, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { threadId } from 'node:worker_threads';
import { isMissing, readRegularText } from './files.js';

/** A lock holds one short line (pid, host, time); anything longer is not a lock Reprise wrote. */
const MAX_LOCK_BYTES = 64 * 1024;

export interface LockInfo {
  pid: number;
  host: string;
  sinceUtc: string;
  /**
   * Why the holder cannot be read, when it cannot: Reprise links its locks into place whole,
   * so such a lock was left by another program, or by a crash that lost the file's contents
   * (a power cut before they reached the disk). Nobody can tell whether its holder runs.
   */
  unreadable?: string;
}

export interface HeldLock {
  path: string;
  release(): Promise<void>;
}

/** The lock at `path` is held by `holder`; null when it was released before its holder could be read. */
export class LockTakenError extends Error {
  constructor(
    readonly path: string,
    readonly holder: LockInfo | null,
  ) {
    super(`${path} is held by ${holder ? heldBy(holder) : 'another writer'}`);
    this.name = 'LockTakenError';
  }
}

/** Who holds a lock, in words: `pid 12 on host since 2026-…`. */
export function heldBy(info: LockInfo): string {
  return `pid ${info.pid} on ${info.host} since ${info.sinceUtc}`;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holder of the lock at `path`; null when there is none. A read failure is thrown as files.ts reports it. */
export async function readLockFile(path: string): Promise<LockInfo | null> {
  let text: string;
  try {
    // A FIFO or a device at the lock's name must not hang or flood the writer: a regular file, capped.
    text = await readRegularText(path, MAX_LOCK_BYTES);
  } catch (e) {
    if (isMissing(e)) return null;
    throw e;
  }
  let v: Partial<LockInfo>;
  try {
    v = JSON.parse(text) as Partial<LockInfo>;
  } catch {
    return { pid: -1, host: '?', sinceUtc: '?', unreadable: text === '' ? 'it is empty' : 'it is not JSON' };
  }
  const pid = typeof v?.pid === 'number' && Number.isSafeInteger(v.pid) && v.pid > 0 ? v.pid : -1;
  return {
    pid,
    host: typeof v?.host === 'string' ? v.host : '?',
    sinceUtc: typeof v?.sinceUtc === 'string' ? v.sinceUtc : '?',
    ...(pid === -1 ? { unreadable: 'it names no process id' } : {}),
  };
}

/** Whether a lock is provably stale: same host and the pid no longer runs (never a holder that cannot be read). */
export function isStale(info: LockInfo): boolean {
  if (info.unreadable !== undefined || info.pid <= 0) return false;
  return info.host === hostname() && !pidAlive(info.pid);
}

/** Whether a lock's holder is provably alive: this host, and its pid runs. */
export function provablyHeld(info: LockInfo): boolean {
  return info.unreadable === undefined && info.host === hostname() && pidAlive(info.pid);
}

/** Writes the holder's details to a new private file; on any failure the file is removed again (no litter on a full disk). */
async function writeHolderFile(tmp: string, info: LockInfo): Promise<void> {
  let created = false;
  try {
    const fh = await open(tmp, 'wx', 0o644);
    created = true;
    try {
      await fh.writeFile(JSON.stringify(info) + '\n');
    } finally {
      await fh.close();
    }
  } catch (e) {
    if (created) await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

/**
 * Takes the lock at `path` now: LockTakenError when another holds it, a FileReadError when
 * its holder cannot be read, the system's error when the lock cannot be made.
 */
export async function takeLock(path: string): Promise<HeldLock> {
  // Unique per attempt: worker threads of one process share its pid and can try in the same ms.
  const tmp = `${path}.${process.pid}.${threadId}.${randomBytes(8).toString('hex')}`;
  await writeHolderFile(tmp, { pid: process.pid, host: hostname(), sinceUtc: new Date().toISOString() });
  try {
    await link(tmp, path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new LockTakenError(path, await readLockFile(path));
    throw e;
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
  let released = false;
  return {
    path,
    async release() {
      if (released) return;
      released = true;
      await unlink(path).catch(() => undefined);
    },
  };
}

/**
 * Whether waiting may see a lock released: a holder that runs (or may, on another host), or
 * none left to read. A stale lock or one whose holder cannot be read is never released by
 * waiting, so it is reported at once.
 */
function worthWaiting(holder: LockInfo | null): boolean {
  return holder === null || (holder.unreadable === undefined && !isStale(holder));
}

/**
 * takeLock, waiting while another writer holds the lock: pauses from a few ms up to 100 ms
 * (spread at random, so that writers that collided do not collide again) until `waitMs` of
 * them have passed; then the last LockTakenError is thrown.
 */
export async function takeLockWaiting(path: string, waitMs: number): Promise<HeldLock> {
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      return await takeLock(path);
    } catch (e) {
      if (!(e instanceof LockTakenError) || !worthWaiting(e.holder) || waited >= waitMs) throw e;
    }
    const pause = Math.min(100, 5 * 2 ** Math.min(attempt, 5)) * (0.5 + Math.random() / 2);
    await sleep(pause);
    waited += pause;
  }
}

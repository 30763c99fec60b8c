/**
 * The single-writer lock: `DIR/journal.lock`, created atomically (written to a private file,
 * then link()ed into place, which fails with EEXIST exactly like O_EXCL) and holding the
 * writer's pid, host and start time. A second writer gets a clear JournalError naming
 * the holder. A lock whose pid no longer runs on this host is *stale*: it is reported as
 * such and never broken silently; `breakStaleLock` removes it only when asked, and only
 * when the holder is provably gone.
 */
import { hostname } from 'node:os';
import { link, open, unlink } from 'node:fs/promises';
import { isMissing, readFailure, readRegularText } from '../core/files.js';
import { join } from 'node:path';
import { LOCK_FILE } from './format.js';
import { ioReason, JournalError } from './errors.js';
import { randomBytes } from 'node:crypto';
import { threadId } from 'node:worker_threads';

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

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function readLock(dir: string): Promise<LockInfo | null> {
  let text: string;
  try {
    // A FIFO or a device at the lock's name must not hang or flood the writer: a regular file, capped.
    text = await readRegularText(join(dir, LOCK_FILE), MAX_LOCK_BYTES);
  } catch (e) {
    if (isMissing(e)) return null;
    throw new JournalError(`cannot read ${join(dir, LOCK_FILE)}: ${readFailure(e)}`, 'IO');
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
function provablyHeld(info: LockInfo): boolean {
  return info.unreadable === undefined && info.host === hostname() && pidAlive(info.pid);
}

/** What to do about a lock whose holder Reprise cannot judge (unreadable, or on another host). */
const checkThenForce = (dir: string): string =>
  `check that no writer is active, then run 'reprise journal unlock ${dir} --force'`;

/** Writes the holder's details to a new private file; on any failure the file is removed again (no litter on a full disk). */
async function writeHolderFile(dir: string, tmp: string, info: LockInfo): Promise<void> {
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
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new JournalError(`journal directory ${dir} does not exist`, 'NOT_FOUND');
    throw new JournalError(`not recorded: cannot lock journal ${dir} (${ioReason(e)}); nothing was written`, 'IO');
  }
}

export async function acquireLock(dir: string): Promise<HeldLock> {
  const path = join(dir, LOCK_FILE);
  // Write the holder's details to a private file first, then link() it into place: link
  // fails with EEXIST atomically (like O_EXCL), and the lock is never seen half-written.
  // Unique per attempt: worker threads of one process share its pid and can try in the same ms.
  const tmp = `${path}.${process.pid}.${threadId}.${randomBytes(8).toString('hex')}`;
  const info: LockInfo = { pid: process.pid, host: hostname(), sinceUtc: new Date().toISOString() };
  await writeHolderFile(dir, tmp, info);
  try {
    await link(tmp, path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      const held = await readLock(dir);
      if (held?.unreadable !== undefined)
        throw new JournalError(
          `journal ${dir} has a lock whose holder cannot be read (${path}: ${held.unreadable}); Reprise writes its locks whole, so another program or a crash that lost the file's contents left it. Nothing was written; ${checkThenForce(dir)}`,
          'STALE_LOCK',
        );
      if (held && isStale(held)) {
        throw new JournalError(
          `journal ${dir} has a stale lock (${path}: pid ${held.pid} on ${held.host} since ${held.sinceUtc} is no longer running); ` +
            `a writer crashed. Check that no writer is active, then run 'reprise journal unlock ${dir}'`,
          'STALE_LOCK',
        );
      }
      throw new JournalError(
        `journal ${dir} is locked by another writer (pid ${held?.pid ?? '?'} on ${held?.host ?? '?'} since ${held?.sinceUtc ?? '?'}); try again when it has finished`,
        'LOCKED',
      );
    }
    throw new JournalError(`not recorded: cannot lock journal ${dir} (${ioReason(e)}); nothing was written`, 'IO');
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

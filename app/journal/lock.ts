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
  try {
    const v = JSON.parse(text) as Partial<LockInfo>;
    return {
      pid: typeof v.pid === 'number' ? v.pid : -1,
      host: typeof v.host === 'string' ? v.host : '?',
      sinceUtc: typeof v.sinceUtc === 'string' ? v.sinceUtc : '?',
    };
  } catch {
    // A lock file torn by a crash during its own creation: unknown holder.
    return { pid: -1, host: '?', sinceUtc: '?' };
  }
}

/** Whether a lock is provably stale: same host and the pid no longer runs (or unreadable holder). */
export function isStale(info: LockInfo): boolean {
  if (info.pid <= 0) return true;
  return info.host === hostname() && !pidAlive(info.pid);
}

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

/** Removes a stale lock; refuses (JournalError) when the holder may still be alive. */
export async function breakStaleLock(dir: string): Promise<LockInfo | null> {
  const info = await readLock(dir);
  if (!info) return null;
  if (!isStale(info)) {
    throw new JournalError(
      `refusing to unlock ${dir}: the lock is held by pid ${info.pid} on ${info.host}, which ${info.host === hostname() ? 'is still running' : 'is another host (cannot tell whether it runs)'}`,
      'LOCKED',
    );
  }
  await unlink(join(dir, LOCK_FILE));
  return info;
}

/** A user-facing journal error (the CLI prints its message and exits 3; never a stack trace). */
export class JournalError extends Error {
  constructor(
    message: string,
    /**
     * IO: a write failed and was undone (nothing recorded) or could not start.
     * UNKNOWN: a write failed and undoing it failed too; only `journal verify` can tell what is on disk.
     */
    readonly code: 'LOCKED' | 'STALE_LOCK' | 'TORN' | 'DAMAGED' | 'IO' | 'UNKNOWN' | 'REFUSED' | 'NOT_FOUND' | 'USAGE' = 'REFUSED',
  ) {
    super(message);
    this.name = 'JournalError';
  }
}

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EFBIG: 'the file-size limit was reached',
  EDQUOT: 'the disk quota is exhausted',
  EIO: 'an I/O error from the device',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
};

/** An errno as a reader understands it: `ENOSPC: no space left on the device`. */
export function ioReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string') return e instanceof Error ? e.message : 'error';
  const why = Object.hasOwn(REASONS, code) ? REASONS[code] : undefined;
  return why ? `${code}: ${why}` : code;
}

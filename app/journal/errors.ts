import { UsageError, type UsageCode } from '../core/errors.js';

/**
 * IO: a write failed and was undone (nothing recorded) or could not start.
 * UNVERIFIED: the journal does not verify from its last trusted state, so nothing is written onto it.
 * UNKNOWN: a write failed and undoing it failed too; only `journal verify` can tell what is on disk.
 */
export type JournalErrorCode =
  'LOCKED' | 'STALE_LOCK' | 'TORN' | 'DAMAGED' | 'IO' | 'UNKNOWN' | 'REFUSED' | 'UNVERIFIED' | 'NOT_FOUND' | 'USAGE';

/** What each journal code is, as the one usage error says it (app/core/errors.ts). */
const USAGE_CODES: Readonly<Record<JournalErrorCode, UsageCode>> = {
  LOCKED: 'refused',
  STALE_LOCK: 'refused',
  REFUSED: 'refused',
  UNVERIFIED: 'refused',
  TORN: 'bad-file',
  DAMAGED: 'bad-file',
  IO: 'path',
  UNKNOWN: 'path',
  NOT_FOUND: 'path',
  USAGE: 'arguments',
};

/**
 * A user-facing journal error: a usage error (the CLI prints its message and exits 3; the
 * host answers it as one), with the journal's own finer code for the callers that retry
 * on a lock or refuse a decision.
 */
export class JournalError extends UsageError {
  constructor(
    message: string,
    readonly code: JournalErrorCode = 'REFUSED',
  ) {
    super(message, USAGE_CODES[code]);
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

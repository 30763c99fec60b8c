/** A user-facing journal error (the CLI prints its message and exits 3; never a stack trace). */
export class JournalError extends Error {
  constructor(
    message: string,
    readonly code: 'LOCKED' | 'STALE_LOCK' | 'TORN' | 'DAMAGED' | 'IO' | 'REFUSED' | 'NOT_FOUND' | 'USAGE' = 'REFUSED',
  ) {
    super(message);
    this.name = 'JournalError';
  }
}

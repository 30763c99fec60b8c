/**
 * Errors the user caused (bad usage, an unreadable path, a bad flag file): the CLI prints
 * the message on one line and exits 3. It lives in the core, not in engine/run.ts, so any
 * kind can import it without an import cycle through the kind registry.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

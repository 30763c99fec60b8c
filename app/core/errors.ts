/**
 * The one error for "the user asked something wrong", wherever it is found: the CLI (a
 * flag, an argument), the engine (a path, a flag file, a refused combination) and the
 * workbench's host (a request). The CLI prints the message on one line and exits 3; the
 * host answers it as a usage error (shown as is). It lives in the core, the lowest floor
 * that needs it, so any kind can import it without an import cycle through the registry.
 */

/**
 * What was wrong (closed: a new cause is a new member here).
 * - `arguments`: the command line or a request (a flag, a value, a missing member).
 * - `path`: a path that cannot be read or written, or is not what it must be (missing, a
 *   FIFO, too large, a directory without an artifact).
 * - `bad-file`: a file a flag or option names (policy, providers, profiles) is malformed.
 * - `refused`: well-formed, but not possible with this input (`--out` for a kind whose
 *   replay writes no file, a manifest that cannot be attested, a path outside the gate).
 */
export type UsageCode = 'arguments' | 'path' | 'bad-file' | 'refused';

export class UsageError extends Error {
  constructor(
    message: string,
    // Not `code`: FileReadError (core/files.ts) carries the errno there, as Node's errors do.
    readonly usageCode: UsageCode = 'arguments',
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * An artifact's bytes changed between its verification and a later read of the same run (a
 * kind's case facts, read after its verdict): what that read found is not what was verified.
 * A case takes the artifact as one it could not verify (engine/case/verify-one.ts), never
 * its report beside facts of other bytes.
 */
export class ChangedWhileReadError extends Error {
  constructor(
    /** The artifact, as the message names it. */
    readonly path: string,
    /** What differs between the two reads. */
    readonly what: string,
  ) {
    super(`${path} changed while the case read it (${what}): what it offers the case is not what was verified`);
    this.name = 'ChangedWhileReadError';
  }

  /** The same error naming the artifact otherwise (a case names it by its path in the case). */
  named(path: string): ChangedWhileReadError {
    return new ChangedWhileReadError(path, this.what);
  }
}

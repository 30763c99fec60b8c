/**
 * How an API call is rejected (RepriseApi, over IPC or the web host's socket): a message
 * and whether the user can fix it (`usage`, shown as is) or it is an internal error. A
 * transport concept, not a second usage error: inside the engine and the workers a user's
 * mistake is app/core/errors.ts UsageError; at the API's edge the host says it in the
 * wire's terms, rejecting a request it refuses itself with `usage: true`, and rebuilding as
 * an ApiError what a worker or the engine's process answered ({message, usage}).
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly usage: boolean,
  ) {
    super(message);
  }
}

/** An error the user caused (bad input); shown as is, never with a stack. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly usage: boolean,
  ) {
    super(message);
  }
}

import { UsageError } from '../../core/errors.js';

/** The engine's UsageError (exit 3, one line). */
export function usageError(message: string): Error {
  return new UsageError(message);
}

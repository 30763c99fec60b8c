/** The CLI's own stderr line; reports as text are app/engine/report-text.ts. */
import { safeText } from '../engine/report-text.js';

/**
 * An error message as one stderr line: `reprise: ` and the message, escaped, with Reprise's
 * own usage text (after a line break it put there) kept as it is.
 */
export function formatError(message: string): string {
  const at = message.indexOf('\nusage: ');
  const head = at === -1 ? message : message.slice(0, at);
  return `reprise: ${safeText(head)}${at === -1 ? '' : message.slice(at)}\n`;
}

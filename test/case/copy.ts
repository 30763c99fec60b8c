/** A copy of a case folder to change (a file removed, a FIFO added) without touching the shared fixture. */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { tmp } from '../journal/helpers.js';

export function fixtureCopy(dir: string): string {
  const to = join(tmp('reprise-case-copy-'), 'case');
  cpSync(dir, to, { recursive: true });
  return to;
}

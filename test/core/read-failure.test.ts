/**
 * A read that fails says why in words beside the system's code (app/core/files.ts
 * readFailure): a case folder holding a link to /proc/kmsg said only "EAGAIN".
 */
import { describe, expect, it } from 'vitest';
import { readFailure } from '../../app/core/files.js';

const errno = (code: string) => Object.assign(new Error(code), { code });

describe('readFailure', () => {
  it('words the codes a reviewer meets in a folder', () => {
    expect(readFailure(errno('EAGAIN'))).toBe('it would block: a device or special file, not a file of bytes (EAGAIN)');
    expect(readFailure(errno('EACCES'))).toBe('permission denied (EACCES)');
  });
  it('keeps a code it has no words for', () => {
    expect(readFailure(errno('EXDEV'))).toBe('EXDEV');
    expect(readFailure(undefined)).toBe('error');
  });
});

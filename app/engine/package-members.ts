/**
 * A package's members for the workbench, from the kind that offers them (a Nemosyne
 * package: KindOperations.members), as an engine operation the host calls: a package on disk is opened as a regular file and read
 * by position through its descriptor, as verification reads it, never held whole. What the
 * user can fix (not a package, a member it lacks, a damaged archive) is a UsageError.
 */
import type { PackageMembers } from '../../shared/api.js';
import { UsageError } from '../core/errors.js';
import { openRegular } from '../core/files.js';
import { MembersError } from '../kinds/operations.js';
import { operationFor } from './operations.js';
import { fileSource, SourceError } from '../zip/source.js';

export async function readPackageMembers(
  from: { bytes?: Uint8Array; path?: string },
  member?: string,
): Promise<PackageMembers> {
  const packageMembers = await operationFor('members');
  try {
    if (from.bytes) return await packageMembers(from.bytes, member);
    if (!from.path) throw new UsageError('no package');
    const { fh, stat } = await openRegular(from.path);
    try {
      return await packageMembers(fileSource(fh.fd, stat.size), member);
    } finally {
      await fh.close();
    }
  } catch (e) {
    if (e instanceof MembersError || e instanceof SourceError) throw new UsageError(e.message, 'path');
    throw e;
  }
}

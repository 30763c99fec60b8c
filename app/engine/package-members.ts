/**
 * A Nemosyne package's members for the workbench (app/kinds/nemosyne/members.ts), as an
 * engine operation the host calls: a package on disk is opened as a regular file and read
 * by position through its descriptor, as verification reads it, never held whole. What the
 * user can fix (not a package, a member it lacks, a damaged archive) is a UsageError.
 */
import type { PackageMembers } from '../../shared/api.js';
import { UsageError } from '../core/errors.js';
import { openRegular } from '../core/files.js';
import { packageMembers, PackageMembersError } from '../kinds/nemosyne/members.js';
import { fileSource, SourceError } from '../zip/source.js';

export async function readPackageMembers(from: { bytes?: Uint8Array; path?: string }, member?: string): Promise<PackageMembers> {
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
    if (e instanceof PackageMembersError || e instanceof SourceError) throw new UsageError(e.message, 'path');
    throw e;
  }
}

/**
 * How many members an evidence bundle may hold, for its writer and its verifier alike
 * (docs/evidence-bundle.md, "How many members"). A case bundle holds one report per
 * artifact and one proof per judgement, and the case walk sets no bound of its own on
 * artifacts, so the archive reader's default (1,000 entries, upstream Nemosyne's) refused a
 * case of about a thousand artifacts that its own export had written. A bundle is read with
 * the most entries a ZIP without ZIP64 declares (65,535 is ZIP64's sentinel, refused by the
 * reader): memory stays bounded by the reader's other limits (100 MiB archive, 250 MiB of
 * members), which apply unchanged. `--limit maxEntries=N` sets it, for the verifier and the
 * export alike; the export refuses a bundle its verifier would refuse with the same limits.
 */
import { JournalError } from '../../journal/errors.js';
import { resolveLimits, type ZipLimits } from '../../zip/limits.js';
import { readStructure } from '../../zip/reader.js';

/** The most members (the manifest included) a bundle is read with when `--limit maxEntries` is not given. */
export const BUNDLE_MAX_ENTRIES = 0xfffe;

/** The archive limits a bundle is read with: the reader's, with BUNDLE_MAX_ENTRIES unless maxEntries is given. */
export function bundleLimits(overrides?: Record<string, number>): ZipLimits {
  return resolveLimits({ maxEntries: BUNDLE_MAX_ENTRIES, ...overrides });
}

/**
 * Refuses (JournalError, REFUSED) a bundle of `count` members (`what` they are), that its
 * verifier would refuse as too many, before a byte of it is written; `advice` says what to do.
 */
export function checkMemberCount(
  count: number,
  what: string,
  advice: string,
  overrides?: Record<string, number>,
): void {
  const max = bundleLimits(overrides).maxEntries;
  if (count <= max) return;
  const given = overrides?.['maxEntries'] !== undefined;
  throw new JournalError(
    `the bundle would hold ${count} members (${what}), over the ${max} its verifier reads (maxEntries${given ? ', as given' : `; a ZIP without ZIP64 holds no more than ${BUNDLE_MAX_ENTRIES}`}): ${advice}`,
    'REFUSED',
  );
}

/** Refuses (JournalError, REFUSED) written bytes that the verifier's strict reader would refuse under the same limits. */
export function checkReadable(bytes: Buffer, overrides?: Record<string, number>): Buffer {
  const zs = readStructure(bytes, bundleLimits(overrides));
  const refused = zs.findings.filter((f) => f.severity === 'fail');
  if (zs.ok && refused.length === 0) return bytes;
  const why = refused.map((f) => `${f.rule}: ${f.message}`).join('; ');
  throw new JournalError(`the bundle would be refused by its own verifier (${why}): nothing was written`, 'REFUSED');
}

/**
 * Archive limits. Defaults are upstream Nemosyne's (NemosynePackage.ts); every one can be
 * overridden by name with `--limit NAME=N` (EngineOptions.limits). The CLI refuses a name
 * no kind knows (app/cli/commands/check.ts).
 */
export interface ZipLimits {
  /** Largest archive accepted, in bytes (upstream: 100 MiB). */
  maxArchiveBytes: number;
  /** Largest sum of declared uncompressed sizes (upstream: 250 MiB). */
  maxTotalBytes: number;
  /** Largest declared uncompressed size of one entry (upstream: 100 MiB). */
  maxEntryBytes: number;
  /** Most entries (upstream: 1,000). */
  maxEntries: number;
  /** Largest uncompressed/compressed ratio of an entry larger than RATIO_FLOOR bytes (default: deflate's ceiling). */
  maxRatio: number;
  /** Longest entry name, in UTF-8 bytes. */
  maxNameBytes: number;
  /** Longest path segment, in UTF-8 bytes. */
  maxSegmentBytes: number;
}

const MiB = 1024 * 1024;

/**
 * The most a deflate stream can expand (RFC 1951): a match copies at most 258 bytes and
 * costs at least 2 bits (a length code and a distance code of 1 bit each), so no stream
 * inflates to more than 1032 times its size. An entry declaring more declares a size its
 * data cannot hold. Data upstream Nemosyne writes stays below it (docs/zip-reader.md).
 */
export const DEFLATE_MAX_RATIO = 1032;

export const DEFAULT_LIMITS: Readonly<ZipLimits> = Object.freeze({
  maxArchiveBytes: 100 * MiB,
  maxTotalBytes: 250 * MiB,
  maxEntryBytes: 100 * MiB,
  maxEntries: 1000,
  maxRatio: DEFLATE_MAX_RATIO,
  maxNameBytes: 512,
  maxSegmentBytes: 255,
});

/** The ratio check applies only to entries whose declared size exceeds this. */
export const RATIO_FLOOR = 64 * 1024;

export const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as (keyof ZipLimits)[];

/** Worker threads that inflate a package's entries (`--limit zipWorkers=0`: none). */
export const ZIP_WORKERS_LIMIT = 'zipWorkers';

export function resolveLimits(overrides: Record<string, number> | undefined): ZipLimits {
  const out: ZipLimits = { ...DEFAULT_LIMITS };
  if (!overrides) return out;
  for (const name of LIMIT_NAMES) {
    const v = overrides[name];
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) out[name] = v;
  }
  return out;
}

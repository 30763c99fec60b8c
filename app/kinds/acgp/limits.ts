/** ACGP limits, overridable with `--limit NAME=N` (docs/acgp.md). No imports: the CLI checks names against it. */
export const LINE_LIMIT = 'acgp-line-bytes';
/** The `--limit` name of the private providers one report names (checker.ts). */
export const PRIVATE_PROVIDERS_LIMIT = 'acgp-private-providers';
/**
 * The report limits, and the longest line of a JSON Lines trace: an EVAL line is a few KiB,
 * and a line is parsed whole, at up to 19 bytes of memory per byte (a 100 MB line of tiny
 * numbers took 1.9 GB), so a longer one is refused unread (lines.ts). A trace has one
 * trust-debt provider, or a few: the private ones are named up to acgp-private-providers (each
 * name held until the end, for RPR-ACGP-013) and the EVALs of the rest counted, so a new
 * provider on every line is no unbounded memory; 50, so that their 013s and the one counting
 * the rest stay within the findings a report lists per rule (findings-per-rule, 100).
 */
export const ACGP_LIMITS = {
  'acgp-findings': 1000,
  'acgp-comparisons': 100_000,
  'acgp-trajectory': 100_000,
  [LINE_LIMIT]: 1_048_576,
  [PRIVATE_PROVIDERS_LIMIT]: 50,
} as const;

/** ACGP limits, overridable with `--limit NAME=N` (docs/acgp.md). No imports: the CLI checks names against it. */
export const LINE_LIMIT = 'acgp-line-bytes';
/**
 * The report limits, and the longest line of a JSON Lines trace: an EVAL line is a few KiB,
 * and a line is parsed whole, at up to 19 bytes of memory per byte (a 100 MB line of tiny
 * numbers took 1.9 GB), so a longer one is refused unread (lines.ts).
 */
export const ACGP_LIMITS = {
  'acgp-findings': 1000,
  'acgp-comparisons': 100_000,
  'acgp-trajectory': 100_000,
  [LINE_LIMIT]: 1_048_576,
} as const;

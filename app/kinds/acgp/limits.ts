/** ACGP report limits, overridable with `--limit NAME=N` (docs/acgp.md). No imports: the CLI checks names against it. */
export const ACGP_LIMITS = { 'acgp-findings': 1000, 'acgp-comparisons': 100_000, 'acgp-trajectory': 100_000 } as const;

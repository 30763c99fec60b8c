/**
 * The budget of every JsonLogic rule evaluation of one TG artifact (docs/tg-replay.md,
 * "Rule budget"), overridable with `--limit NAME=N`. No imports: the CLI checks names
 * against it without loading the kind.
 *
 * `tg-rule-operations`: work units all rule evaluations of one manifest replay may spend
 * together: each JsonLogic step counts one, plus one per element, member and character of
 * the value it yields (so work on large values counts, not only the number of steps).
 * Two million units take well under a second here; a legitimate ruleset spends hundreds.
 * `tg-rule-result-size`: the largest value any one step may yield, in the same units
 * (half a million: a few MB at most, far above any claim's data).
 */
export const TG_LIMITS = { 'tg-rule-operations': 2_000_000, 'tg-rule-result-size': 500_000 } as const;

/** Nemosyne's own limit, overridable with `--limit NAME=N` (docs/nemosyne.md). No imports: the declarations read it. */
export const TIMELINE_LIMIT = 'nemosyne-timeline';
/** commands.log event times a report keeps for a case's timeline (times.ts), as many as an ACGP trajectory's points. */
export const TIMELINE_DEFAULT = 100_000;

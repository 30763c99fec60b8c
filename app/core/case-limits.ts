/**
 * The case's own limit, overridable with `--limit NAME=N` (docs/case.md, "Links by
 * content"). In core, with no imports, so that the registry of limits (app/kinds/registry.ts,
 * which `--limit` and `--help` read) can declare it without importing the engine above it.
 */
export const CASE_LINKS_LIMIT = 'case-links-per-reference';
/**
 * Links one reference of the case makes; the rest are counted (RPR-CASE-005). A reference to
 * bytes that many artifacts hold links to each: without a bound, N references to bytes held
 * by N copies are N² links, built in memory before a byte of the report is written.
 */
export const CASE_LINKS_DEFAULT = 100;
/** What `--help` says of it. */
export const CASE_LINKS_HELP =
  'links one reference of a case makes to the artifacts holding what it names; the rest are counted (RPR-CASE-005)';

/** The limit of `limits` (EngineOptions.limits), or its default when it is absent or not a whole number of at least 0. */
export function caseLinksLimit(limits: Readonly<Record<string, number>> | undefined): number {
  const v = limits?.[CASE_LINKS_LIMIT];
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : CASE_LINKS_DEFAULT;
}

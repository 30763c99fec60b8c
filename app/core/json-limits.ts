/**
 * The bounds of every JSON document the engine parses, checked on its text before parsing
 * (app/core/jcs/bounds.ts says why), as constants with no imports: the CLI lists and checks
 * `--limit` names without loading the canonicalizer.
 */

/** The `--limit` name of the bound on distinct member names. */
export const MEMBER_NAMES_LIMIT = 'json-member-names';
/**
 * Distinct member names one JSON document may hold: 250,000 are parsed in about 0.35 s and
 * 60 MiB; the examples' largest (a dump of 100,000 artifacts, an EVAL of 100,000 CTQ
 * dimensions) hold 100,000.
 */
export const MAX_MEMBER_NAMES = 250_000;

/** The `--limit` name of the bound on items (array elements and object members). */
export const ITEMS_LIMIT = 'json-items';
/**
 * Items one JSON document may hold, counted as commas and opening brackets outside strings:
 * 4 million are at most about 200 MiB to parse (2 million empty objects, or 4 million
 * numbers); a 109 MiB dump of 350,000 rows of four members holds about 2.1 million.
 */
export const MAX_ITEMS = 4_000_000;

/**
 * The longest member name, in UTF-16 code units: a fixed bound, like the nesting depth.
 * Names are identifiers (the longest any format here has is a dump's 71-character artifact
 * key); 64 Ki leaves room for names that are data, such as prompts used as keys.
 */
export const MAX_NAME_CHARS = 65_536;

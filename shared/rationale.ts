/**
 * What a reviewer may record (the decisions) and the one rationale rule (a RECORDED review rationale, a quarantine decision): what counts
 * as real content. The engine refuses a rationale by `checkRationale` (app/journal/cases.ts,
 * app/journal/judgement.ts) and the workbench's forms show `RATIONALE_RULE.summary` and the
 * same function's message beside the field, so the form and the engine cannot disagree.
 * Pure: imports nothing (shared/ is read by the engine, the host and the renderer).
 */

/** The closed set of decisions a reviewer records in a judgement (app/journal/judgement.ts). */
export const JUDGEMENT_DECISIONS = ['accept', 'reject', 'needs-review', 'note'] as const;
export type JudgementDecision = (typeof JUDGEMENT_DECISIONS)[number];

export interface RationaleRule {
  /**
   * Characters a reader sees, once runs of whitespace are collapsed to one space and the ends
   * trimmed: grapheme clusters (an emoji, or "e" and its combining accent, is one), default-ignorable
   * code points (U+200B, tags, variation selectors, Hangul fillers…) not counted at all. The
   * words and distinct letters of a new rationale are counted in that visible text too.
   */
  minChars: number;
  /** Words: runs of non-space holding a letter or digit. */
  minWords: number;
  /** Distinct letters or digits (case-folded): refuses "aaaaaaaaaaaaaaaaaaaa". */
  minDistinct: number;
  /**
   * Bytes of UTF-8 a new rationale (a judgement's, a note's, a quarantine decision's) may hold:
   * prose, not a place for the evidence itself (that is an artifact of the case), and every
   * export and listing carries it. A rationale already journaled is read whatever its length.
   */
  maxBytes: number;
  /** The rule in one sentence, for a form's label. */
  summary: string;
}

export const RATIONALE_RULE: Readonly<RationaleRule> = Object.freeze({
  minChars: 20,
  minWords: 3,
  minDistinct: 5,
  maxBytes: 64 * 1024,
  summary:
    'at least 20 characters, 3 words and 5 different letters or digits: say what you checked and why the decision follows',
});

/**
 * Why a rationale is not real content (one sentence), or null when it is acceptable. `when`
 * is 'new' for one about to be signed (held to `maxBytes` too, and counted as a reader sees
 * it), 'recorded' for one a journal holds: counted as the rule counted when it could have been
 * signed (UTF-16 units, invisible characters included), so a journal that verified still does
 * (docs/journal.md, "Invisible characters"). Linear in the text and stops counting at each
 * minimum, so that a huge paste is refused at once, without a string per character.
 */
export function checkRationale(text: unknown, when: 'new' | 'recorded' = 'new'): string | null {
  const r = RATIONALE_RULE;
  if (typeof text !== 'string') return 'the rationale is missing';
  if (when === 'new') {
    const tooLong = rationaleLengthProblem(text);
    if (tooLong) return tooLong;
  }
  const visible = when === 'new';
  const norm = (visible ? text.replace(INVISIBLE, '') : text).replace(/\s+/gu, ' ').trim();
  if (norm === '') return 'the rationale is blank';
  const chars = visible ? graphemesUpTo(norm, r.minChars) : norm.length;
  if (chars < r.minChars) return `the rationale has ${chars} characters; at least ${r.minChars} are required`;
  const words = wordsUpTo(norm, r.minWords);
  if (words < r.minWords) return `the rationale has ${words} word(s); at least ${r.minWords} are required`;
  const distinct = distinctUpTo(norm.toLowerCase(), r.minDistinct);
  if (distinct < r.minDistinct)
    return `the rationale uses ${distinct} distinct letters or digits; at least ${r.minDistinct} are required`;
  return null;
}

/**
 * A new rationale over `maxBytes` of UTF-8, said, or null; each UTF-16 unit is at least one
 * byte, so a longer string is refused before it is encoded (a huge paste costs nothing to refuse).
 */
export function rationaleLengthProblem(text: string): string | null {
  const max = RATIONALE_RULE.maxBytes;
  const said = (n: string) =>
    `the rationale is ${n} bytes of UTF-8; at most ${max} are signed (long material belongs in an artifact of the case, cited by its hash)`;
  if (text.length > max) return said(`at least ${text.length}`);
  const bytes = new TextEncoder().encode(text).length;
  return bytes > max ? said(String(bytes)) : null;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** What a renderer may draw as nothing (U+200B, tags, variation selectors, Hangul fillers, which are letters): never counted. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/** One "character" as a reader counts it: an emoji, a letter and its combining marks. */
const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Grapheme clusters of `text`, counted up to `enough`. */
function graphemesUpTo(text: string, enough: number): number {
  let n = 0;
  for (const _ of GRAPHEMES.segment(text)) if (++n >= enough) break;
  return n;
}

/** Words (runs of non-space holding a letter or digit) of space-separated `text`, counted up to `enough`. */
function wordsUpTo(text: string, enough: number): number {
  let n = 0;
  for (const m of text.matchAll(/[^ ]+/gu)) if (LETTER_OR_DIGIT.test(m[0]) && ++n >= enough) break;
  return n;
}

/** Distinct letters or digits of `text`, counted up to `enough`. */
function distinctUpTo(text: string, enough: number): number {
  const seen = new Set<string>();
  for (const m of text.matchAll(/[\p{L}\p{N}]/gu)) if (seen.add(m[0]).size >= enough) break;
  return seen.size;
}

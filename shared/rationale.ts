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
  /** Characters once runs of whitespace are collapsed to one space and the ends trimmed. */
  minChars: number;
  /** Words: runs of non-space holding a letter or digit. */
  minWords: number;
  /** Distinct letters or digits (case-folded): refuses "aaaaaaaaaaaaaaaaaaaa". */
  minDistinct: number;
  /** The rule in one sentence, for a form's label. */
  summary: string;
}

export const RATIONALE_RULE: Readonly<RationaleRule> = Object.freeze({
  minChars: 20,
  minWords: 3,
  minDistinct: 5,
  summary:
    'at least 20 characters, 3 words and 5 different letters or digits: say what you checked and why the decision follows',
});

/** Why a rationale is not real content (one sentence), or null when it is acceptable. */
export function checkRationale(text: unknown): string | null {
  const r = RATIONALE_RULE;
  if (typeof text !== 'string') return 'the rationale is missing';
  const norm = text.replace(/\s+/gu, ' ').trim();
  if (norm === '') return 'the rationale is blank';
  if (norm.length < r.minChars)
    return `the rationale has ${norm.length} characters; at least ${r.minChars} are required`;
  const words = norm.split(' ').filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length < r.minWords)
    return `the rationale has ${words.length} word(s); at least ${r.minWords} are required`;
  const distinct = new Set(norm.toLowerCase().match(/[\p{L}\p{N}]/gu) ?? []);
  if (distinct.size < r.minDistinct)
    return `the rationale uses ${distinct.size} distinct letters or digits; at least ${r.minDistinct} are required`;
  return null;
}

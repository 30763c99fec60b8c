/**
 * fail() and its siblings for re-judgement records, typed on the ids rule-ids.ts declares:
 * a finding of an undeclared id does not compile. The rejudgement kind (app/kinds/rejudgement)
 * declares these ids as its own and makes its findings only through these.
 */
import { findingsOn } from '../core/findings.js';
import { REJUDGEMENT_RULES } from './rule-ids.js';

/** An id this kind declares. */
export type RuleId = keyof typeof REJUDGEMENT_RULES;

export const { finding, fail, unavailable, warning, info, changedNumbers } = findingsOn(REJUDGEMENT_RULES);

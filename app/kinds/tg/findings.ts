/**
 * fail() and its siblings for this kind, typed on the ids its rule-ids.ts declares: a
 * finding of an id the kind did not declare does not compile. The kind's code makes its
 * findings only through these (test/house/typed-findings.test.ts).
 */
import { findingsOn } from '../../core/findings.js';
import { TG_RULES } from './rule-ids.js';

/** An id this kind declares. */
export type RuleId = keyof typeof TG_RULES;

export const { finding, fail, unavailable, warning, info, changedNumbers } = findingsOn(TG_RULES);

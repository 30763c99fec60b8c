/**
 * TG-DECISION (EXACT): the first exit whose governed threshold the trust score meets
 * (score ≥ threshold), in the order ACCEPT, ACCEPT_WITH_CONDITIONS, HUMAN_REVIEW,
 * QUARANTINE; below QUARANTINE, REJECT. Thresholds come only from the bundle.
 */
import { THRESHOLD_EXITS, type Exit } from '../constants.js';
import type { Bundle } from '../bundle.js';

export function decide(trustScore: number, exits: Bundle['exits']): Exit {
  for (const e of THRESHOLD_EXITS) if (trustScore >= exits[e]) return e;
  return 'REJECT';
}

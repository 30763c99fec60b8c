/**
 * What a judgement entry must be (its body) and who may sign one: the rules the writer
 * applies before it signs (judgement.ts, notes.ts) and the verifier applies to what it reads
 * (verify.ts, RPR-JOURNAL-045), and the evidence bundle to what it carries. A module of its
 * own, below the writer and the verifier, so each imports it without a cycle of modules.
 */
import { isHashString } from '../core/hash.js';
import type { Role, TrustStore } from '../core/keys.js';
import { checkRationale, JUDGEMENT_DECISIONS, type JudgementDecision } from '../../shared/rationale.js';
import type { JsonObject } from './format.js';
import { signerProblem } from './signers.js';

export const JUDGEMENT_TYPE = 'reprise.judgement/v1';
/** Roles allowed to sign a judgement: the reviewer's act (an officer decides cases; a trainer trains). */
export const JUDGEMENT_ROLES: readonly Role[] = ['reviewer'];

const BODY_MEMBERS = ['decision', 'pointer', 'rationale', 'reportDigest', 'supersedes', 'type'];

/**
 * Why a judgement body is malformed, or null. `decision` and `rationale` are required;
 * `type`, `reportDigest` and `pointer` are what the workbench and `recordJudgement` always
 * write. A body without `reportDigest` (a `journal record --kind review-rationale` written
 * by hand) judges the artifact as a whole, so it may hold no pointer but "". `when` is 'new'
 * for a body about to be signed (its rationale held to the length a new one may have).
 */
export function judgementBodyProblem(body: unknown, when: 'new' | 'recorded' = 'recorded'): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body is not a JSON object';
  const b = body as JsonObject;
  const extra = Object.keys(b).find((k) => !BODY_MEMBERS.includes(k));
  if (extra !== undefined) return `the body has an unknown member "${extra}"`;
  if ('type' in b && b['type'] !== JUDGEMENT_TYPE) return `body.type must be "${JUDGEMENT_TYPE}"`;
  if (!JUDGEMENT_DECISIONS.includes(b['decision'] as JudgementDecision))
    return `the decision ${JSON.stringify(b['decision'])} is not one of ${JUDGEMENT_DECISIONS.join(', ')}`;
  if ('reportDigest' in b && !isHashString(b['reportDigest']))
    return 'body.reportDigest is not a sha256:<64 hex> hash string';
  if ('pointer' in b && typeof b['pointer'] !== 'string') return 'body.pointer is not a string';
  if (!('reportDigest' in b) && 'pointer' in b && b['pointer'] !== '')
    return "a pointer into a report needs the report's digest (body.reportDigest)";
  // A note's edit names the note it replaces (notes.ts); a decision is never edited, only followed by another.
  if ('supersedes' in b && (b['decision'] !== 'note' || !isHashString(b['supersedes'])))
    return "body.supersedes is a note's edit: the sha256:<64 hex> entry hash of the note it supersedes, on a note only";
  return checkRationale(b['rationale'], when);
}

/**
 * Why `keyId` may not sign a judgement under `trust` (unknown, wrong role; for a new one, not
 * active; for one `recorded` already, revoked), or null: the writer's one signer check, and
 * the verifier's and the evidence bundle's of what the journal holds.
 */
export function judgementSignerProblem(
  keyId: string,
  trust: TrustStore,
  when: 'new' | 'recorded' = 'new',
): string | null {
  return signerProblem(keyId, trust, { what: 'a judgement', roles: JUDGEMENT_ROLES, recorded: when === 'recorded' });
}

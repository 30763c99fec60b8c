/**
 * Quarantine cases as a pure function of the journal (journal.md, "Roles and the
 * quarantine workflow"). `caseStates` folds the entries in seq order; only valid
 * transitions change a case, invalid ones yield RPR-QUAR findings. Same entries and same
 * trust store in, same states out: no clock, no I/O, no randomness.
 *
 *   open ──release──▶ released   (quarantine-officer only; rationale of real content)
 *     │ ──uphold───▶ upheld     (quarantine-officer or reviewer; rationale)
 *     └─escalate──▶ escalated ──release/uphold──▶ released / upheld
 */
import type { Finding, JsonValue } from '../../shared/report.js';
import { fail } from '../core/findings.js';
import { isHashString } from '../core/hash.js';
import type { Role, TrustStore } from '../core/keys.js';
import type { Entry, Subject } from './format.js';
import { checkRationale, RATIONALE_RULE } from '../../shared/rationale.js';

export type CaseStatus = 'open' | 'escalated' | 'released' | 'upheld';
export type Decision = 'release' | 'uphold' | 'escalate';

export const KIND_OF_DECISION = {
  release: 'quarantine-release',
  uphold: 'quarantine-uphold',
  escalate: 'quarantine-escalate',
} as const;

/** The quarantine decision an entry of `kind` records, or undefined for any other kind. */
export function decisionOfKind(kind: string): Decision | undefined {
  return (Object.keys(KIND_OF_DECISION) as Decision[]).find((d) => KIND_OF_DECISION[d] === kind);
}

/** Which state each decision leads to, and from which states it is allowed. */
export const TRANSITIONS: Record<Decision, { from: readonly CaseStatus[]; to: CaseStatus; roles: readonly Role[] }> = {
  release: { from: ['open', 'escalated'], to: 'released', roles: ['quarantine-officer'] },
  uphold: { from: ['open', 'escalated'], to: 'upheld', roles: ['quarantine-officer', 'reviewer'] },
  escalate: { from: ['open'], to: 'escalated', roles: ['quarantine-officer', 'reviewer'] },
};

// The rationale rule is shared with the workbench's forms (shared/rationale.ts): one rule.
/** A rationale must have at least this many characters once whitespace is collapsed... */
export const MIN_RATIONALE_CHARS = RATIONALE_RULE.minChars;
/** ...at least this many words (runs of non-space holding a letter or digit)... */
export const MIN_RATIONALE_WORDS = RATIONALE_RULE.minWords;
/** ...and at least this many distinct letters or digits (refuses "aaaaaaaaaaaaaaaaaaaa"). */
export const MIN_RATIONALE_DISTINCT = RATIONALE_RULE.minDistinct;

/** Why a rationale is not real content, or null when it is acceptable. */
export const rationaleProblem: (text: unknown) => string | null = checkRationale;
export { RATIONALE_RULE, checkRationale };

export interface CaseEvent {
  seq: number;
  entryHash: string;
  decision: 'open' | Decision;
  author: string;
  atUtc: string;
  /** The open reason, or the transition's rationale. */
  text: string;
}

export interface CaseState {
  /** `case-<seq of the opening entry>` */
  caseId: string;
  openSeq: number;
  /** Entry hash of the quarantine-open entry: transitions name the case by it (body.case). */
  openHash: string;
  subject: Subject;
  source: string;
  state: CaseStatus;
  openedAtUtc: string;
  updatedAtUtc: string;
  history: CaseEvent[];
  /** The evidence its opening entry recorded (`body.details`: a drift rate, the deltas), as signed; null when none. */
  evidence: JsonValue | null;
}

/** What caseStates needs of an entry: the entry and its hash (no I/O). */
export interface HashedEntry {
  entry: Entry;
  hash: string;
  /** For finding pointers: the entry's 1-based line in entries.jsonl (default seq + 1). */
  line?: number;
}

export interface CaseFold {
  cases: CaseState[];
  findings: Finding[];
  /** False when no trust store was given: author roles were not checked. */
  rolesChecked: boolean;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The pure fold: entries in seq order → every case's state. */
export function caseStates(entries: readonly HashedEntry[], trustStore: TrustStore | null = null): CaseFold {
  const findings: Finding[] = [];
  const byHash = new Map<string, CaseState>();
  const cases: CaseState[] = [];
  for (const { entry: e, hash, line } of entries) {
    const pointer = `line:${line ?? e.seq + 1}`;
    if (e.kind === 'quarantine-open') {
      const reason = str(e.body['reason']);
      if (reason.trim() === '')
        findings.push(fail('RPR-QUAR-005', 'a quarantine-open entry has no reason', { pointer }));
      const c: CaseState = {
        caseId: `case-${e.seq}`,
        openSeq: e.seq,
        openHash: hash,
        subject: { ...e.subject },
        source: str(e.body['source']) || 'manual',
        state: 'open',
        openedAtUtc: e.recordedAtUtc,
        updatedAtUtc: e.recordedAtUtc,
        history: [
          { seq: e.seq, entryHash: hash, decision: 'open', author: e.author, atUtc: e.recordedAtUtc, text: reason },
        ],
        evidence: (e.body['details'] as JsonValue | undefined) ?? null,
      };
      byHash.set(hash, c);
      cases.push(c);
      continue;
    }
    const decision = decisionOfKind(e.kind);
    if (!decision) continue;
    const problem = transitionProblem(e, decision, byHash, trustStore, 'recorded');
    if (problem) {
      findings.push(
        fail(problem.rule, problem.message, {
          pointer,
          ...(problem.expected !== undefined ? { expected: problem.expected, actual: problem.actual ?? null } : {}),
        }),
      );
      continue;
    }
    const c = byHash.get(e.body['case'] as string)!;
    c.state = TRANSITIONS[decision].to;
    c.updatedAtUtc = e.recordedAtUtc;
    c.history.push({
      seq: e.seq,
      entryHash: hash,
      decision,
      author: e.author,
      atUtc: e.recordedAtUtc,
      text: str(e.body['rationale']),
    });
  }
  return { cases, findings, rolesChecked: trustStore !== null };
}

export interface Problem {
  rule: string;
  message: string;
  expected?: string;
  actual?: string;
}

/**
 * What a decision asks of whoever signs it and of its rationale, whatever the case's state
 * (RPR-QUAR-003, 006, 004): the role, the key's status (`when`, as transitionProblem says) and
 * the rationale's content. decideCase asks it before the writer opens, so a refused signer
 * leaves the journal's directory as it was; transitionProblem asks it after the case's own rules.
 */
export function deciderProblem(
  author: string,
  rationale: unknown,
  decision: Decision,
  caseName: string,
  trustStore: TrustStore | null,
  when: 'new' | 'recorded' = 'new',
): Problem | null {
  const t = TRANSITIONS[decision];
  if (trustStore) {
    const k = trustStore.get(author);
    if (!k || !t.roles.includes(k.role))
      return {
        rule: 'RPR-QUAR-003',
        message: `${decision} of ${caseName} requires a ${t.roles.join(' or ')} key; ${author} is ${k ? `a ${k.role} key` : 'not in the trust store'}`,
        expected: t.roles.join('|'),
        actual: k?.role ?? 'unknown',
      };
    if (when === 'new' ? k.status !== 'active' : k.status === 'revoked')
      return {
        rule: 'RPR-QUAR-006',
        message: `${decision} of ${caseName} is signed by a ${k.status} key`,
        expected: 'active',
        actual: k.status,
      };
  }
  const why = checkRationale(rationale, when);
  return why ? { rule: 'RPR-QUAR-004', message: `${decision} of ${caseName} refused: ${why}` } : null;
}

/**
 * Every reason a transition entry is not a valid transition, first one wins (RPR-QUAR-001..007).
 * `when` says whose key status counts: a decision about to be signed needs an active key; one
 * the journal already holds was made before its key was retired, if it was, and stands (its
 * signature's RPR-JOURNAL-010 says the key is retired), while a revoked key's never does,
 * since revoking says its signatures cannot be trusted, whenever they were made.
 */
export function transitionProblem(
  e: Pick<Entry, 'body' | 'author' | 'subject'>,
  decision: Decision,
  byHash: ReadonlyMap<string, CaseState>,
  trustStore: TrustStore | null,
  when: 'new' | 'recorded' = 'new',
): Problem | null {
  const ref = e.body['case'];
  if (!isHashString(ref))
    return {
      rule: 'RPR-QUAR-005',
      message: `a quarantine-${decision} entry must name its case by the opening entry's hash (body.case)`,
    };
  if (e.body['decision'] !== decision)
    return {
      rule: 'RPR-QUAR-005',
      message: `body.decision must be "${decision}"`,
      expected: decision,
      actual: String(e.body['decision']),
    };
  const c = byHash.get(ref);
  if (!c)
    return { rule: 'RPR-QUAR-001', message: `no quarantine case was opened by entry ${ref} before this ${decision}` };
  const t = TRANSITIONS[decision];
  if (!t.from.includes(c.state))
    return {
      rule: 'RPR-QUAR-002',
      message: `${c.caseId} is ${c.state}; ${decision} is allowed only from ${t.from.join(' or ')}`,
      expected: t.from.join('|'),
      actual: c.state,
    };
  const who = deciderProblem(e.author, e.body['rationale'], decision, c.caseId, trustStore, when);
  if (who) return who;
  if (e.subject.claimRef !== c.subject.claimRef || e.subject.artifact !== c.subject.artifact)
    return {
      rule: 'RPR-QUAR-007',
      message: `the subject of this ${decision} differs from ${c.caseId}'s`,
      expected: c.subject.claimRef,
      actual: e.subject.claimRef,
    };
  return null;
}

/**
 * Finds a case by `case-N`, `N` or the opening entry's hash. N as the case is named, without
 * leading zeros: an officer's command names one case in one spelling (`case-00` is none).
 */
export function findCase(cases: readonly CaseState[], ref: string): CaseState | undefined {
  const m = /^(?:case-)?(0|[1-9]\d*)$/.exec(ref);
  if (m) return cases.find((c) => c.openSeq === Number(m[1]));
  return cases.find((c) => c.openHash === ref);
}

/**
 * The quarantine workflow's rules for an entry about to be appended (spec journal.md, "Roles
 * and the quarantine workflow"). The writer applies them itself, under its lock, to every
 * `quarantine-*` entry whoever asks for it (openCase, decideCase, or any caller of
 * `JournalWriter.append` or `appendEntry`), so no entry the case fold would refuse is ever
 * signed, and the sealed state's list of quarantine seqs names only transitions that held
 * when they were written (trusted-state.ts). The rules are the fold's own (cases.ts), asked
 * of a new entry: whatever the writer accepts, `journal verify` accepts.
 */
import { parseCanonical } from '../core/jcs.js';
import type { TrustStore } from '../core/keys.js';
import {
  checkRationale,
  decisionOfKind,
  transitionProblem,
  type CaseFold,
  type HashedEntry,
  type Problem,
} from './cases.js';
import { claimRefProblem } from './claim-ids.js';
import { checkEntryShape, entryHash, type Entry, type JsonObject, type Subject } from './format.js';

/**
 * The writer's quarantine lines as hashed entries, the case fold's input (skipping damaged
 * lines: verify reports those). The seqs come from the writer's state, which is sealed
 * (trusted-state.ts: a list edited to drop a transition is not trusted, and the journal is then
 * verified and folded in full). What can be checked here cheaply is checked too: a seq listed
 * twice or out of order, or a line that is not a quarantine entry with that seq, is not folded
 * (it is no transition of this journal), so no list can add to a case's history.
 */
export function hashedQuarantine(lines: readonly { seq: number; text: string }[]): HashedEntry[] {
  const out: HashedEntry[] = [];
  let last = -1;
  for (const { seq, text } of lines) {
    if (seq <= last) continue;
    last = seq;
    try {
      const p = parseCanonical(text);
      const v = p.value as Entry;
      if (
        p.warnings.length === 0 &&
        checkEntryShape(v, '').length === 0 &&
        v.seq === seq &&
        v.kind.startsWith('quarantine-')
      )
        out.push({ entry: v, hash: entryHash(v), line: seq + 1 });
    } catch {
      /* damaged line: not a transition */
    }
  }
  return out;
}

/** A quarantine entry about to be signed: its kind, subject and body, and its author's key id. */
export interface CaseEntry {
  kind: string;
  subject: Subject;
  body: JsonObject;
  author: string;
}

/**
 * Why a new case may not be opened by `e`, or null: a reason, held to the one rationale rule a
 * decision's rationale is (RPR-QUAR-005 when it is missing or blank, RPR-QUAR-004 when it lacks
 * content: the spec asks nothing of it, and "drift seen" tells the officer nothing to check),
 * and a claim id in the form claims are compared in (RPR-QUAR-008, claim-ids.ts). The
 * fold asks neither of an opening the journal holds: one signed under the looser rule stands.
 */
export function openProblem(e: Pick<CaseEntry, 'subject' | 'body'>): Problem | null {
  const claim = claimRefProblem(e.subject.claimRef);
  if (claim) return claim;
  const reason = e.body['reason'];
  if (typeof reason !== 'string' || reason.trim() === '')
    return { rule: 'RPR-QUAR-005', message: 'a quarantine-open entry needs a reason (body.reason, not blank)' };
  const why = checkRationale(reason, 'new');
  return why ? { rule: 'RPR-QUAR-004', message: `a case's reason is held to the rationale rule: ${why}` } : null;
}

/**
 * Why `e` may not be appended onto a journal whose cases fold to `fold`, or null. An opening
 * needs what `openProblem` asks (any key may open a case, as routing does). A decision needs
 * everything `transitionProblem` asks of a new one: the case it names, a state it may leave,
 * the signer's role and active status, a rationale of real content, the case's subject. Roles
 * are in the trust store alone, so without one no decision is signed: the writer could not
 * tell an officer from a reviewer, and a release it signed blind would fail RPR-QUAR-003.
 */
export function caseEntryProblem(e: CaseEntry, fold: CaseFold, trust: TrustStore | null): Problem | null {
  if (e.kind === 'quarantine-open') return openProblem(e);
  const decision = decisionOfKind(e.kind);
  if (!decision) return { rule: 'RPR-QUAR-005', message: `${e.kind} is no quarantine transition` };
  if (!trust)
    return {
      rule: 'RPR-QUAR-003',
      message: `a ${decision} is signed only with a trust store, which names the roles that may sign it; none was given`,
    };
  const byHash = new Map(fold.cases.map((c) => [c.openHash, c]));
  return transitionProblem(e, decision, byHash, trust, 'new');
}

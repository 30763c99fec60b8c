/**
 * What the journal does with a claim id that may draw as another claim's (RPR-QUAR-008,
 * docs/journal.md, "Claim ids"); which ids those are is shared/claim-id.ts's rule alone. The
 * writer signs no new entry naming such an id as its own claim: every kind but a quarantine
 * decision, which names the claim its case recorded (RPR-QUAR-007), so a case already held
 * under such an id can still be decided. `journal verify` warns of each one a journal holds
 * (written before the rule, or by another tool), once per distinct id, in bounded memory, and
 * `quarantine list|show` and the workbench's journal view give that same warning.
 */
import { CLAIM_ID_RULE, claimIdProblem, shownClaimId } from '../../shared/claim-id.js';
import type { Finding } from '../../shared/report.js';
import { FINDINGS_LIMIT, MAX_FINDINGS_PER_RULE, warning } from '../core/findings.js';
import { sha256Hex } from '../core/hash.js';
import { boundedIdParts, MAX_ARTIFACT_ID_CHARS } from '../core/report.js';
import { decisionOfKind, type Problem } from './cases.js';
import type { Subject } from './format.js';

/** RPR-QUAR-008 for a claim id about to be signed, in the words every refusal of it uses; null when it is in form. */
export function claimRefProblem(id: unknown): Problem | null {
  // A claim id that is no string is the subject's shape, which the writer refuses first (checkInput).
  const why = typeof id === 'string' ? claimIdProblem(id) : null;
  return why ? { rule: CLAIM_ID_RULE, message: `the claim id ${why}: it would draw as another claim's` } : null;
}

/**
 * Why a new entry of `kind` may not carry `subject`'s claim id, or null. A quarantine decision
 * is not asked: it must carry its case's subject (transitionProblem, RPR-QUAR-007), whatever
 * form the journal recorded it in, or the officer could not release a claim held under it.
 */
export function newEntryClaimProblem(e: { kind: string; subject: Subject }): Problem | null {
  return decisionOfKind(e.kind) === undefined ? claimRefProblem(e.subject.claimRef) : null;
}

/**
 * The claim id as a finding's message quotes it, whichever rule's it is: escaped (shownClaimId),
 * so edge whitespace and a form other than NFC show as escapes where the printer would escape
 * only controls; beyond MAX_ARTIFACT_ID_CHARS, its start, its length and its SHA-256, as a
 * report bounds an artifact's id (app/core/report.ts).
 */
export function claimIdInFinding(id: string): string {
  const cut = boundedIdParts(id);
  return cut ? shownClaimId(cut.start) + cut.rest : shownClaimId(id);
}

/** A claim id read: the first entry naming it, and how many do. */
interface Held {
  line: number;
  kind: string;
  why: string;
  shown: string;
  count: number;
}

/**
 * RPR-QUAR-008 in `journal verify`: one warning per distinct claim id out of form, at the first
 * entry naming it, with how many entries do. Memory: at most `max` ids held (the findings a
 * rule keeps, `--limit findings-per-rule`), each keyed by the id or, when long, its hash; the
 * entries naming ids beyond them are counted in one RPR-REPORT-001, as any list counts what
 * it leaves out (app/core/findings.ts).
 */
export class LookalikeClaims {
  private readonly held = new Map<string, Held>();
  private beyond: { count: number; line: number } | null = null;

  constructor(private readonly max: number = MAX_FINDINGS_PER_RULE) {}

  /** Reads one entry's claim id (its 1-based line). */
  step(e: { kind: string; subject: Subject }, line: number): void {
    const id = e.subject.claimRef;
    const key = id.length <= MAX_ARTIFACT_ID_CHARS ? id : `sha256:${sha256Hex(id)}`;
    const known = this.held.get(key);
    if (known) return void known.count++;
    const why = claimIdProblem(id);
    if (why === null) return;
    if (this.held.size < this.max)
      this.held.set(key, { line, kind: e.kind, why, shown: claimIdInFinding(id), count: 1 });
    else if (this.beyond) this.beyond.count++;
    else this.beyond = { count: 1, line };
  }

  /** The warnings, in the order their ids first appear. */
  findings(): Finding[] {
    const out = [...this.held.values()].map(heldFinding);
    if (this.beyond) out.push(beyondFinding(this.beyond, this.max));
    return out;
  }
}

function heldFinding(h: Held): Finding {
  const more = h.count > 1 ? ` (${h.count} entries name it, this one first)` : '';
  return warning(
    CLAIM_ID_RULE,
    `entry at line ${h.line} (${h.kind}): the claim id "${h.shown}" ${h.why}, so it may draw as another claim's${more}: read it as shown here, escaped. The writer signs no new entry naming it but a decision on a case opened under it`,
    { pointer: `line:${h.line}`, actual: h.shown },
  );
}

function beyondFinding(b: { count: number; line: number }, max: number): Finding {
  return {
    rule: 'RPR-REPORT-001',
    severity: 'warning',
    message: `${b.count} more entr${b.count === 1 ? 'y' : 'ies'} of ${CLAIM_ID_RULE}, from line ${b.line} on, name claim ids out of form beyond the first ${max} listed, and were left out (--limit ${FINDINGS_LIMIT}=N lists more)`,
    pointer: `line:${b.line}`,
    actual: { rule: CLAIM_ID_RULE, count: b.count },
  };
}

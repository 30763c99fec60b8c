/**
 * `reprise quarantine open|list|show|release|uphold|escalate DIR …`: quarantine cases in an
 * evidence journal. Transitions are signed entries; release needs a quarantine-officer
 * key (checked in --trust-store) and a rationale of real content (docs/journal.md).
 * Exit codes: list/show give the journal's verdict (0, 1, 2); a refused transition exits 1,
 * whether the workflow refuses it (role, rationale, state) or the journal cannot be signed onto
 * (it does not verify, or a crash left a torn tail); usage (a case the journal does not hold
 * among it), lock and I/O errors exit 3.
 */
import { FileReadError, readFailure, readUtf8File } from '../../core/files.js';
import { EXIT, exitOfVerdict, verdictOf, type ExitCode, type Finding } from '../../../shared/report.js';
import { isHashString } from '../../core/hash.js';
import { loadSigner, loadTrustStore } from '../../core/keys.js';
import { findCase, MIN_RATIONALE_CHARS, type CaseState, type Decision } from '../../journal/cases.js';
import { JournalError } from '../../journal/errors.js';
import { decideCase, listCases, openCase } from '../../journal/quarantine.js';
import type { JournalVerification } from '../../journal/verify.js';
import { parse } from '../args.js';
import type { CliIO, Command } from '../io.js';
import { formatFinding, safeText } from '../../engine/report-text.js';
import { jsonShown, safeIdentifier, safeNoteText } from '../../core/text.js';
import { warning } from '../../core/findings.js';
import { CLAIM_ID_RULE, claimIdProblem, shownClaimId } from '../../../shared/claim-id.js';
import { formatError } from '../output.js';
import { INFO, quarantineUsage } from './info.js';
import { UsageError } from '../../core/errors.js';

const USAGE = quarantineUsage(MIN_RATIONALE_CHARS);

function need(v: unknown, flag: string): string {
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${flag} is required\nusage: ${USAGE}`);
  return v;
}

function caseLine(c: CaseState): string {
  const last = c.history[c.history.length - 1]!;
  // The claim and artifact as identifiers: two claims that differ by an invisible character, edge
  // whitespace or normalization must not print alike (shared/claim-id.ts).
  const subject = `${shownClaimId(c.subject.claimRef)}${c.subject.artifact ? ` ${safeIdentifier(c.subject.artifact)}` : ''}`;
  const rest = safeText(
    `opened ${c.openedAtUtc} (${c.source}); last ${last.decision} ${last.atUtc} by ${last.author.slice(0, 20)}…`,
  );
  return `${safeText(c.caseId).padEnd(10)} ${safeText(c.state).padEnd(9)} ${subject}  ${rest}`;
}

function caseDetail(c: CaseState): string {
  const lines = [caseLine(c), `  opening entry ${safeText(c.openHash)}`];
  // The evidence as its entry signed it: JSON text of the canonical form read, so every number is
  // the one signed, with its invisible characters escaped as --json writes them.
  if (c.evidence !== null) lines.push(`  evidence ${jsonShown(JSON.stringify(c.evidence))}`);
  // The rationale keeps its own line breaks (indented); every other control, and every invisible
  // character (hidden tags, variation selectors, ZWJ…), is escaped as a note's: the signature covers them.
  for (const h of c.history)
    lines.push(
      `  seq ${h.seq}  ${safeText(h.decision).padEnd(8)} ${safeText(h.atUtc)}  ${safeText(h.author)}\n      ${h.text.split('\n').map(safeNoteText).join('\n      ')}`,
    );
  return lines.join('\n') + '\n';
}

async function openCmd(args: string[], io: CliIO): Promise<ExitCode> {
  const { values, positionals } = parse(
    args,
    {
      claim: { type: 'string' },
      artifact: { type: 'string' },
      reason: { type: 'string' },
      key: { type: 'string' },
      'trust-store': { type: 'string' },
      json: { type: 'boolean' },
    },
    USAGE,
  );
  if (positionals.length !== 1) throw new UsageError(`quarantine open takes one DIR\nusage: ${USAGE}`);
  const artifact = values['artifact'];
  if (artifact !== undefined && !isHashString(artifact))
    throw new UsageError('--artifact takes a sha256:<64 lowercase hex> hash');
  const reason = need(values['reason'], 'reason');
  const signer = await loadSigner(need(values['key'], 'key'));
  // With the trust store, every author's signature is checked before the case is signed onto the journal.
  const trustStore = typeof values['trust-store'] === 'string' ? await loadTrustStore(values['trust-store']) : null;
  const r = await openCase(
    positionals[0]!,
    {
      claimRef: need(values['claim'], 'claim'),
      ...(typeof artifact === 'string' ? { artifact } : {}),
      reason,
      source: 'manual',
    },
    signer,
    { trustStore },
  );
  if (values['json'])
    io.out(
      jsonShown(
        JSON.stringify(
          { caseId: r.caseId, seq: r.seq, entryHash: r.entryHash, checkpoint: r.checkpoint, case: r.case },
          null,
          2,
        ),
      ) + '\n',
    );
  else
    io.out(
      `opened ${r.caseId} (seq ${r.seq}, entry ${r.entryHash}); checkpoint tree ${r.checkpoint.treeSize} root ${r.checkpoint.rootHash}\n`,
    );
  return EXIT.pass;
}

/** A finding as list/show report it: with the case whose entry it points at (opened or decided there), when one does. */
type CaseFinding = Finding & { caseId?: string };

/**
 * The case a finding concerns: the one the entry at its line opened or names (`body.case`).
 * An unacknowledged release (RPR-JOURNAL-020) is then said of the case it released, not only
 * of a line number.
 */
function withCase(f: Finding, v: JournalVerification, cases: readonly CaseState[]): CaseFinding {
  const line = /^line:(\d+)$/.exec(f.pointer ?? '');
  const p = line ? v.entries.find((e) => e.line === Number(line[1])) : undefined;
  if (!p || !p.entry.kind.startsWith('quarantine-')) return f;
  const opened = p.entry.kind === 'quarantine-open' ? p.hash : p.entry.body['case'];
  const c = cases.find((x) => x.openHash === opened);
  return c ? { ...f, caseId: c.caseId } : f;
}

/**
 * A warning for each case whose claim id breaks the form a new case's must have (RPR-QUAR-008):
 * a journal written before the rule, or by another tool, may hold one, and it is listed under
 * its escape, which the warning explains, so that it is not taken for the claim it draws as.
 */
function claimIdWarnings(cases: readonly CaseState[]): CaseFinding[] {
  return cases.flatMap((c) => {
    const why = claimIdProblem(c.subject.claimRef);
    if (!why) return [];
    const message = `the claim id of ${c.caseId} ${why}, so it may draw as another claim's: read it as listed, escaped (no new case is opened for such an id)`;
    return [{ ...warning(CLAIM_ID_RULE, message, { pointer: `line:${c.openSeq + 1}` }), caseId: c.caseId }];
  });
}

/** What the journal's findings say of the cases listed, on stderr: its fails, unavailables and warnings, each with its case. */
function caveats(findings: readonly CaseFinding[], verdict: string): string {
  if (findings.length === 0) return '';
  const head =
    verdict === 'pass'
      ? `journal verdict PASS with ${findings.length} warning${findings.length === 1 ? '' : 's'}: read the case states below with them`
      : `journal verdict ${verdict.toUpperCase()}: the case states below are only as good as the journal`;
  const lines = findings.map(
    (f) => formatFinding(f) + (f.caseId ? `\n${' '.repeat(14)}concerns ${safeText(f.caseId)}` : ''),
  );
  return `${head}\n${lines.join('\n')}\n`;
}

async function listOrShow(args: string[], io: CliIO, show: boolean): Promise<ExitCode> {
  const { values, positionals } = parse(
    args,
    { 'trust-store': { type: 'string' }, state: { type: 'string' }, json: { type: 'boolean' } },
    USAGE,
  );
  if (positionals.length !== (show ? 2 : 1))
    throw new UsageError(`quarantine ${show ? 'show takes DIR CASE' : 'list takes one DIR'}\nusage: ${USAGE}`);
  const state = values['state'];
  if (state !== undefined && !['open', 'escalated', 'released', 'upheld'].includes(state as string))
    throw new UsageError('--state must be open, escalated, released or upheld');
  const trust = typeof values['trust-store'] === 'string' ? await loadTrustStore(values['trust-store']) : null;
  const { cases, verification } = await listCases(positionals[0]!, trust);
  if (
    verification.entryLines === 0 &&
    verification.findings.some((f) => f.rule === 'RPR-JOURNAL-001' && f.pointer === 'entry:entries.jsonl')
  )
    throw new UsageError(`${positionals[0]!} is not a journal (no entries.jsonl)`);
  const verdict = verdictOf(verification.findings);
  let selected = cases.filter((c) => state === undefined || c.state === state);
  if (show) {
    const c = findCase(cases, positionals[1]!);
    if (!c) throw new UsageError(`no quarantine case ${positionals[1]!} in ${positionals[0]!}`);
    selected = [c];
  }
  // Beside the journal's findings, not in its verdict: the journal is sound, the id only misleads a reader.
  const ofCases = claimIdWarnings(selected);
  const warned = new Set(ofCases.map((f) => f.pointer));
  // Warnings too: a release whose checkpoint never came (RPR-JOURNAL-020) is listed released, and must
  // not read as settled; and `journal verify`'s own RPR-QUAR-008 warnings, once per distinct claim id out
  // of form whatever entry names it (app/journal/claim-ids.ts), but at an entry a case's own warning
  // already names (its opening), which would say it twice.
  const problems = [...verification.findings, ...verification.claimIds.filter((f) => !warned.has(f.pointer))]
    .filter((f) => f.severity !== 'info')
    .map((f) => withCase(f, verification, cases));
  problems.push(...ofCases);
  // JSON keeps every text as recorded (JSON.parse gives it back) and writes its invisible characters as escapes.
  if (values['json'])
    io.out(
      jsonShown(
        JSON.stringify(
          show ? { verdict, case: selected[0], findings: problems } : { verdict, cases: selected, findings: problems },
          null,
          2,
        ),
      ) + '\n',
    );
  else {
    const said = caveats(problems, verdict);
    if (said !== '') io.err(said);
    if (show) io.out(caseDetail(selected[0]!));
    else io.out(selected.length === 0 ? 'no cases\n' : selected.map(caseLine).join('\n') + '\n');
  }
  return exitOfVerdict(verdict);
}

async function decideCmd(decision: Decision, args: string[], io: CliIO): Promise<ExitCode> {
  const { values, positionals } = parse(
    args,
    {
      rationale: { type: 'string' },
      'rationale-file': { type: 'string' },
      key: { type: 'string' },
      'trust-store': { type: 'string' },
      json: { type: 'boolean' },
    },
    USAGE,
  );
  if (positionals.length !== 2) throw new UsageError(`quarantine ${decision} takes DIR CASE\nusage: ${USAGE}`);
  let rationale: string;
  // What to say about the rationale file once the decision is signed (its byte order mark), if anything.
  let afterSigning: string | null = null;
  if (typeof values['rationale'] === 'string' && typeof values['rationale-file'] === 'string')
    throw new UsageError('--rationale and --rationale-file exclude each other');
  if (typeof values['rationale-file'] === 'string') {
    try {
      const said = (line: string): void => void (afterSigning = line);
      rationale = await readUtf8File(values['rationale-file'], '--rationale-file', undefined, said);
    } catch (e) {
      if (e instanceof UsageError && !(e instanceof FileReadError)) throw e;
      throw new UsageError(`cannot read ${values['rationale-file']}: ${readFailure(e)}`, 'path');
    }
  } else rationale = typeof values['rationale'] === 'string' ? values['rationale'] : '';
  const trust = await loadTrustStore(need(values['trust-store'], 'trust-store'));
  const signer = await loadSigner(need(values['key'], 'key'));
  let r;
  try {
    r = await decideCase(positionals[0]!, positionals[1]!, decision, rationale, signer, trust);
  } catch (e) {
    // Refusals, all exit 1: the workflow's, a journal that does not verify, and a torn tail,
    // which nothing may be signed onto until `journal repair` (its message says so).
    if (e instanceof JournalError && (e.code === 'REFUSED' || e.code === 'UNVERIFIED' || e.code === 'TORN')) {
      io.err(formatError(e.code === 'TORN' ? `${decision} refused, nothing was signed: ${e.message}` : e.message));
      return EXIT.fail;
    }
    throw e;
  }
  if (afterSigning !== null) io.err(formatError(`note: ${afterSigning}`));
  if (values['json'])
    io.out(
      JSON.stringify(
        { caseId: r.caseId, state: r.case.state, seq: r.seq, entryHash: r.entryHash, checkpoint: r.checkpoint },
        null,
        2,
      ) + '\n',
    );
  else
    io.out(
      `${r.caseId} is now ${r.case.state} (seq ${r.seq}, entry ${r.entryHash}); checkpoint tree ${r.checkpoint.treeSize} root ${r.checkpoint.rootHash}\n`,
    );
  return EXIT.pass;
}

export const quarantineCommand: Command = {
  ...INFO.quarantine,
  usage: USAGE,
  async run(args, io) {
    const [sub, ...rest] = args;
    switch (sub) {
      case 'open':
        return openCmd(rest, io);
      case 'list':
        return listOrShow(rest, io, false);
      case 'show':
        return listOrShow(rest, io, true);
      case 'release':
      case 'uphold':
      case 'escalate':
        return decideCmd(sub, rest, io);
      default:
        throw new UsageError(
          `unknown quarantine subcommand ${sub === undefined ? '(none)' : JSON.stringify(sub)}\nusage: ${USAGE}`,
        );
    }
  },
};

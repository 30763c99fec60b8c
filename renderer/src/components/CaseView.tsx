import { useCallback, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { CaseArtifact, CaseJudgement, CaseLink, CaseReport, TimelineEvent } from '../../../shared/case';
import { escapeControls } from '../../../shared/controls';
import type { Finding, Verdict } from '../../../shared/report';
import { useCase } from '../case-store';
import { caseStanding, claimRefusal } from '../lib/note-rows';
import { VERDICT_LABEL } from '../lib/report-words';
import { useJudgement } from '../judgement-store';
import { CaseNeeds } from './CaseNeeds';
import { CaseNotes, CountsWords, EditRefused } from './CaseNotes';
import { CaseOpener } from './CaseOpener';
import { CaseTimeline } from './CaseTimeline';
import { ColumnFilter } from './ColumnFilter';
import { ColumnHeads } from './ColumnHeads';
import { RATIONALE_SHOWN, Shown } from './Shown';
import '../case.css';

const VERDICTS = ['fail', 'unavailable', 'pass'] as const;
const LINK_STATUSES = ['found', 'missing'] as const;

/** A count with its noun, singular for one ("1 artifact", "2 links"). */
const counted = (n: number, noun: string): string => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;

/** One progress over the whole case, and Cancel. */
function CaseProgress() {
  const { running, name, cancel, runMode } = useCase(
    useShallow((s) => ({ running: s.running, name: s.name, cancel: s.cancel, runMode: s.runMode })),
  );
  if (!running) return null;
  const pct = running.total ? Math.round((running.done / running.total) * 100) : 0;
  return (
    <div className="case-progress" role="status" data-testid="case-progress">
      <span>
        {runMode === 'replay' ? 'Replaying' : 'Verifying'} the case {name}… {running.done.toLocaleString('en')} of{' '}
        {running.total ? counted(running.total, 'artifact') : '? artifacts'}
      </span>
      <progress max={100} value={pct} aria-label="Case progress">
        {pct}%
      </progress>
      <button type="button" onClick={() => void cancel()} data-testid="case-cancel">
        Cancel
      </button>
    </div>
  );
}

function Counts({ c }: { c: CaseArtifact['counts'] }) {
  const parts = (['fail', 'unavailable', 'warning', 'info'] as const)
    .filter((k) => c[k] > 0)
    .map((k) => `${c[k]} ${k}`);
  return <>{parts.join(', ') || 'none'}</>;
}

/** Rows of each of the case's tables at most: a case of thousands is read through their filters. */
const MAX_ROWS = 300;

/** Says so when a table holds only the first MAX_ROWS of its rows. */
function Capped({ count, what, how, testId }: { count: number; what: string; how: string; testId: string }) {
  if (count <= MAX_ROWS) return null;
  return (
    <span className="muted" role="note" data-testid={testId}>
      Showing the first {MAX_ROWS.toLocaleString('en')} of {count.toLocaleString('en')} {what}: {how}.
    </span>
  );
}

interface RowActions {
  open: (a: CaseArtifact) => void;
  notesOn: string | null;
  notes: (path: string | null) => void;
}

function ArtifactRow({ a, act }: { a: CaseArtifact; act: RowActions }) {
  const on = act.notesOn === a.path;
  return (
    <tr data-artifact={a.path}>
      <td className="mono small">
        <button type="button" className="link" onClick={() => act.open(a)} title="Open it in the chain view">
          <Shown text={a.path} />
        </button>
      </td>
      <td className="small">{a.kind}</td>
      <td>
        <span className={`tag ${a.verdict}`} data-testid="case-artifact-verdict">
          {a.verdict}
        </span>
      </td>
      <td className="small">
        <Counts c={a.counts} />
      </td>
      <td>
        <button
          type="button"
          aria-pressed={on}
          onClick={() => act.notes(on ? null : a.path)}
          aria-label={`Notes on ${escapeControls(a.path)}`}
        >
          Notes
        </button>
      </td>
    </tr>
  );
}

/** The artifacts with kind and verdict, in landing order while the case runs; filtered by verdict. */
function Artifacts({ list, act }: { list: readonly CaseArtifact[]; act: RowActions }) {
  const [verdict, setVerdict] = useState<string | undefined>(undefined);
  const shown = useMemo(() => (verdict ? list.filter((a) => a.verdict === verdict) : list), [list, verdict]);
  return (
    <>
      <div className="toolbar">
        <ColumnFilter label="Verdict" testId="case-verdict-filter" options={VERDICTS} apply={setVerdict} />
        <Capped
          count={shown.length}
          what="artifacts"
          how="filter by verdict to narrow them"
          testId="case-artifacts-cap"
        />
      </div>
      <table className="grid case-artifacts" data-testid="case-artifacts">
        <caption className="case-caption">Artifacts ({list.length.toLocaleString('en')})</caption>
        <ColumnHeads names={['Artifact', 'Kind', 'Verdict', 'Findings', 'Notes']} />
        <tbody>
          {shown.slice(0, MAX_ROWS).map((a) => (
            <ArtifactRow key={a.path} a={a} act={act} />
          ))}
        </tbody>
      </table>
    </>
  );
}

/**
 * A reviewer's append-only notes on one artifact (CaseNotes), written in the journal the
 * reviewer works in (the header's); the case's own notes on it are listed with them.
 */
function ArtifactNotes({
  a,
  judgements,
  artifacts,
}: {
  a: CaseArtifact;
  judgements: readonly CaseJudgement[];
  artifacts: readonly CaseArtifact[];
}) {
  const work = useJudgement((s) => s.work);
  const verdicts = useMemo(() => new Map(artifacts.map((x) => [x.path, x.verdict])), [artifacts]);
  // A note names its subject by the bytes' SHA-256: an artifact whose files could not be read has none to name.
  if (a.sha256 === null)
    return (
      <p className="muted" data-testid="case-notes-closed">
        No note can be added on <Shown text={a.path} />: its files could not be read after its verification, so the case
        has no SHA-256 to name it by (the case's findings say why).
      </p>
    );
  if (!work)
    return (
      <p className="muted" data-testid="case-notes-closed">
        To add a note on <Shown text={a.path} />, open the journal you work in (the journal header above).
      </p>
    );
  // Keyed by journal and artifact: a draft, the notes signed here and a listing are of that pair alone.
  return (
    <CaseNotes
      key={`${work.dir}\n${a.sha256}`}
      journal={work}
      artifact={a.sha256}
      name={a.path}
      notes={judgements}
      verdicts={verdicts}
    />
  );
}

/**
 * The case finding that reports a missing link (RPR-CASE-001: at `entry:` the artifact naming
 * it, `expected` the value named, `actual` the field naming it): two artifacts may name one value.
 */
function findingFor(l: CaseLink, findings: readonly Finding[]): Finding | undefined {
  return findings.find(
    (f) =>
      f.rule === 'RPR-CASE-001' &&
      f.pointer === `entry:${l.from.artifact}` &&
      f.expected === l.value &&
      (f.actual === undefined || f.actual === l.from.pointer),
  );
}

function LinkRow({ l, findings }: { l: CaseLink; findings: readonly Finding[] }) {
  const f = l.status === 'missing' ? findingFor(l, findings) : undefined;
  return (
    <tr className={l.status} data-testid={`case-link-${l.status}`}>
      <td className="mono small">
        <Shown text={l.from.artifact} />
        <br />
        <span className="muted">
          <Shown text={l.from.pointer} />
        </span>
      </td>
      <td className="small">{l.relation}</td>
      <td className="mono small case-value" title={escapeControls(l.value)}>
        <Shown text={l.value} />
      </td>
      <td className="mono small">
        {l.to.artifact !== null ? (
          <>
            <Shown text={l.to.artifact} />
            {l.to.pointer && (
              <span className="muted">
                {' '}
                <Shown text={l.to.pointer} />
              </span>
            )}
          </>
        ) : (
          <>
            <span className="sev fail">missing</span>
            {f && (
              <span>
                {' '}
                {f.rule} ({f.severity})
              </span>
            )}
          </>
        )}
      </td>
    </tr>
  );
}

/** The links found by content: which field of which artifact made each; a missing target is shown as missing. */
function Links({ links, findings }: { links: readonly CaseLink[]; findings: readonly Finding[] }) {
  const [status, setStatus] = useState<string | undefined>(undefined);
  const shown = useMemo(() => (status ? links.filter((l) => l.status === status) : links), [links, status]);
  if (links.length === 0) return <p className="muted">No link between the artifacts of this case.</p>;
  return (
    <>
      <div className="toolbar">
        <ColumnFilter label="Link status" testId="case-link-filter" options={LINK_STATUSES} apply={setStatus} />
        <Capped count={shown.length} what="links" how="filter by status to narrow them" testId="case-links-cap" />
      </div>
      <table className="grid case-links" data-testid="case-links">
        <caption className="case-caption">
          Links ({links.filter((l) => l.status === 'found').length} found,{' '}
          {links.filter((l) => l.status === 'missing').length} missing)
        </caption>
        <ColumnHeads names={['From (artifact, field)', 'Relation', 'Value', 'To']} />
        <tbody>
          {shown.slice(0, MAX_ROWS).map((l, i) => (
            <LinkRow key={i} l={l} findings={findings} />
          ))}
        </tbody>
      </table>
    </>
  );
}

/**
 * What a listed judgement rests on: the verification of the journal it is in. A journal that
 * fails (an entry edited after it was signed) or could not be decided (no trust store) still
 * has its judgements listed, since nothing recorded is hidden, but never as proven.
 */
function JournalStanding({ verdict }: { verdict: Verdict | undefined }) {
  if (verdict === 'pass') return <span className="muted small">journal verified</span>;
  const why = verdict === 'fail' ? 'journal FAILS verification' : 'journal not verified (UNAVAILABLE)';
  return (
    <span className={`sev ${verdict ?? 'unavailable'}`} data-testid="case-judgement-unproven">
      {why}: not proven
    </span>
  );
}

/**
 * A decision as it stands: whether it counts (the case's `standing` and `problem`, in the notes
 * list's words), and for an edit whether it replaces the note it names (one that does not
 * count, is not proven or whose signer was not judged replaces nothing).
 */
function Decision({ j, verdict }: { j: CaseJudgement; verdict: Verdict | undefined }) {
  const standing = caseStanding(j, verdict);
  const refused = j.supersedes ? claimRefusal(standing) : null;
  return (
    <>
      <strong>
        <Shown text={j.decision} />
      </strong>
      {j.supersedes && refused === null && <span className="muted small"> (supersedes an earlier note)</span>}
      <CountsWords standing={standing} testIds="case-judgement" />
      {refused !== null && <EditRefused why={refused} testId="case-judgement-edit-refused" />}
    </>
  );
}

function JudgementRow({ j, verdict }: { j: CaseJudgement; verdict: Verdict | undefined }) {
  return (
    <tr>
      <td className="mono small">
        {j.artifact !== null ? (
          <Shown text={j.artifact} />
        ) : (
          <span title={escapeControls(j.subject)}>not in the case</span>
        )}
      </td>
      <td>
        <Decision j={j} verdict={verdict} />
      </td>
      <td>
        <Shown text={j.rationale} {...RATIONALE_SHOWN} />
      </td>
      <td className="mono small">
        <Shown text={j.author} />
        <br />
        <Shown text={j.atUtc} />
      </td>
      <td className="mono small">
        <Shown text={j.journal} /> #{j.seq}
        <br />
        <JournalStanding verdict={verdict} />
      </td>
    </tr>
  );
}

/** The judgements (and reviewers' notes) the case's journals hold on its artifacts. */
function Judgements({ list, artifacts }: { list: readonly CaseJudgement[]; artifacts: readonly CaseArtifact[] }) {
  const verdicts = useMemo(() => new Map(artifacts.map((a) => [a.path, a.verdict])), [artifacts]);
  if (list.length === 0) return <p className="muted">No judgement on an artifact of this case.</p>;
  return (
    <table className="grid case-judgements" data-testid="case-judgements">
      <caption className="case-caption">
        Judgements ({list.length})
        {list.length > MAX_ROWS && `: the first ${MAX_ROWS} shown, the case report lists every one`}
      </caption>
      <ColumnHeads names={['Artifact', 'Decision', 'Rationale', 'Author, time', 'Journal entry']} />
      <tbody>
        {list.slice(0, MAX_ROWS).map((j) => (
          <JudgementRow key={`${j.journal}#${j.seq}`} j={j} verdict={verdicts.get(j.journal)} />
        ))}
      </tbody>
    </table>
  );
}

function CaseFindings({ findings }: { findings: readonly Finding[] }) {
  if (findings.length === 0) return null;
  return (
    <ul className="case-findings" data-testid="case-findings" aria-label="Findings of the case">
      {findings.map((f, i) => (
        <li key={i}>
          <span className={`sev ${f.severity}`}>{f.severity}</span> <strong className="mono">{f.rule}</strong>{' '}
          <Shown text={f.message} />
        </li>
      ))}
    </ul>
  );
}

/** How the case on screen was run: as it ran here, or as a saved case report says (those of older versions do not). */
function RunWords({ report }: { report: CaseReport }) {
  const ranHere = useCase((s) => s.runMode);
  const runMode = ranHere ?? report.mode ?? null;
  if (runMode === null) return null;
  return (
    <p className="muted small" data-testid="case-run-mode">
      {runMode === 'replay'
        ? `Replayed: each artifact was verified and what can be re-executed was${ranHere ? '; its artifacts open replayed' : ''}.`
        : `Verified: nothing was re-executed.${ranHere ? ' Choose "replayed" above and open the case again to re-execute.' : ''}`}
    </p>
  );
}

/** The case's verdict, its findings, links, judgements and timeline (exported for test/renderer/case-view-shown.test.ts). */
export function CaseResult({ report, openEvent }: { report: CaseReport; openEvent: (e: TimelineEvent) => void }) {
  const lacking = useMemo(
    () => report.findings.filter((f) => f.rule === 'RPR-CASE-004').map((f) => f.pointer?.slice('entry:'.length) ?? ''),
    [report],
  );
  return (
    <>
      <h3 id="case-verdict" tabIndex={-1} className={`case-verdict ${report.verdict}`} data-testid="case-verdict">
        Case: {VERDICT_LABEL[report.verdict]} · {counted(report.artifacts.length, 'artifact')} ·{' '}
        {counted(report.links.length, 'link')} · {counted(report.timeline.length, 'event')}
      </h3>
      <RunWords report={report} />
      <CaseNeeds list={report.artifacts} />
      <CaseFindings findings={report.findings} />
      <h3>Links</h3>
      <Links links={report.links} findings={report.findings} />
      <h3>Judgements</h3>
      <Judgements list={report.judgements} artifacts={report.artifacts} />
      <h3 id="case-timeline-h">Timeline</h3>
      <CaseTimeline events={report.timeline} open={openEvent} lacking={lacking} />
    </>
  );
}

/** The reviewer's case: open a folder, watch its verdicts land, then its links, judgements and timeline. */
export function CaseView() {
  const { name, landed, report, error, note, notesOn, showNotes, openArtifact } = useCase(
    useShallow((s) => ({
      name: s.name,
      landed: s.landed,
      report: s.report,
      error: s.error,
      note: s.note,
      notesOn: s.notesOn,
      showNotes: s.showNotes,
      openArtifact: s.openArtifact,
    })),
  );
  // The case's own artifact at that path (the store closes the notes when another case opens).
  const notesOf = useMemo(
    () => (notesOn === null ? null : (landed.find((a) => a.path === notesOn) ?? null)),
    [landed, notesOn],
  );
  const act: RowActions = {
    open: (a) => void openArtifact(a.path, null, null),
    notesOn,
    notes: showNotes,
  };
  const openEvent = useCallback((e: TimelineEvent) => void openArtifact(e.artifact, e.node, e.pointer), [openArtifact]);
  return (
    <section className="panel case-view" aria-labelledby="case-h">
      <h2 id="case-h">
        Case
        {name && (
          <>
            : <Shown text={name} />
          </>
        )}
      </h2>
      <CaseOpener />
      <CaseProgress />
      {error && (
        <p role="alert" className="error" id="case-error" tabIndex={-1} data-testid="case-error">
          <Shown text={error} />
        </p>
      )}
      {note && (
        <p className="note" role="status" id="case-note" tabIndex={-1} data-testid="case-note">
          <Shown text={note} />
        </p>
      )}
      {landed.length > 0 && <Artifacts list={landed} act={act} />}
      {notesOf && (
        <ArtifactNotes a={notesOf} judgements={report?.judgements ?? []} artifacts={report?.artifacts ?? []} />
      )}
      {report && <CaseResult report={report} openEvent={openEvent} />}
    </section>
  );
}

import { Fragment, type ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Finding, JsonValue, Report } from '../../../shared/report';
import { useJudgement } from '../judgement-store';
import { focusWhenShown } from '../lib/focus';
import { useStore } from '../store';
import { ClaimWarned, Shown } from './Shown';

type Obj = { [k: string]: JsonValue };
const objs = (events: JsonValue[] | undefined): Obj[] =>
  (events ?? []).filter((e): e is Obj => typeof e === 'object' && e !== null && !Array.isArray(e));

/** The finding that decided a refusal: the first fail, else the first unavailable. */
function decisive(report: Report): { f: Finding; index: number } | null {
  for (const sev of ['fail', 'unavailable'] as const) {
    const index = report.findings.findIndex((f) => f.severity === sev);
    if (index >= 0) return { f: report.findings[index]!, index };
  }
  return null;
}

/** What a replay anchored: drift events, the cases it opened (each with its claim), the claims whose case was already open. */
type Anchoring = { drift: number; cases: { caseId: string; claim: JsonValue | undefined }[]; alreadyOpen: Obj[] };

/** A replay's routing events: drift anchored, cases opened, cases already open; null when it anchored nothing. */
export function anchoring(report: Report): Anchoring | null {
  const events = objs(report.events);
  const anchored = events.filter((e) => e['anchored'] === true);
  const a = {
    drift: events.filter((e) => typeof e['anchor'] === 'object' && e['anchor'] !== null).length,
    cases: anchored
      .filter((e) => typeof e['case'] === 'object' && e['case'] !== null)
      .map((e) => ({ caseId: String((e['case'] as Obj)['caseId']), claim: e['claimRef'] })),
    alreadyOpen: anchored.filter((e) => e['alreadyOpen'] === true),
  };
  return a.drift === 0 && a.cases.length === 0 && a.alreadyOpen.length === 0 ? null : a;
}

/**
 * The claim id a replay's event names, as the officer's views show it (ClaimWarned: escaped
 * where it breaks RPR-QUAR-008 or holds an invisible character, with the warning in words);
 * a value that is no text (an engine never writes one) as text.
 */
export function EventClaim({ claim }: { claim: JsonValue | undefined }) {
  return typeof claim === 'string' ? <ClaimWarned claim={claim} /> : <Shown text={String(claim ?? '—')} />;
}

/** Items joined as a sentence lists them: `a, b`. */
function Listed<T>({ items, each }: { items: T[]; each: (item: T) => ReactNode }) {
  return (
    <>
      {items.map((item, i) => (
        <Fragment key={i}>
          {i > 0 && ', '}
          {each(item)}
        </Fragment>
      ))}
    </>
  );
}

/**
 * What the replay anchored, in the journal its job was sent with (`journal`, the run's own
 * option), the one it wrote to, which is not always the one the header shows now. Each claim
 * is shown as the officer's views show it (EventClaim).
 */
export function AnchoredWords({ a, journal }: { a: Anchoring; journal: string | undefined }) {
  return (
    <>
      Anchored in the journal
      {journal ? (
        <>
          {' '}
          <Shown text={journal} />
        </>
      ) : null}
      : {a.drift} drift event(s)
      {a.cases.length > 0 && (
        <>
          ; Human Review case{' '}
          <Listed
            items={a.cases}
            each={(c) => (
              <>
                <Shown text={c.caseId} /> opened for <EventClaim claim={c.claim} />
              </>
            )}
          />
        </>
      )}
      {a.alreadyOpen.length > 0 && (
        <>
          ; a case was already open for{' '}
          <Listed items={a.alreadyOpen} each={(e) => <EventClaim claim={e['claimRef']} />} />
        </>
      )}
      .
    </>
  );
}

/** Options by name and value, as a sentence lists them: `trustStore /a/t.json, policy /a/p.json`. */
export function OptionsSaid({ entries }: { entries: [string, string][] }) {
  return (
    <>
      {entries.map(([k, v], i) => (
        <span key={k}>
          {i > 0 && ', '}
          {k}{' '}
          <span className="mono">
            <Shown text={v} />
          </span>
        </span>
      ))}
    </>
  );
}

/**
 * The options a link (or a case) pinned to the artifact: no field shows them, and every job
 * on it takes them. A pinned journal is where a replay reads its anchors; one that signs
 * runs only if it is the header's journal too (store.ts `signsElsewhere`).
 */
export function PinnedOptions({ pinned, asCaseRan }: { pinned?: Record<string, string>; asCaseRan?: boolean }) {
  const entries = Object.entries(pinned ?? {});
  if (entries.length === 0) return null;
  return (
    <p className="small" data-testid="replay-pinned">
      Opened from a {asCaseRan ? 'case' : 'link'} with <OptionsSaid entries={entries} />: every job on it takes{' '}
      {entries.length === 1 ? 'this option' : 'these options'}.
      {pinned?.['journal'] !== undefined &&
        ' A replay that signs runs only when this journal is also the one open in the header.'}
    </p>
  );
}

/**
 * What the replay did beyond its comparisons: refused (and why), or drift anchored in the
 * journal its job was sent with and the Human Review cases it opened (as `replay --journal DIR --key KEY`).
 */
export function ReplayNotes({ report }: { report: Report }) {
  const { reportMode, reportOptions, artifact, select, setView, loadJournal } = useStore(
    useShallow((s) => ({
      reportMode: s.reportMode,
      reportOptions: s.reportOptions,
      artifact: s.artifact,
      select: s.select,
      setView: s.setView,
      loadJournal: s.loadJournal,
    })),
  );
  const { work, keyPath } = useJudgement(useShallow((s) => ({ work: s.work, keyPath: s.keyPath })));
  const anchored = anchoring(report);
  const refused =
    reportMode === 'replay' && !(report.comparisons && report.comparisons.length > 0) && report.verdict !== 'pass'
      ? decisive(report)
      : null;
  const showFinding = (d: { f: Finding; index: number }): void => {
    const node = report.chain.find(
      (n) => n.pointer && d.f.pointer && (d.f.pointer === n.pointer || d.f.pointer.startsWith(n.pointer + '/')),
    );
    select({ findingIndex: d.index, pointer: d.f.pointer ?? null, nodeId: node?.id ?? null });
    setView('chain');
    focusWhenShown('selected-finding');
  };
  return (
    <>
      <PinnedOptions pinned={artifact?.pinned} {...(artifact?.asCaseRan ? { asCaseRan: true } : {})} />
      {refused && (
        <div role="alert" className="replay-refused" data-testid="replay-refused">
          <p>
            <strong>Replay was refused:</strong> nothing was re-executed, because verification found{' '}
            <span className="mono">{refused.f.rule}</span> ({refused.f.severity}): <Shown text={refused.f.message} />
          </p>
          <button type="button" onClick={() => showFinding(refused)} data-testid="replay-refused-finding">
            Show {refused.f.rule} in the chain
          </button>
        </div>
      )}
      {anchored && (
        <div role="status" className="replay-anchored" data-testid="replay-anchored">
          <p>
            <AnchoredWords a={anchored} journal={reportOptions['journal']} />
          </p>
          <button
            type="button"
            onClick={() => {
              setView('journal');
              void loadJournal();
            }}
            data-testid="replay-show-cases"
          >
            Show the cases in the Journal view
          </button>
        </div>
      )}
      {work &&
        !keyPath &&
        reportMode === 'replay' &&
        objs(report.events).some((e) => e['decisionMaterial'] === true) && (
          <p className="muted" data-testid="replay-needs-key">
            A journal is open but no signing key is chosen (Journal, in the header): this replay anchored nothing.
          </p>
        )}
    </>
  );
}

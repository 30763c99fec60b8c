import { useShallow } from 'zustand/react/shallow';
import type { Finding, JsonValue, Report } from '../../../shared/report';
import { useJudgement } from '../judgement-store';
import { focusWhenShown } from '../lib/focus';
import { useStore } from '../store';

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

/**
 * What the replay did beyond its comparisons: refused (and why), or drift anchored in the
 * open journal and the Human Review cases it opened (as `replay --journal DIR --key KEY`).
 */
export function ReplayNotes({ report }: { report: Report }) {
  const { reportMode, select, setView, loadJournal } = useStore(
    useShallow((s) => ({ reportMode: s.reportMode, select: s.select, setView: s.setView, loadJournal: s.loadJournal })),
  );
  const { work, keyPath } = useJudgement(useShallow((s) => ({ work: s.work, keyPath: s.keyPath })));
  const events = objs(report.events);
  const anchoredDrift = events.filter((e) => typeof e['anchor'] === 'object' && e['anchor'] !== null);
  const cases = events
    .filter((e) => e['anchored'] === true && typeof e['case'] === 'object' && e['case'] !== null)
    .map((e) => ({ claim: String(e['claimRef']), caseId: String((e['case'] as Obj)['caseId']) }));
  const alreadyOpen = events
    .filter((e) => e['anchored'] === true && e['alreadyOpen'] === true)
    .map((e) => String(e['claimRef']));
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
      {refused && (
        <div role="alert" className="replay-refused" data-testid="replay-refused">
          <p>
            <strong>Replay was refused:</strong> nothing was re-executed, because verification found{' '}
            <span className="mono">{refused.f.rule}</span> ({refused.f.severity}): {refused.f.message}
          </p>
          <button type="button" onClick={() => showFinding(refused)} data-testid="replay-refused-finding">
            Show {refused.f.rule} in the chain
          </button>
        </div>
      )}
      {(anchoredDrift.length > 0 || cases.length > 0 || alreadyOpen.length > 0) && (
        <div role="status" className="replay-anchored" data-testid="replay-anchored">
          <p>
            Anchored in the journal{work ? ` ${work.dir}` : ''}: {anchoredDrift.length} drift event(s)
            {cases.length > 0 &&
              `; Human Review case ${cases.map((c) => `${c.caseId} opened for ${c.claim}`).join(', ')}`}
            {alreadyOpen.length > 0 && `; a case was already open for ${alreadyOpen.join(', ')}`}.
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
      {work && !keyPath && reportMode === 'replay' && events.some((e) => e['decisionMaterial'] === true) && (
        <p className="muted" data-testid="replay-needs-key">
          A journal is open but no signing key is chosen (Journal, in the header): this replay anchored nothing.
        </p>
      )}
    </>
  );
}

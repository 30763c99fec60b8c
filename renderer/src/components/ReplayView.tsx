import { lazy, Suspense } from 'react';
import type { JsonValue, Report } from '../../../shared/report';
import { useStore } from '../store';
import { useShallow } from 'zustand/react/shallow';
import { comparisonCap, ComparisonsTable } from './ComparisonsTable';
import { DiffReplay } from './DiffReplay';
import { JudgeButton } from './JudgementPanel';
import { EventClaim, ReplayNotes } from './ReplayNotes';
import { Shown } from './Shown';
import { ColumnHeads } from './ColumnHeads';
import { Loading } from './Loading';

const ExpressionDiff = lazy(() => import('./Editors').then((m) => ({ default: m.ExpressionDiff })));

function obj(v: JsonValue | undefined): { [k: string]: JsonValue } | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : null;
}

type Ev = { [k: string]: JsonValue };

/**
 * The report's events by what they are: drift events (a `…REPLAY-DRIFT…` type or an
 * output with original and replayed values), routing decisions (`reprise.tg.routing/v1`:
 * a route for a claim, not a drift) and anything else, each drawn as what it says.
 */
function splitEvents(events: JsonValue[]): { drift: Ev[]; routing: Ev[]; other: Ev[] } {
  const out = { drift: [] as Ev[], routing: [] as Ev[], other: [] as Ev[] };
  for (const v of events) {
    const e = obj(v);
    if (!e) continue;
    const type = String(e['type'] ?? '');
    if (/routing/i.test(type) || (e['route'] !== undefined && e['output'] === undefined)) out.routing.push(e);
    else if (/DRIFT/.test(type) || (e['output'] !== undefined && 'original' in e && 'replayed' in e)) out.drift.push(e);
    else out.other.push(e);
  }
  return out;
}

function RoutingTable({ routing }: { routing: Ev[] }) {
  return (
    <table className="grid" data-testid="routing-events">
      <caption className="visually-hidden">Routing decisions</caption>
      <ColumnHeads names={['Claim', 'Route', 'Reasons', 'Case']} />
      <tbody>
        {routing.map((e, i) => (
          <tr key={i}>
            <td className="mono small">
              <EventClaim claim={e['claimRef']} />
            </td>
            <td>
              <span className="tag neutral">{String(e['route'] ?? '—')}</span>
            </td>
            <td className="small">{Array.isArray(e['reasons']) ? e['reasons'].map(String).join('; ') : '—'}</td>
            <td className="small">
              {e['case'] === null || e['case'] === undefined
                ? e['anchored'] === false
                  ? 'not opened: nothing was anchored'
                  : '—'
                : typeof e['case'] === 'string'
                  ? e['case']
                  : JSON.stringify(e['case'])}
              {e['alreadyOpen'] === true && ' (already open)'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Drift events with their decision exits and routing; each can be judged. */
function DriftTable({ drift, events }: { drift: Ev[]; events: JsonValue[] }) {
  return (
    <table className="grid" data-testid="drift-events">
      <caption className="visually-hidden">Drift events and their routing</caption>
      <ColumnHeads
        names={['Execution', 'Output', 'Original → replayed', 'Δ / ε', 'Decision exits', 'Routing', 'Judgement']}
      />
      <tbody>
        {drift.map((e, i) => (
          <tr key={i}>
            <td className="mono small">{String(e['executionId'] ?? '')}</td>
            <td className="mono small">{String(e['output'] ?? '')}</td>
            <td className="mono small">
              {JSON.stringify(e['original'])} → {JSON.stringify(e['replayed'])}
            </td>
            <td className="mono small">
              {JSON.stringify(e['delta'])} / {JSON.stringify(e['epsilon'])}
            </td>
            <td className="small">
              {String(e['originalExit'] ?? '—')} → {String(e['replayedExit'] ?? '—')}
              {e['decisionMaterial'] === true && <strong> (decision-material)</strong>}
            </td>
            <td>
              <span className="tag neutral">
                {e['routing'] === undefined || e['routing'] === null ? '—' : String(e['routing'])}
              </span>
            </td>
            <td>
              <JudgeButton pointer={`/events/${events.indexOf(e)}`} label={`drift event ${String(e['output'] ?? i)}`} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Replay: run with progress and cancel; comparisons; the expression diff; drift events with routing. */
export function ReplayView({ report }: { report: Report | null }) {
  const { run, job, artifact, theme } = useStore(
    useShallow((s) => ({ run: s.run, job: s.job, artifact: s.artifact, theme: s.theme })),
  );
  const expression = obj(report?.details?.['expression']);
  const recorded = expression?.['recorded'];
  const replayed = expression?.['replayed'];
  const { drift, routing, other } = splitEvents(report?.events ?? []);
  return (
    <section className="panel" aria-labelledby="replay-h">
      <h2 id="replay-h">Replay</h2>
      <div className="toolbar">
        <button
          type="button"
          className="primary"
          disabled={!artifact?.source || job !== null}
          onClick={() => void run('replay')}
          data-testid="run-replay"
        >
          Run replay
        </button>
        {!artifact?.source && (
          <span className="muted">
            {artifact?.savedReport
              ? 'A saved report is shown as saved: open its artifact to replay it.'
              : 'Open an artifact first.'}
          </span>
        )}
      </div>
      {report && <ReplayNotes report={report} />}
      {report && (
        <>
          <h3>
            Comparisons ({(comparisonCap(report)?.total ?? report.comparisons?.length ?? 0).toLocaleString('en')})
          </h3>
          {report.comparisons && report.comparisons.length > 0 ? (
            <ComparisonsTable
              comparisons={report.comparisons}
              cap={comparisonCap(report)}
              path={report.artifact.path}
            />
          ) : (
            <p className="muted">No comparisons: run a replay to compare recorded and replayed outputs.</p>
          )}
          <DiffReplay report={report} />
          {recorded !== undefined && replayed !== undefined && (
            <>
              <h3>Expression: original against replayed</h3>
              <Suspense fallback={<Loading>Loading the diff editor…</Loading>}>
                <ExpressionDiff
                  original={JSON.stringify(recorded, null, 2)}
                  modified={JSON.stringify(replayed, null, 2)}
                  theme={theme}
                />
              </Suspense>
            </>
          )}
          <h3>Drift events ({drift.length})</h3>
          {drift.length === 0 ? (
            <p className="muted">No drift events.</p>
          ) : (
            <DriftTable drift={drift} events={report.events!} />
          )}
          {routing.length > 0 && (
            <>
              <h3>Routing ({routing.length})</h3>
              <RoutingTable routing={routing} />
            </>
          )}
          {other.length > 0 && (
            <>
              <h3>Other events ({other.length})</h3>
              <ul className="small mono" data-testid="other-events">
                {other.map((e, i) => (
                  <li key={i}>
                    <Shown text={JSON.stringify(e)} json />
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}

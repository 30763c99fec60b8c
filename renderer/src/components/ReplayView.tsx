import { lazy, Suspense } from 'react';
import type { JsonValue, Report } from '../../../shared/report';
import { useStore } from '../store';
import { useShallow } from 'zustand/react/shallow';
import { ComparisonsTable } from './ComparisonsTable';

const ExpressionDiff = lazy(() => import('./Editors').then((m) => ({ default: m.ExpressionDiff })));

function obj(v: JsonValue | undefined): { [k: string]: JsonValue } | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : null;
}

/** Replay: run with progress and cancel; comparisons; the expression diff; drift events with routing. */
export function ReplayView({ report }: { report: Report | null }) {
  const { run, job, artifact, theme } = useStore(useShallow((s) => ({ run: s.run, job: s.job, artifact: s.artifact, theme: s.theme })));
  const expression = obj(report?.details?.['expression']);
  const recorded = expression?.['recorded'];
  const replayed = expression?.['replayed'];
  const drift = (report?.events ?? []).map((e) => obj(e)).filter((e): e is { [k: string]: JsonValue } => e !== null);
  return (
    <section className="panel" aria-labelledby="replay-h">
      <h2 id="replay-h">Replay</h2>
      <div className="toolbar">
        <button type="button" className="primary" disabled={!artifact?.source || job !== null} onClick={() => void run('replay')} data-testid="run-replay">
          Run replay
        </button>
        {!artifact?.source && <span className="muted">Open an artifact first.</span>}
      </div>
      {report && (
        <>
          <h3>Comparisons ({report.comparisons?.length ?? 0})</h3>
          {report.comparisons && report.comparisons.length > 0 ? <ComparisonsTable comparisons={report.comparisons} /> : <p className="muted">No comparisons: run a replay to compare recorded and replayed outputs.</p>}
          {recorded !== undefined && replayed !== undefined && (
            <>
              <h3>Expression: original against replayed</h3>
              <Suspense fallback={<p className="muted">Loading the diff editor…</p>}>
                <ExpressionDiff original={JSON.stringify(recorded, null, 2)} modified={JSON.stringify(replayed, null, 2)} theme={theme} />
              </Suspense>
            </>
          )}
          <h3>Drift events ({drift.length})</h3>
          {drift.length === 0 ? (
            <p className="muted">No drift events.</p>
          ) : (
            <table className="grid" data-testid="drift-events">
              <caption className="visually-hidden">Drift events and their routing</caption>
              <thead>
                <tr>
                  <th scope="col">Execution</th>
                  <th scope="col">Output</th>
                  <th scope="col">Original → replayed</th>
                  <th scope="col">Δ / ε</th>
                  <th scope="col">Decision exits</th>
                  <th scope="col">Routing</th>
                </tr>
              </thead>
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
                      <span className="tag neutral">{String(e['routing'] ?? 'none')}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}

import { useMemo, useState } from 'react';
import { type JsonValue, type Report, type TgDriftRate } from '../../../shared/report';
import { acgpTrajectoryOf, tgDriftRateIn, whatIfOf } from '../../../shared/details/index';
import { useStore } from '../store';
import { useShallow } from 'zustand/react/shallow';
import { Chart, type ChartSeries } from './Chart';

function obj(v: JsonValue | undefined): { [k: string]: JsonValue } | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : null;
}

function deltaSeries(r: Report): { x: number[]; names: string[]; series: ChartSeries[] } | null {
  const rows = (r.comparisons ?? []).filter((c) => typeof c.delta === 'number' || typeof c.epsilon === 'number');
  if (rows.length === 0) return null;
  return {
    x: rows.map((_, i) => i),
    names: rows.map((c) => c.output.replace(/^comp\.[A-Z]+\.OUTPUT\./, '')),
    series: [
      { label: '|Δ|', values: rows.map((c) => (typeof c.delta === 'number' ? Math.abs(c.delta) : null)), color: '#c0392b', style: 'points' },
      // ε as a ring around its value: a |Δ| equal to ε stays visible inside it.
      { label: 'ε', values: rows.map((c) => c.epsilon ?? null), color: '#2471a3', style: 'points', ring: true },
    ],
  };
}

type DriftChart = { x: number[]; names: string[]; series: ChartSeries[]; maxRate: number | null; governed: TgDriftRate | null };

/** The engine's per-version drift rate over the governed window (TG replays), against `maxRate`. */
function governedDriftRates(g: TgDriftRate): DriftChart {
  const names = g.versions.map((v) => v.model);
  return {
    x: names.map((_, i) => i),
    names,
    maxRate: g.maxRate,
    governed: g,
    series: [
      { label: 'drift rate', values: g.versions.map((v) => v.rate), color: '#b9770e', style: 'bars' },
      { label: 'governed max', values: names.map(() => g.maxRate), color: '#1e8449', style: 'dash' },
    ],
  };
}

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

/** In words: the governed maximum and which versions exceed it. */
function governedText(g: TgDriftRate): string {
  const head = `Governed maximum drift rate ${pct(g.maxRate)} over the last ${g.window} BANDED replays of a version.`;
  if (g.versions.length === 0) return `${head} No BANDED replay in this report to measure.`;
  const over = g.versions.filter((v) => v.exceeds);
  const each = (v: TgDriftRate['versions'][number]) => `${v.model} (${v.drifted} of ${v.inWindow} = ${pct(v.rate)})`;
  if (over.length === 0) return `${head} No version exceeds it: ${g.versions.map(each).join(', ')}.`;
  return `${head} Exceeding it: ${over.map(each).join(', ')}.${over.length < g.versions.length ? ` Within it: ${g.versions.filter((v) => !v.exceeds).map(each).join(', ')}.` : ''}`;
}

function driftRates(r: Report): DriftChart | null {
  const g = tgDriftRateIn(r);
  if (g) return governedDriftRates(g);
  const events = (r.events ?? []).map(obj).filter((e): e is { [k: string]: JsonValue } => e !== null && typeof e['type'] === 'string' && /DRIFT/.test(String(e['type'])));
  const compared = (r.comparisons ?? []).filter((c) => c.mode === 'BANDED').length;
  if (compared === 0 && events.length === 0) return null;
  const byVersion = new Map<string, number>();
  for (const e of events) {
    const v = String(e['replayModelVersion'] ?? e['originalModelVersion'] ?? 'unknown');
    byVersion.set(v, (byVersion.get(v) ?? 0) + 1);
  }
  const whatIf = whatIfOf(r)?.substitutions;
  if (byVersion.size === 0) byVersion.set(String(whatIf?.['model'] ?? 'recorded'), 0);
  const tg = obj(r.details?.['tg']);
  const governed = obj(tg?.['driftRate']);
  const maxRate = typeof governed?.['maxRate'] === 'number' ? governed['maxRate'] : null;
  const names = [...byVersion.keys()];
  return {
    x: names.map((_, i) => i),
    names,
    maxRate,
    governed: null,
    series: [
      { label: 'drift rate', values: names.map((n) => (compared > 0 ? (byVersion.get(n) ?? 0) / compared : 0)), color: '#b9770e', style: 'bars' },
      ...(maxRate !== null ? [{ label: 'governed max', values: names.map(() => maxRate), color: '#1e8449', style: 'dash' as const }] : []),
    ],
  };
}

export interface Disagreement {
  index: number;
  recorded: number;
  recomputed: number;
}

const num = (v: JsonValue | undefined): number | null => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null);

/**
 * Where the engine recomputed an EVAL's trust debt differently from what was recorded:
 * its findings at `/N/trust_debt/post` carry the recomputed value as `expected` and the
 * recorded one as `actual`. The window recomputes nothing itself.
 */
function debtDisagreements(r: Report): Map<number, Disagreement> {
  const out = new Map<number, Disagreement>();
  for (const f of r.findings) {
    const m = /^\/(\d+)\/trust_debt\/post$/.exec(f.pointer ?? '');
    const recomputed = num(f.expected);
    const recorded = num(f.actual);
    if (m && recomputed !== null && recorded !== null) out.set(Number(m[1]), { index: Number(m[1]), recorded, recomputed });
  }
  return out;
}

function trajectory(r: Report): { x: number[]; series: ChartSeries[]; disagreements: Disagreement[] } | null {
  const acgp = acgpTrajectoryOf(r);
  if (!acgp) return null;
  const { trajectory: t, thresholds } = acgp;
  const posts = t.map((p) => {
    const o = obj(p);
    const v = o?.['post'];
    return typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : null;
  });
  const colors = ['#b9770e', '#c0392b', '#7d3c98'];
  const off = debtDisagreements(r);
  return {
    x: t.map((_, i) => i),
    disagreements: [...off.values()].sort((a, b) => a.index - b.index),
    series: [
      { label: 'recorded trust debt (post)', values: posts, color: '#2471a3', style: 'line' },
      { label: 'recomputed trust debt', values: posts.map((p, i) => off.get(i)?.recomputed ?? p), color: '#1e8449', style: 'dash' },
      { label: 'EVAL disagrees', values: posts.map((p, i) => (off.has(i) ? p : null)), color: '#c0392b', style: 'points', ring: true },
      ...Object.entries(thresholds).map(([k, v], i) => ({ label: `threshold ${k}`, values: t.map(() => (typeof v === 'number' ? v : Number(v))), color: colors[i % colors.length]!, style: 'dash' as const })),
    ],
  };
}

/** Trainer mode: what-if replay controls, clearly a demonstration, and the charts. */
export function TrainerView({ report }: { report: Report | null }) {
  const { run, job, artifact } = useStore(useShallow((s) => ({ run: s.run, job: s.job, artifact: s.artifact })));
  const [model, setModel] = useState('ref-2');
  const [shape, setShape] = useState('');
  const d = useMemo(() => (report ? deltaSeries(report) : null), [report]);
  const dr = useMemo(() => (report ? driftRates(report) : null), [report]);
  const tr = useMemo(() => (report ? trajectory(report) : null), [report]);
  const whatIf = [model.trim() && `model=${model.trim()}`, shape.trim() && `shape=${shape.trim()}`].filter((x): x is string => !!x);

  return (
    <section className="panel" aria-labelledby="trainer-h">
      <h2 id="trainer-h">Trainer mode</h2>
      {report && whatIfOf(report) ? (
        <p className="demo-banner" role="note" data-testid="demo-banner">
          DEMONSTRATION. This report is a what-if replay: it substitutes a different environment on purpose. It shows how drift looks; it is never a forensic verdict and never passes.
        </p>
      ) : (
        <p className="muted">A what-if replay substitutes a model version or compute shape on purpose, to show how drift looks; its report is labelled a demonstration and never passes.</p>
      )}
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          void run('replay', whatIf);
        }}
      >
        <label>
          Model version <input value={model} onChange={(e) => setModel(e.target.value)} placeholder="ref-2" data-testid="whatif-model" />
        </label>
        <label>
          Compute shape <input value={shape} onChange={(e) => setShape(e.target.value)} placeholder="advisor.cpu_v1/4/fp32" />
        </label>
        <button type="submit" className="primary" disabled={!artifact?.source || job !== null || whatIf.length === 0} data-testid="run-whatif">
          Run what-if replay
        </button>
        <button type="button" disabled={!artifact?.source || job !== null} onClick={() => void run('replay')}>
          Replay as recorded
        </button>
      </form>
      {!report && <p className="muted">Open an artifact (for instance the example dumps/whatif/drift.dump.json, or a tg manifest, or an acgp trace) to see its charts.</p>}
      {d && <Chart testId="chart-delta" title="|Δ| against ε per output" x={d.x} xNames={d.names} xLabel="output" series={d.series} />}
      {dr && (
        <>
          <Chart testId="chart-drift" title="Drift rate per model version against its governed maximum" x={dr.x} xNames={dr.names} xLabel="model version" yLabel="drift rate" yRange={[0, Math.max(0.05, dr.maxRate ?? 0, ...dr.series.flatMap((x) => x.values.filter((v): v is number => typeof v === 'number'))) * 1.2]} series={dr.series} />
          {dr.governed ? (
            <p className={dr.governed.versions.some((v) => v.exceeds) ? 'small bad' : 'small'} data-testid="drift-governed">
              {governedText(dr.governed)}
            </p>
          ) : (
            dr.maxRate === null && <p className="muted small">The report names no governed maximum drift rate for this bundle.</p>
          )}
        </>
      )}
      {tr && (
        <Chart testId="chart-debt" title="ACGP trust debt per EVAL: recorded against recomputed, with its thresholds" x={tr.x} xLabel="evaluation" yLabel="trust debt" series={tr.series}>
          {tr.disagreements.length === 0 ? (
            <p className="small" data-testid="debt-disagreements">Every EVAL&apos;s recorded trust debt agrees with the recomputed one.</p>
          ) : (
            <table className="grid small bad" data-testid="debt-disagreements">
              <caption>EVALs whose recorded trust debt disagrees with the recomputed one</caption>
              <thead>
                <tr>
                  <th scope="col">EVAL</th>
                  <th scope="col">Recorded</th>
                  <th scope="col">Recomputed</th>
                  <th scope="col">Δ</th>
                </tr>
              </thead>
              <tbody>
                {tr.disagreements.map((d) => (
                  <tr key={d.index}>
                    <td>EVAL {d.index}</td>
                    <td>{d.recorded}</td>
                    <td>{d.recomputed}</td>
                    <td>{Math.round((d.recorded - d.recomputed) * 1e9) / 1e9}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Chart>
      )}
      {report && !d && !dr && !tr && <p className="muted">This report has no numeric comparisons, drift events or trust-debt trajectory to chart.</p>}
    </section>
  );
}

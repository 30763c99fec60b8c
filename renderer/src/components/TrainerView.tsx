import { useEffect, useMemo, useState } from 'react';
import type { ProviderOffers } from '../../../shared/api';
import type { JsonValue, Report, TgDriftRate } from '../../../shared/report';
import {
  acgpTrajectoryOf,
  expressionOf,
  jsonObjectOf as obj,
  tgDriftRateIn,
  whatIfOf,
} from '../../../shared/details/index';
import { useStore } from '../store';
import { runsWord, sweepCountWords, sweepCounts, sweepDeltas, type Sweep } from '../lib/sweep';
import { groupedRateWords, nothingToChartWords, pct, sweepDiffered, sweepRates } from '../lib/sweep-outputs';
import { SweepDeltaChart, SweepDifferences } from './SweepDeltaChart';
import { earlierSweepShown, type KeptSweep } from '../lib/kept-sweep';
import { useShallow } from 'zustand/react/shallow';
import { Chart, type ChartSeries } from './Chart';
import { ColumnHeads } from './ColumnHeads';
import '../sweep.css';
import { Shown } from './Shown';

function deltaSeries(r: Report): { x: number[]; names: string[]; series: ChartSeries[] } | null {
  const rows = (r.comparisons ?? []).filter((c) => typeof c.delta === 'number' || typeof c.epsilon === 'number');
  if (rows.length === 0) return null;
  return {
    x: rows.map((_, i) => i),
    names: rows.map((c) => c.output.replace(/^comp\.[A-Z]+\.OUTPUT\./, '')),
    series: [
      {
        label: '|Δ|',
        values: rows.map((c) => (typeof c.delta === 'number' ? Math.abs(c.delta) : null)),
        color: '#c0392b',
        style: 'points',
      },
      // ε as a ring around its value: a |Δ| equal to ε stays visible inside it.
      { label: 'ε', values: rows.map((c) => c.epsilon ?? null), color: '#2471a3', style: 'points', ring: true },
    ],
  };
}

/** A rate axis from 0 with room above the highest bar or maximum, never past 1 (a rate is at most 100%). */
function rateRange(maxRate: number | null, rates: readonly (number | null)[]): [number, number] {
  const top = Math.max(0.05, maxRate ?? 0, ...rates.filter((v): v is number => typeof v === 'number'));
  return [0, Math.min(1, top * 1.2)];
}

type DriftChart = {
  x: number[];
  names: string[];
  series: ChartSeries[];
  maxRate: number | null;
  governed: TgDriftRate | null;
};

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

/** In words: the governed maximum and which versions exceed it. */
function governedText(g: TgDriftRate): string {
  const head = `Governed maximum drift rate ${pct(g.maxRate)} over the last ${g.window} BANDED replays of a version.`;
  if (g.versions.length === 0) return `${head} No BANDED replay in this report to measure.`;
  const over = g.versions.filter((v) => v.exceeds);
  const each = (v: TgDriftRate['versions'][number]) => `${v.model} (${v.drifted} of ${v.inWindow} = ${pct(v.rate)})`;
  if (over.length === 0) return `${head} No version exceeds it: ${g.versions.map(each).join(', ')}.`;
  return `${head} Exceeding it: ${over.map(each).join(', ')}.${
    over.length < g.versions.length
      ? ` Within it: ${g.versions
          .filter((v) => !v.exceeds)
          .map(each)
          .join(', ')}.`
      : ''
  }`;
}

function driftRates(r: Report): DriftChart | null {
  const g = tgDriftRateIn(r);
  if (g) return governedDriftRates(g);
  const events = (r.events ?? [])
    .map(obj)
    .filter(
      (e): e is { [k: string]: JsonValue } =>
        e !== null && typeof e['type'] === 'string' && /DRIFT/.test(String(e['type'])),
    );
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
      {
        label: 'drift rate',
        values: names.map((n) => (compared > 0 ? (byVersion.get(n) ?? 0) / compared : 0)),
        color: '#b9770e',
        style: 'bars',
      },
      ...(maxRate !== null
        ? [{ label: 'governed max', values: names.map(() => maxRate), color: '#1e8449', style: 'dash' as const }]
        : []),
    ],
  };
}

/**
 * A what-if dump replay's numeric outputs: the expression's per-token log-probabilities,
 * recorded against replayed (details.expression, as the engine reports them), and its score.
 */
function expressionSeries(
  r: Report,
): { x: number[]; series: ChartSeries[]; scores: [number | null, number | null] } | null {
  const e = expressionOf(r);
  const rec = obj(e?.recorded);
  const rep = obj(e?.replayed);
  const lp = (o: { [k: string]: JsonValue } | null): (number | null)[] =>
    Array.isArray(o?.['logprobs']) ? o['logprobs'].map((v) => (typeof v === 'number' ? v : null)) : [];
  const a = lp(rec);
  const b = lp(rep);
  const n = Math.max(a.length, b.length);
  if (n === 0) return null;
  const at = (xs: (number | null)[]) => Array.from({ length: n }, (_, i) => xs[i] ?? null);
  const score = (o: { [k: string]: JsonValue } | null) => (typeof o?.['score'] === 'number' ? o['score'] : null);
  return {
    x: Array.from({ length: n }, (_, i) => i),
    scores: [score(rec), score(rep)],
    series: [
      { label: 'recorded log-probability', values: at(a), color: '#2471a3', style: 'line' },
      { label: 'replayed log-probability', values: at(b), color: '#c0392b', style: 'points', ring: true },
    ],
  };
}

/** All models and shapes the registry offers (every provider), each once. */
function offered(o: ProviderOffers | null): { models: string[]; shapes: string[] } {
  const models = new Set<string>();
  const shapes = new Set<string>();
  for (const p of o?.providers ?? []) {
    p.models.forEach((m) => models.add(m));
    p.computeShapes.forEach((x) => shapes.add(x));
  }
  return { models: [...models], shapes: [...shapes] };
}

/** A substitution the registry does not offer (a deep link, an older report): which exist instead. */
function unknownSubstitution(r: Report, o: ProviderOffers | null): string | null {
  const sub = obj(obj(r.details?.['whatIf'])?.['substitutions']);
  if (!sub || !o) return null;
  const { models, shapes } = offered(o);
  const out: string[] = [];
  if (typeof sub['model'] === 'string' && !models.includes(sub['model']))
    out.push(
      `Model version ${sub['model']} is not offered by the provider registry ${o.source}; it offers ${models.join(', ') || 'none'}.`,
    );
  if (typeof sub['shape'] === 'string' && !shapes.includes(sub['shape']))
    out.push(
      `Compute shape ${sub['shape']} is not offered by the provider registry ${o.source}; it offers ${shapes.join(', ') || 'none'}.`,
    );
  return out.length ? out.join(' ') : null;
}

/** While the sweep runs: how far it is, as a progress bar, and Cancel (its runs not started are withdrawn, those running stopped). */
function SweepProgress({ sweep }: { sweep: Sweep }) {
  const cancelSweep = useStore((s) => s.cancelSweep);
  if (!sweep.running) return null;
  return (
    <div className="sweep-progress" role="status" data-testid="sweep-progress">
      <span>
        {sweep.cancelled ? 'Cancelling the sweep…' : 'Replaying every version and shape…'} {sweep.done} of{' '}
        {sweep.planned} runs ended
      </span>
      <progress max={sweep.planned} value={sweep.done} aria-label="Sweep progress">
        {sweep.done} of {sweep.planned}
      </progress>
      <button type="button" disabled={sweep.cancelled} onClick={cancelSweep} data-testid="sweep-cancel">
        Cancel
      </button>
    </div>
  );
}

/** Every run of the sweep that failed, each with the engine's reason. */
function SweepFailures({ sweep }: { sweep: Sweep }) {
  const failed = sweep.runs
    .filter((r) => r.report === null && !r.cancelled)
    .sort((a, b) => sweep.plan.indexOf(a.whatIf) - sweep.plan.indexOf(b.whatIf) || a.repeat - b.repeat);
  if (failed.length === 0) return null;
  return (
    <>
      <p className="small bad" id="sweep-failed-h">
        {runsWord(failed.length)} of the sweep failed and charted nothing:
      </p>
      <ul className="small" aria-labelledby="sweep-failed-h" data-testid="sweep-failed">
        {failed.map((r) => (
          <li key={`${r.whatIf} ${r.repeat}`}>
            <Shown text={r.whatIf} />, run {r.repeat + 1} of {sweep.repeats}: <Shown text={r.error ?? ''} />
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * The sweep's rates in words, each in its unit (outputs that differed, or a TG replay's
 * BANDED replays in the governed window), against the governed maximum where the report names one.
 */
function SweepSummary({ sweep }: { sweep: Sweep }) {
  const { rates, maxRate } = sweepRates(sweep);
  const rated = rates.filter((r) => r.rate !== null);
  const over = maxRate === null ? [] : rated.filter((r) => r.rate! > maxRate);
  const within = rated.filter((r) => !over.includes(r));
  return (
    <>
      <p className={over.length ? 'small bad' : 'small'} data-testid="sweep-summary">
        {maxRate === null
          ? `The report names no governed maximum drift rate. Per substitution, how many of its outputs differed from the recording (its first replayed run)${rated.length ? `: ${groupedRateWords(rated)}.` : '.'}`
          : `Governed maximum drift rate ${pct(maxRate)}. ${
              over.length ? `Exceeding it: ${groupedRateWords(over)}.` : 'No substitution exceeds it.'
            }${within.length ? ` Within it: ${groupedRateWords(within)}.` : ''}`}
      </p>
      {rates.some((r) => r.rate === null) && (
        <ul className="small" data-testid="sweep-unavailable">
          {rates
            .filter((r) => r.rate === null)
            .map((r) => (
              <li key={r.whatIf}>
                <Shown text={r.whatIf} />: not replayable (<Shown text={r.why ?? ''} />)
              </li>
            ))}
        </ul>
      )}
    </>
  );
}

/**
 * Beside a sweep kept from before the tab was reloaded: that it is that sweep's result, not
 * run again, with what it swept, how, and over which bytes.
 */
function EarlierSweepNote({ kept }: { kept: KeptSweep }) {
  const options = Object.entries(kept.options);
  return (
    <p className="note" data-testid="sweep-earlier">
      The result of the sweep run in this tab before the page was reloaded, kept by the tab and not run again: its
      artifact <Shown text={kept.artifact.name} /> (<Shown text={kept.artifact.sha256} />, the bytes open now), its
      substitutions <Shown text={kept.sweep.plan.join(', ')} />, {runsWord(kept.sweep.repeats)} of each,{' '}
      {options.length ? (
        <>
          sent with <Shown text={options.map(([k, v]) => `${k}=${v}`).join(', ')} />
        </>
      ) : (
        'sent with no option'
      )}
      .
    </p>
  );
}

/**
 * The sweep as the trainer reads it: its runs counted, then what changed (the |Δ| against ε
 * chart, the outputs that differed without one), then the rates. It takes its sweep as a
 * prop, so a test renders it to static markup (test/renderer/sweep-dump-view.test.ts);
 * `earlier`, the sweep kept from before a reload that it is.
 */
export function SweepResult({ sweep, earlier }: { sweep: Sweep; earlier?: KeptSweep | null }) {
  const deltas = useMemo(() => sweepDeltas(sweep), [sweep]);
  const differed = useMemo(() => sweepDiffered(sweep), [sweep]);
  const counts = sweepCounts(sweep);
  const stopped = counts.cancelled + counts.notRun;
  return (
    <section aria-labelledby="sweep-h" data-testid="sweep">
      <h3 id="sweep-h" tabIndex={-1}>
        Every version and shape the registry offers, side by side, {runsWord(sweep.repeats)} each (
        {sweepCountWords(sweep)})
      </h3>
      {earlier && <EarlierSweepNote kept={earlier} />}
      <SweepProgress sweep={sweep} />
      {sweep.cancelled && !sweep.running && stopped > 0 && (
        <p className="note" data-testid="sweep-cancelled">
          Cancelled: {runsWord(stopped)} of {sweep.planned} {stopped === 1 ? 'was' : 'were'} stopped or never started;
          what is shown is over the {runsWord(counts.replayed)} replayed.
        </p>
      )}
      <SweepFailures sweep={sweep} />
      <SweepDeltaChart deltas={deltas} repeats={sweep.repeats} />
      <SweepDifferences differed={differed} measured={deltas.filter((d) => d.worst !== null).length} />
      <SweepSummary sweep={sweep} />
    </section>
  );
}

export interface Disagreement {
  index: number;
  recorded: number;
  recomputed: number;
}

const num = (v: JsonValue | undefined): number | null =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null;

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
    if (m && recomputed !== null && recorded !== null)
      out.set(Number(m[1]), { index: Number(m[1]), recorded, recomputed });
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
      // Where they agree the two lines coincide: the recorded one wide underneath, the recomputed one thin and dashed on it.
      { label: 'recorded trust debt (post)', values: posts, color: '#85c1e9', style: 'line', width: 6 },
      {
        label: 'recomputed trust debt',
        values: posts.map((p, i) => off.get(i)?.recomputed ?? p),
        color: '#145a32',
        style: 'dash',
        width: 2,
      },
      // Its own colour: no threshold line shares it.
      {
        label: 'EVAL disagrees',
        values: posts.map((p, i) => (off.has(i) ? p : null)),
        color: '#d81b60',
        style: 'points',
        ring: true,
      },
      ...Object.entries(thresholds).map(([k, v], i) => ({
        label: `threshold ${k}`,
        values: t.map(() => (typeof v === 'number' ? v : Number(v))),
        color: colors[i % colors.length]!,
        style: 'dash' as const,
      })),
    ],
  };
}

/** Whether the open report is a what-if demonstration, said before anything else. */
function DemoNote({ report, offers }: { report: Report | null; offers: ProviderOffers | null }) {
  const unknown = report ? unknownSubstitution(report, offers) : null;
  return report && whatIfOf(report) ? (
    <p className="demo-banner" role="note" data-testid="demo-banner">
      DEMONSTRATION. This report is a what-if replay: it substitutes a different environment on purpose. It shows how
      drift looks; it is never a forensic verdict and never passes.
      {unknown && (
        <span className="demo-unknown" data-testid="demo-unknown">
          {' '}
          {unknown}
        </span>
      )}
    </p>
  ) : (
    <p className="muted">
      A what-if replay substitutes a model version or compute shape on purpose, to show how drift looks; its report is
      labelled a demonstration and never passes.
    </p>
  );
}

/** The report's substitution of `key` (model, shape), or '' when it runs as recorded. */
function substituted(r: Report | null, key: 'model' | 'shape'): string {
  const v = r ? whatIfOf(r)?.substitutions[key] : undefined;
  return typeof v === 'string' ? v : '';
}

/** A picker's choices: as recorded, what the registry offers, and the report's own substitution when the registry does not offer it (the banner names it). */
function PickerOptions({ offered: list, inReport }: { offered: string[]; inReport: string }) {
  return (
    <>
      <option value="">as recorded</option>
      {list.map((m) => (
        <option key={m} value={m}>
          {m}
        </option>
      ))}
      {inReport && !list.includes(inReport) && (
        <option value={inReport}>{inReport} (in this report; not offered)</option>
      )}
    </>
  );
}

/** The what-if pickers (filled from the provider registry) and the replay and sweep buttons. */
function WhatIfForm({ report }: { report: Report | null }) {
  const { run, job, artifact, offers, offersError, sweep, runSweep } = useStore(
    useShallow((s) => ({
      run: s.run,
      job: s.job,
      artifact: s.artifact,
      offers: s.offers,
      offersError: s.offersError,
      sweep: s.sweep,
      runSweep: s.runSweep,
    })),
  );
  const [model, setModel] = useState(() => substituted(report, 'model'));
  const [repeats, setRepeats] = useState(2);
  const [shape, setShape] = useState(() => substituted(report, 'shape'));
  // The pickers show the substitution of the report on screen: a new report resets them to it.
  const [shownFor, setShownFor] = useState(report);
  if (shownFor !== report) {
    setShownFor(report);
    setModel(substituted(report, 'model'));
    setShape(substituted(report, 'shape'));
  }
  const offer = offered(offers);
  const sweeping = sweep?.running === true;
  const whatIf = [model.trim() && `model=${model.trim()}`, shape.trim() && `shape=${shape.trim()}`].filter(
    (x): x is string => !!x,
  );
  return (
    <>
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          void run('replay', whatIf);
        }}
      >
        <label>
          Model version{' '}
          <select value={model} onChange={(e) => setModel(e.target.value)} data-testid="whatif-model">
            <PickerOptions offered={offer.models} inReport={substituted(report, 'model')} />
          </select>
        </label>
        <label>
          Compute shape{' '}
          <select value={shape} onChange={(e) => setShape(e.target.value)} data-testid="whatif-shape">
            <PickerOptions offered={offer.shapes} inReport={substituted(report, 'shape')} />
          </select>
        </label>
        <button
          type="submit"
          className="primary"
          disabled={!artifact?.source || job !== null || whatIf.length === 0}
          data-testid="run-whatif"
        >
          Run what-if replay
        </button>
        <button type="button" disabled={!artifact?.source || job !== null} onClick={() => void run('replay')}>
          Replay as recorded
        </button>
        <label>
          Runs of each{' '}
          <select value={repeats} onChange={(e) => setRepeats(Number(e.target.value))} data-testid="sweep-repeats">
            {[1, 2, 3, 5].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          disabled={!artifact?.source || job !== null || sweeping || offer.models.length + offer.shapes.length === 0}
          onClick={() =>
            void runSweep([...offer.models.map((m) => `model=${m}`), ...offer.shapes.map((x) => `shape=${x}`)], repeats)
          }
          data-testid="run-sweep"
        >
          Compare every version and shape
        </button>
      </form>
      <p className="muted small" data-testid="offers-source">
        {offers ? (
          <>
            Pickers filled from the provider registry <Shown text={offers.source} />: {offer.models.length} model
            version(s), {offer.shapes.length} compute shape(s).
          </>
        ) : offersError ? (
          <>
            The provider registry cannot be read: <Shown text={offersError} />
          </>
        ) : (
          'Reading the provider registry…'
        )}
      </p>
    </>
  );
}

function DebtDisagreements({ list }: { list: Disagreement[] }) {
  return list.length === 0 ? (
    <p className="small" data-testid="debt-disagreements">
      Every EVAL&apos;s recorded trust debt agrees with the recomputed one.
    </p>
  ) : (
    <table className="grid small bad" data-testid="debt-disagreements">
      <caption>EVALs whose recorded trust debt disagrees with the recomputed one</caption>
      <ColumnHeads names={['EVAL', 'Recorded', 'Recomputed', 'Δ']} />
      <tbody>
        {list.map((d) => (
          <tr key={d.index}>
            <td>EVAL {d.index}</td>
            <td>{d.recorded}</td>
            <td>{d.recomputed}</td>
            <td>{Math.round((d.recorded - d.recomputed) * 1e9) / 1e9}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The report's charts: expression, |Δ| against ε, drift rate, trust debt. */
function ReportCharts({ report, swept }: { report: Report; swept: boolean }) {
  const ex = useMemo(() => expressionSeries(report), [report]);
  const d = useMemo(() => deltaSeries(report), [report]);
  const dr = useMemo(() => driftRates(report), [report]);
  const tr = useMemo(() => trajectory(report), [report]);
  return (
    <>
      {ex && (
        <Chart
          testId="chart-expression"
          title="Expression: log-probability per token, recorded against replayed"
          x={ex.x}
          xLabel="token"
          yLabel="log-probability"
          series={ex.series}
        >
          <p className="small" data-testid="expression-score">
            Score: recorded {ex.scores[0] ?? '—'}, replayed {ex.scores[1] ?? '—'}
            {ex.scores[0] !== null &&
              ex.scores[1] !== null &&
              ` (Δ ${Math.round((ex.scores[1] - ex.scores[0]) * 1e9) / 1e9})`}
            .
          </p>
        </Chart>
      )}
      {d && (
        <Chart
          testId="chart-delta"
          title="|Δ| against ε per output"
          x={d.x}
          xNames={d.names}
          xLabel="output"
          series={d.series}
        />
      )}
      {dr && (
        <>
          <Chart
            testId="chart-drift"
            title="Drift rate per model version against its governed maximum"
            x={dr.x}
            xNames={dr.names}
            xLabel="model version"
            horizontal
            yLabel="drift rate"
            yRange={rateRange(
              dr.maxRate,
              dr.series.flatMap((x) => x.values),
            )}
            series={dr.series}
          />
          {dr.governed ? (
            <p
              className={dr.governed.versions.some((v) => v.exceeds) ? 'small bad' : 'small'}
              data-testid="drift-governed"
            >
              {governedText(dr.governed)}
            </p>
          ) : (
            dr.maxRate === null && (
              <p className="muted small">The report names no governed maximum drift rate for this bundle.</p>
            )
          )}
        </>
      )}
      {tr && (
        <Chart
          testId="chart-debt"
          title="ACGP trust debt per EVAL: recorded against recomputed, with its thresholds"
          x={tr.x}
          xLabel="evaluation"
          yLabel="trust debt"
          series={tr.series}
        >
          <DebtDisagreements list={tr.disagreements} />
        </Chart>
      )}
      {!d && !dr && !tr && !ex && (
        <p className="muted" data-testid="no-charts">
          {nothingToChartWords(swept)}
        </p>
      )}
    </>
  );
}

/** Trainer mode: what-if replay controls, clearly a demonstration, and the charts. */
export function TrainerView({ report }: { report: Report | null }) {
  const { artifact, offers, loadOffers, sweep, earlier, whatIfKinds } = useStore(
    useShallow((s) => ({
      artifact: s.artifact,
      offers: s.offers,
      loadOffers: s.loadOffers,
      sweep: s.sweep,
      // Kept from before a reload: shown only while no sweep was run since, over the bytes it swept.
      earlier: s.sweep ? null : earlierSweepShown(s.earlierSweep, s.artifact?.source, s.report),
      whatIfKinds: s.info?.whatIfKinds,
    })),
  );
  const shownSweep = sweep ?? earlier?.sweep ?? null;
  useEffect(() => {
    void loadOffers();
  }, [artifact, loadOffers]);
  return (
    <section className="panel" aria-labelledby="trainer-h">
      <h2 id="trainer-h">Trainer mode</h2>
      <DemoNote report={report} offers={offers} />
      {report && whatIfKinds && !whatIfKinds.includes(report.artifact.kind) ? (
        <p className="note" data-testid="whatif-not-applicable">
          What-if substitutions (another model version or compute shape) apply to {whatIfKinds.join(' and ')} replays;
          this artifact ({report.artifact.kind}) is replayed as recorded.
        </p>
      ) : (
        <WhatIfForm report={report} />
      )}
      {shownSweep && <SweepResult sweep={shownSweep} earlier={earlier} />}
      {!report && (
        <p className="muted">
          Open an artifact (for instance the example dumps/whatif/drift.dump.json, or a tg manifest, or an acgp trace)
          to see its charts.
        </p>
      )}
      {report && <ReportCharts report={report} swept={shownSweep !== null} />}
    </section>
  );
}

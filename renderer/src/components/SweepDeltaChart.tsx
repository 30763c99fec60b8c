import { useMemo } from 'react';
import { offScale, runsWord, sweepBars, sweepDeltaWords, type SweepDelta, type SweepOutput } from '../lib/sweep';
import { differedRunsWords, differedWords, type SweepDiffered } from '../lib/sweep-outputs';
import { Chart, type ChartSeries } from './Chart';
import { ColumnHeads } from './ColumnHeads';
import { Shown } from './Shown';

/** An output's |Δ| over the runs that measured it, as the engine wrote each (no arithmetic on them). */
function deltaWords(o: SweepOutput, repeats: number): string {
  const lo = Math.min(...o.deltas);
  const hi = Math.max(...o.deltas);
  if (o.deltas.length === 1) return repeats === 1 ? String(lo) : `${lo} (1 run of ${repeats})`;
  const of = o.deltas.length < repeats ? ` of ${repeats}` : '';
  return lo === hi
    ? `${lo} in all ${o.deltas.length}${of} runs`
    : `from ${lo} to ${hi} over ${o.deltas.length}${of} runs`;
}

/**
 * A substitution's name on the chart: with how many runs were measured when fewer than asked,
 * and, for a |Δ| beyond an ε of 0, that its bar stands for no measure (infinitely many ε).
 */
function chartName(d: SweepDelta, repeats: number): string {
  const name = d.measured < repeats ? `${d.whatIf} (${d.measured} of ${runsWord(repeats)})` : d.whatIf;
  return offScale(d) ? `${name} (ε 0: beyond, bar off the scale)` : name;
}

/**
 * The sweep's chart that teaches: per substitution, the largest |Δ| of its BANDED outputs in
 * units of that output's ε (1 is the edge of the governed band), for its worst and its best
 * measured run (a best only where two or more runs were measured); with every output's |Δ|
 * and ε as the engine wrote them in a table. Runs that failed are not in it: TrainerView
 * lists them with their reasons.
 */
export function SweepDeltaChart({ deltas, repeats }: { deltas: SweepDelta[]; repeats: number }) {
  // Built once per sweep update: the chart draws again only when its data changes.
  const { shown, series, top, names } = useMemo(() => {
    const shown = deltas.filter((d) => d.worst !== null);
    const bars = sweepBars(shown);
    const series: ChartSeries[] = [
      { label: '|Δ| ÷ ε, worst run', values: bars.worst, color: '#b9770e', style: 'bars' },
      { label: '|Δ| ÷ ε, best run', values: bars.best, color: '#1a5276', style: 'points', ring: true },
      { label: 'ε (the band edge)', values: shown.map(() => 1), color: '#1e8449', style: 'dash' },
    ];
    return { shown, series, top: bars.top, names: shown.map((d) => chartName(d, repeats)) };
  }, [deltas, repeats]);
  const x = useMemo(() => shown.map((_, i) => i), [shown]);
  const range = useMemo((): [number, number] => [0, top], [top]);
  if (shown.length === 0) return null;
  const short = shown.some((d) => d.measured < repeats);
  return (
    <>
      <Chart
        testId="chart-sweep"
        title={`Largest |Δ| per substitution in units of its output's ε (1 = the edge of the band), worst and best of ${
          short
            ? `the runs measured (${runsWord(repeats)} asked of each; a best only where two were)`
            : runsWord(repeats)
        }`}
        x={x}
        xNames={names}
        xLabel="substitution"
        yLabel="|Δ| ÷ ε"
        yRange={range}
        horizontal
        series={series}
      />
      <p className="small" data-testid="sweep-band">
        {sweepDeltaWords(deltas, repeats)}
      </p>
      <details>
        <summary>Every BANDED output&apos;s |Δ| and ε, per substitution</summary>
        <table className="grid small" data-testid="sweep-deltas">
          <caption className="visually-hidden">|Δ| of each BANDED output per substitution, against its ε</caption>
          <ColumnHeads names={['Substitution', 'Output', '|Δ|', 'ε', 'Against ε']} />
          <tbody>
            {shown.flatMap((d) =>
              d.outputs.map((o) => (
                <tr key={`${d.whatIf} ${o.output}`}>
                  <td className="mono">{d.whatIf}</td>
                  <td className="mono">{o.output.replace(/^comp\.[A-Z]+\.OUTPUT\./, '')}</td>
                  <td className="mono">{deltaWords(o, repeats)}</td>
                  <td className="mono">{String(o.epsilon)}</td>
                  <td className={o.beyond ? 'bad' : ''}>{o.beyond ? 'beyond' : 'within'}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </details>
    </>
  );
}

/**
 * What the chart cannot hold: per substitution, each output its replays gave otherwise than
 * recorded with no |Δ| and ε (a dump's expression, compared EXACT by hash), recorded against
 * replayed in brief and what changed inside it, over how many of its runs; with the words
 * saying such a difference is not numeric, so it has no |Δ| to chart against ε. `measured`:
 * how many substitutions the chart shows.
 */
export function SweepDifferences({ differed, measured }: { differed: SweepDiffered[]; measured: number }) {
  const words = differedWords(differed, measured);
  const listed = differed.filter((d) => d.outputs.length > 0);
  if (!words) return null;
  return (
    <>
      <p className="small" data-testid="sweep-differed-words">
        {words}
      </p>
      {listed.length > 0 && (
        <table className="grid small sweep-differed" data-testid="sweep-differed">
          <caption>What differed from the recording, per substitution (not numeric: no |Δ| against ε)</caption>
          <ColumnHeads names={['Substitution', 'Output', 'Compared', 'Recorded', 'Replayed', 'What changed', 'In']} />
          <tbody>
            {listed.flatMap((d) =>
              d.outputs.map((o) => (
                <tr key={`${d.whatIf} ${o.output}`}>
                  <td className="mono">
                    <Shown text={d.whatIf} />
                  </td>
                  <td className="mono">
                    <Shown text={o.output} />
                  </td>
                  <td>{o.mode}, not numeric</td>
                  <td className="mono">
                    <Shown text={o.recorded} />
                  </td>
                  <td className="mono bad">
                    <Shown text={o.replayed} />
                  </td>
                  <td>
                    <Shown text={o.inside ?? 'the report says no more'} />
                  </td>
                  <td>{differedRunsWords(o)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      )}
    </>
  );
}

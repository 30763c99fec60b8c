import { useMemo } from 'react';
import type { SweepDelta, SweepOutput } from '../lib/sweep';
import { Chart, type ChartSeries } from './Chart';
import { ColumnHeads } from './ColumnHeads';

/** An output's |Δ| over the repeated runs, as the engine wrote each (no arithmetic on them). */
function deltaWords(o: SweepOutput): string {
  const lo = Math.min(...o.deltas);
  const hi = Math.max(...o.deltas);
  if (o.deltas.length === 1) return String(lo);
  return lo === hi ? `${lo} in all ${o.deltas.length} runs` : `from ${lo} to ${hi} over ${o.deltas.length} runs`;
}

/** In words: which substitutions put an output beyond its ε, and whether repeated runs agreed. */
function summary(shown: SweepDelta[], repeats: number): string {
  const beyond = shown.filter((d) => d.worst! > 1).map((d) => d.whatIf);
  const moved = shown.filter((d) => d.outputs.some((o) => Math.min(...o.deltas) !== Math.max(...o.deltas)));
  const band =
    beyond.length === 0
      ? 'No substitution puts an output beyond its ε.'
      : `Beyond ε (drift): ${beyond.join(', ')}. Within ε: ${shown.length - beyond.length} of ${shown.length}.`;
  const spread =
    repeats < 2
      ? 'One run of each: run each more than once to see the spread over repeated runs.'
      : moved.length === 0
        ? `Every substitution's ${repeats} runs gave the same |Δ|: the replay is deterministic, so the drift is the substitution's, not noise.`
        : `The |Δ| moved between repeated runs for ${moved.map((d) => d.whatIf).join(', ')}: part of the drift is noise of the run.`;
  return `${band} ${spread}`;
}

/**
 * The sweep's chart that teaches: per substitution, the largest |Δ| of its BANDED outputs in
 * units of that output's ε (1 is the edge of the governed band), for its worst and its best
 * run; with every output's |Δ| and ε as the engine wrote them in a table.
 */
export function SweepDeltaChart({ deltas, repeats }: { deltas: SweepDelta[]; repeats: number }) {
  // Built once per sweep update: the chart draws again only when its data changes.
  const { shown, series, top } = useMemo(() => {
    const shown = deltas.filter((d) => d.worst !== null);
    const series: ChartSeries[] = [
      { label: '|Δ| ÷ ε, worst run', values: shown.map((d) => d.worst), color: '#b9770e', style: 'bars' },
      { label: '|Δ| ÷ ε, best run', values: shown.map((d) => d.best), color: '#1a5276', style: 'points', ring: true },
      { label: 'ε (the band edge)', values: shown.map(() => 1), color: '#1e8449', style: 'dash' },
    ];
    return { shown, series, top: Math.max(1.2, ...shown.map((d) => d.worst! * 1.15)) };
  }, [deltas]);
  const x = useMemo(() => shown.map((_, i) => i), [shown]);
  const names = useMemo(() => shown.map((d) => d.whatIf), [shown]);
  const range = useMemo((): [number, number] => [0, top], [top]);
  if (shown.length === 0) return null;
  return (
    <>
      <Chart
        testId="chart-sweep"
        title={`Largest |Δ| per substitution in units of its output's ε (1 = the edge of the band), worst and best of ${repeats} ${repeats === 1 ? 'run' : 'runs'}`}
        x={x}
        xNames={names}
        xLabel="substitution"
        yLabel="|Δ| ÷ ε"
        yRange={range}
        horizontal
        series={series}
      />
      <p className="small" data-testid="sweep-band">
        {summary(shown, repeats)}
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
                  <td className="mono">{deltaWords(o)}</td>
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

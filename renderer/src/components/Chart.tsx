import { useEffect, useRef, type ReactNode } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { decimateIndices } from '../lib/decimate';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
  /** points only (no line), dashed threshold line, or bars */
  style?: 'points' | 'line' | 'dash' | 'bars';
  /** Points drawn as a ring around the value: a point under it (|Δ| = ε) stays visible. */
  ring?: boolean;
}

function drawThresholds(u: uPlot, series: ChartSeries[]): void {
  const { ctx, bbox } = u;
  for (const s of series) {
    const v = s.values[0];
    if (s.style !== 'dash' || typeof v !== 'number' || !s.values.every((x) => x === v)) continue;
    const y = u.valToPos(v, 'y', true);
    ctx.save();
    ctx.strokeStyle = s.color;
    ctx.lineWidth = 2 * devicePixelRatio;
    ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
    ctx.beginPath();
    ctx.moveTo(bbox.left, y);
    ctx.lineTo(bbox.left + bbox.width, y);
    ctx.stroke();
    ctx.restore();
  }
}

/** A small uPlot chart with a text table fallback for screen readers. */
export function Chart({ title, x, xLabel, yLabel, yRange, series, xNames, testId, children }: { title: string; x: number[]; xLabel: string; yLabel?: string; yRange?: [number, number]; series: ChartSeries[]; xNames?: string[]; testId: string; children?: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || x.length === 0) return;
    const style = getComputedStyle(document.documentElement);
    const fg = style.getPropertyValue('--fg').trim() || '#222';
    const grid = style.getPropertyValue('--border').trim() || '#ccc';
    const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
    const width = Math.max(320, el.clientWidth || 600);
    // Drawn: min/max per pixel column of big series; the legend shows the kept points' exact values.
    const keep = decimateIndices(x.length, width, series.map((s) => s.values));
    const pick = <T,>(a: readonly T[]): T[] => (keep.length === a.length ? [...a] : keep.map((i) => a[i]!));
    const plot = new uPlot(
      {
        width,
        height: 240,
        scales: { x: { time: false, range: (_u: uPlot, min: number, max: number): uPlot.Range.MinMax => [min - 0.5, max + 0.5] }, ...(yRange ? { y: { range: (): uPlot.Range.MinMax => yRange } } : {}) },
        legend: { show: true },
        // A dashed series of one constant value is a threshold: drawn across the whole plot,
        // so it shows even when there is a single x value (one model version, one evaluation).
        hooks: { draw: [(u: uPlot) => drawThresholds(u, series)] },
        // Room for the axis labels (uPlot's default size clips a label under tick names).
        axes: [
          { ...axis, label: xLabel, size: 40, labelSize: 24, ...(xNames ? { values: (_u: uPlot, ticks: number[]) => ticks.map((t) => (Number.isInteger(t) ? (xNames[t] ?? '') : '')) } : {}) },
          { ...axis, size: 56, ...(yLabel ? { label: yLabel, labelSize: 24 } : {}) },
        ],
        series: [
          { label: xLabel },
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: s.style === 'points' ? 0 : 2,
            ...(s.style === 'dash' ? { dash: [6, 4] } : {}),
            ...(s.style === 'bars' ? { paths: uPlot.paths.bars!({ size: [0.5, 60] }), fill: s.color + '88' } : {}),
            points: s.ring ? { show: true, size: 12, width: 2, fill: 'transparent', stroke: s.color } : { show: s.style === 'points', size: 7, fill: s.color, stroke: s.color },
          })),
        ],
      },
      [pick(x), ...series.map((s) => pick(s.values))] as uPlot.AlignedData,
      el,
    );
    return () => plot.destroy();
  }, [x, series, xLabel, yLabel, yRange, xNames]);
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <div ref={box} aria-hidden="true" />
      {children}
      <details>
        <summary>Chart data as a table</summary>
        <table className="grid small">
          <thead>
            <tr>
              <th scope="col">{xLabel}</th>
              {series.map((s) => (
                <th scope="col" key={s.label}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {x.slice(0, 200).map((xv, i) => (
              <tr key={i}>
                <td>{xNames?.[xv] ?? xv}</td>
                {series.map((s) => (
                  <td key={s.label}>{s.values[i] ?? '—'}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

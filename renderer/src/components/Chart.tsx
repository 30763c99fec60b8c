import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import {
  decimateIndices,
  exactValue,
  nameTickSpace,
  NAME_INCRS,
  nearestIndex,
  tickLabels,
  tickName,
} from '../lib/decimate';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
  /** points only (no line), dashed threshold line, or bars */
  style?: 'points' | 'line' | 'dash' | 'bars';
  /** Points drawn as a ring around the value: a point under it (|Δ| = ε) stays visible. */
  ring?: boolean;
  /** Line width in pixels (2): a wide line under a thin one keeps both visible where they agree. */
  width?: number;
}

interface ChartProps {
  title: string;
  x: number[];
  xLabel: string;
  yLabel?: string;
  yRange?: [number, number];
  series: ChartSeries[];
  xNames?: string[];
  testId: string;
  children?: ReactNode;
  /** Bars across, one row per named x value with its name beside it as text: long names stay whole and apart. */
  horizontal?: boolean;
}

const FONT_PX = 12;
/** Height of one line of a bar's name; a row of a horizontal bar chart holds its name's lines. */
const LINE_PX = 18;
const ROW_PAD = 12;
const TABLE_ROW = 28;

let measurer: CanvasRenderingContext2D | null = null;
/** Width in CSS pixels of `text` in `font`, to give an axis room for its labels. */
function textWidth(text: string, font: string): number {
  measurer ??= document.createElement('canvas').getContext('2d');
  if (!measurer) return text.length * FONT_PX * 0.6;
  // Setting a font parses it: only when it changes.
  if (measurer.font !== font) measurer.font = font;
  return measurer.measureText(text).width;
}

function drawThresholds(u: uPlot, series: ChartSeries[], horizontal: boolean): void {
  const { ctx, bbox } = u;
  for (const s of series) {
    const v = s.values[0];
    if (s.style !== 'dash' || typeof v !== 'number' || !s.values.every((x) => x === v)) continue;
    const at = u.valToPos(v, 'y', true);
    ctx.save();
    ctx.strokeStyle = s.color;
    ctx.lineWidth = 2 * devicePixelRatio;
    ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
    ctx.beginPath();
    ctx.moveTo(horizontal ? at : bbox.left, horizontal ? bbox.top : at);
    ctx.lineTo(horizontal ? at : bbox.left + bbox.width, horizontal ? bbox.top + bbox.height : at);
    ctx.stroke();
    ctx.restore();
  }
}

/**
 * The bars' names as text beside the plot (canvas tick labels cannot wrap and collide when
 * long): each centred on its bar's row and right-aligned against the plot.
 */
function placeNames(u: uPlot, x: readonly number[], names: readonly string[], width: number): void {
  const wrap = u.over.parentElement!;
  let box = wrap.querySelector<HTMLElement>('.chart-names');
  if (!box) {
    box = document.createElement('div');
    box.className = 'chart-names';
    for (const xv of x) box.appendChild(document.createElement('span')).textContent = names[xv] ?? '';
    wrap.appendChild(box);
  }
  const right = wrap.clientWidth - u.over.offsetLeft + 14;
  Array.from(box.children as HTMLCollectionOf<HTMLElement>).forEach((el, i) => {
    el.style.cssText = `right:${right}px;top:${u.over.offsetTop + u.valToPos(x[i]!, 'x')}px;max-width:${width}px`;
  });
}

/**
 * Hover reads the full series, never the drawn (decimated) one: the x under the cursor is
 * looked up in every point, the crosshair snaps to it, its markers sit on its exact values
 * and the legend shows them whole (`exactValue`, never uPlot's 3-decimal default).
 */
function exactHover(
  x: readonly number[],
  series: ChartSeries[],
  xNames: readonly string[] | undefined,
  horizontal: boolean,
) {
  let at: number | null = null;
  let shown: number | null | undefined;
  let marks: HTMLElement[] = [];
  const place = (u: uPlot) => {
    if (marks.length === 0)
      marks = series.map(() =>
        Object.assign(u.over.appendChild(document.createElement('div')), { className: 'chart-hover-pt' }),
      );
    series.forEach((s, i) => {
      const v = at === null ? null : s.values[at];
      const m = marks[i]!;
      m.style.borderColor = s.color;
      m.style.display = typeof v === 'number' && Number.isFinite(v) ? '' : 'none';
      if (typeof v !== 'number' || at === null) return;
      const [px, py] = [u.valToPos(x[at]!, 'x'), u.valToPos(v, 'y')];
      m.style.transform = horizontal ? `translate(${py}px, ${px}px)` : `translate(${px}px, ${py}px)`;
    });
  };
  return {
    value: (i: number) => (): string =>
      at === null ? '—' : i === 0 ? (xNames?.[x[at]!] ?? exactValue(x[at])) : exactValue(series[i - 1]!.values[at]),
    cursor: {
      points: { show: false },
      move: (u: uPlot, left: number, top: number): [number, number] => {
        const pos = horizontal ? top : left;
        at = pos < 0 ? null : nearestIndex(x, u.posToVal(pos, 'x'));
        if (at === null) return [left, top];
        const snap = u.valToPos(x[at]!, 'x');
        return horizontal ? [left, snap] : [snap, top];
      },
    } satisfies uPlot.Cursor,
    hooks: {
      setCursor: [
        (u: uPlot) => {
          place(u);
          // Values show in the legend only while a point is under the cursor (else each read "—").
          u.root.classList.toggle('hovering', at !== null);
          // uPlot refreshes its legend only when its own (decimated) index moves.
          if (shown !== at) u.setLegend({});
        },
      ],
      setLegend: [() => void (shown = at)],
    },
  };
}

function seriesOptions(series: ChartSeries[], value: (i: number) => () => string, xLabel: string): uPlot.Series[] {
  return [
    { label: xLabel, value: value(0) },
    ...series.map((s, i) => ({
      label: s.label,
      stroke: s.color,
      value: value(i + 1),
      width: s.style === 'points' ? 0 : (s.width ?? 2),
      ...(s.style === 'dash' ? { dash: [6, 4] } : {}),
      ...(s.style === 'bars' ? { paths: uPlot.paths.bars!({ size: [0.6, 48] }), fill: s.color + '88' } : {}),
      points: s.ring
        ? { show: true, size: 12, width: 2, fill: 'transparent', stroke: s.color }
        : { show: s.style === 'points', size: 7, fill: s.color, stroke: s.color },
    })),
  ];
}

/** Room for the longest tick label (never clipped; digits are as wide as each other), at least `least` pixels. */
const fitLabels =
  (font: string, least: number) =>
  (_u: uPlot, values: string[] | null): number =>
    Math.max(
      least,
      Math.ceil(
        textWidth(
          (values ?? []).reduce((a, v) => (v.length > a.length ? v : a), ''),
          font,
        ),
      ) + 18,
    );

type Layout = { font: string; color: string; grid: string; nameWidth: number };

/** Names under the bars, spaced by the widest so none overlaps (every k-th name when they are many; all in hover and the table). */
function namedTicks(names: readonly string[], font: string): Partial<uPlot.Axis> {
  const space = nameTickSpace(names, (t) => textWidth(t, font));
  return {
    space,
    incrs: NAME_INCRS,
    values: (_u: uPlot, ticks: number[]) =>
      ticks.map((t) => (Number.isInteger(t) && names[t] !== undefined ? tickName(names[t]) : '')),
  };
}

function axesOptions(p: ChartProps, l: Layout): uPlot.Axis[] {
  const axis = {
    stroke: l.color,
    font: l.font,
    labelFont: l.font,
    grid: { stroke: l.grid, width: 1 },
    ticks: { stroke: l.grid },
  };
  // Ticks as far apart as the scale's step, written with the decimals the step needs.
  const values = {
    values: (_u: uPlot, splits: number[], _a: number, _s: number, incr: number) => tickLabels(splits, incr),
  };
  const names = p.xNames;
  const xAxis: uPlot.Axis = p.horizontal
    ? {
        ...axis,
        side: 3,
        label: p.xLabel,
        labelSize: 24,
        size: l.nameWidth + 22,
        grid: { show: false },
        splits: () => [...p.x],
        values: (_u, t) => t.map(() => ''),
      }
    : { ...axis, label: p.xLabel, size: 40, labelSize: 24, ...(names ? namedTicks(names, l.font) : {}) };
  const yAxis: uPlot.Axis = p.horizontal
    ? { ...axis, ...values, side: 2, size: 40, space: 50, ...(p.yLabel ? { label: p.yLabel, labelSize: 24 } : {}) }
    : { ...axis, ...values, size: fitLabels(l.font, 56), ...(p.yLabel ? { label: p.yLabel, labelSize: 24 } : {}) };
  return [xAxis, yAxis];
}

/** The chart's options; the plot is `width` wide and, across, as tall as its rows of bars. */
function chartOptions(p: ChartProps, el: HTMLElement, width: number): { opts: uPlot.Options; height: number } {
  const style = getComputedStyle(document.documentElement);
  const font = `${FONT_PX}px ${getComputedStyle(el).fontFamily}`;
  const longest = Math.max(0, ...(p.horizontal ? p.x.map((v) => textWidth(p.xNames?.[v] ?? '', font)) : [0]));
  const nameWidth = Math.ceil(Math.min(longest, width * 0.4));
  const lines = nameWidth > 0 ? Math.ceil(longest / nameWidth) : 1;
  const height = p.horizontal ? Math.max(140, p.x.length * (lines * LINE_PX + ROW_PAD) + 80) : 240;
  const layout = {
    font,
    color: style.getPropertyValue('--fg').trim() || '#222',
    grid: style.getPropertyValue('--border').trim() || '#ccc',
    nameWidth,
  };
  const hover = exactHover(p.x, p.series, p.xNames, !!p.horizontal);
  const [lo, hi] = [p.x[0]!, p.x[p.x.length - 1]!];
  // Half a step beyond the first and last x, so a bar on either (or a single bar) is whole and centred;
  // a zoom (drag) keeps what was chosen.
  const xRange = (_u: uPlot, min: number, max: number): uPlot.Range.MinMax =>
    lo === hi || (min <= lo && max >= hi) ? [lo - 0.5, hi + 0.5] : [min, max];
  const opts: uPlot.Options = {
    width,
    height,
    scales: {
      x: { time: false, range: xRange, ...(p.horizontal ? { ori: 1, dir: -1 } : {}) },
      y: { ...(p.yRange ? { range: (): uPlot.Range.MinMax => p.yRange! } : {}), ...(p.horizontal ? { ori: 0 } : {}) },
    },
    legend: { show: true },
    cursor: hover.cursor,
    // A dashed series of one constant value is a threshold: drawn across the whole plot,
    // so it shows even when there is a single x value (one model version, one evaluation).
    hooks: {
      ...hover.hooks,
      draw: [
        (u: uPlot) => drawThresholds(u, p.series, !!p.horizontal),
        ...(p.horizontal && p.xNames ? [(u: uPlot) => placeNames(u, p.x, p.xNames!, nameWidth)] : []),
      ],
    },
    axes: axesOptions(p, layout),
    series: seriesOptions(p.series, hover.value, p.xLabel),
  };
  return { opts, height };
}

type TableProps = Pick<ChartProps, 'title' | 'x' | 'xLabel' | 'xNames' | 'series' | 'testId'>;

/** Every row of the chart's data, virtualized (only the rows in view are in the DOM). */
function DataRows({ title, x, xLabel, xNames, series, testId }: TableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count: x.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => TABLE_ROW,
    overscan: 12,
  });
  const width = `${100 / (series.length + 1)}%`;
  return (
    <div
      role="table"
      aria-label={`${title}: data`}
      aria-rowcount={x.length + 1}
      className="vtable chart-table"
      data-testid={`${testId}-table`}
    >
      <div role="rowgroup" className="vhead">
        <div role="row" className="vrow">
          {[xLabel, ...series.map((s) => s.label)].map((h, i) => (
            <div role="columnheader" key={i} style={{ width }}>
              {h}
            </div>
          ))}
        </div>
      </div>
      <div
        ref={scroller}
        className="vbody"
        tabIndex={0}
        role="rowgroup"
        aria-label={`${xLabel} rows (scroll)`}
        style={{ height: Math.min(420, x.length * TABLE_ROW + 2) }}
      >
        <div style={{ height: v.getTotalSize(), position: 'relative' }}>
          {v.getVirtualItems().map((item) => (
            <div
              role="row"
              aria-rowindex={item.index + 2}
              key={item.key}
              className="vrow"
              style={{
                position: 'absolute',
                top: 0,
                transform: `translateY(${item.start}px)`,
                height: TABLE_ROW,
                width: '100%',
              }}
            >
              <div role="cell" style={{ width }}>
                {xNames?.[x[item.index]!] ?? exactValue(x[item.index])}
              </div>
              {series.map((s, i) => (
                <div role="cell" key={i} style={{ width }} className="mono">
                  {exactValue(s.values[item.index])}
                </div>
              ))}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

/** The chart's data as a table, saying how many rows it has; built when opened (a big one costs nothing until then). */
function ChartTable(p: TableProps) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        Chart data as a table ({p.x.length.toLocaleString('en')} {p.x.length === 1 ? 'row' : 'rows'})
      </summary>
      {open && <DataRows {...p} />}
    </details>
  );
}

/** A small uPlot chart with its data as a table for screen readers. */
export function Chart(p: ChartProps) {
  const { title, x, xLabel, yLabel, yRange, series, xNames, testId, children, horizontal } = p;
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || x.length === 0) return;
    const width = Math.max(320, el.clientWidth || 600);
    const { opts, height } = chartOptions(
      { title, x, xLabel, yLabel, yRange, series, xNames, testId, horizontal },
      el,
      width,
    );
    // Drawn: min/max per pixel column of big series; hover and the table read every point.
    const keep = decimateIndices(
      x.length,
      width,
      series.map((s) => s.values),
    );
    const pick = <T,>(a: readonly T[]): T[] => (keep.length === a.length ? [...a] : keep.map((i) => a[i]!));
    const plot = new uPlot(opts, [pick(x), ...series.map((s) => pick(s.values))] as uPlot.AlignedData, el);
    // The plot follows its box's width (a narrower window), so nothing is drawn past its edge.
    const resized = new ResizeObserver(() => {
      const w = Math.max(320, el.clientWidth);
      if (w !== plot.width) plot.setSize({ width: w, height });
    });
    resized.observe(el);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, [title, x, xLabel, yLabel, yRange, series, xNames, testId, horizontal]);
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <div ref={box} className="chart-plot" aria-hidden="true" />
      {children}
      <ChartTable title={title} x={x} xLabel={xLabel} xNames={xNames} series={series} testId={testId} />
    </figure>
  );
}

import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Comparison, Report } from '../../../shared/report';
import { COLUMNS, nextSort, shownRows, type Sort } from '../lib/comparison-rows';
import { show } from '../lib/report-words';
import { ColumnFilter } from './ColumnFilter';
import { CopyValue } from './Copy';
import { JudgeButton } from './JudgementPanel';
import { Shown } from './Shown';

const ROW = 30;
const STATUSES = ['pass', 'fail', 'unavailable'] as const;
const WIDTHS = ['20%', '8%', '9%', '14%', '14%', '9%', '9%', '17%'];

function num(v: number | null | undefined): string {
  return typeof v === 'number'
    ? Math.abs(v) < 1e-4 && v !== 0
      ? v.toExponential(3)
      : String(Math.round(v * 1e6) / 1e6)
    : '—';
}

/** How many comparison rows exist when the report keeps fewer (a cap), and the limit that capped them. */
export interface ComparisonCap {
  kept: number;
  total: number;
  /** The `--limit` name, from the engine's info finding (RPR-ACGP-035 names it). */
  limit: string | null;
  rule: string | null;
}

/**
 * The engine counts every row (`details.comparisonCounts`: pass, fail, unavailable) even
 * when it keeps only the first N in the report; when the counts exceed the rows kept, the
 * table says so where the rows are, with the info finding that disclosed it.
 */
export function comparisonCap(r: Report): ComparisonCap | null {
  const counts = r.details?.['comparisonCounts'];
  if (typeof counts !== 'object' || counts === null || Array.isArray(counts)) return null;
  const total = Object.values(counts).reduce<number>((a, v) => a + (typeof v === 'number' ? v : 0), 0);
  const kept = r.comparisons?.length ?? 0;
  if (total <= kept) return null;
  const f = r.findings.find((x) => x.severity === 'info' && /comparison row\(s\).*left out/.test(x.message));
  const limit = f ? (/limits? ([a-z-]*comparisons)/.exec(f.message)?.[1] ?? null) : null;
  return { kept, total, limit, rule: f?.rule ?? null };
}

function CapNote({ cap, path }: { cap: ComparisonCap; path: string }) {
  const limit = cap.limit ?? 'NAME';
  return (
    <p className="cap-note" role="note" data-testid="comparisons-cap">
      <strong>
        Showing the first {cap.kept.toLocaleString('en')} of {cap.total.toLocaleString('en')} comparisons.
      </strong>{' '}
      The report keeps at most {cap.kept.toLocaleString('en')} rows (limit <code>{limit}</code>
      {cap.rule && <>, disclosed by {cap.rule}</>}); {(cap.total - cap.kept).toLocaleString('en')} rows are counted in
      the totals but not listed. To get every row, run{' '}
      <code className="mono">
        reprise replay <Shown text={path} /> --json --limit {limit}={cap.total}
      </code>{' '}
      (the JSON Lines output, <code>--jsonl</code>, carries the same capped report: raise the limit there too).
    </p>
  );
}

/**
 * One comparison row. Its cells are cut with an ellipsis to keep 100,000 rows at one
 * height; the output's button shows the row whole below the table (ComparisonDetail).
 */
function ComparisonRow({
  c,
  index,
  rowIndex,
  start,
  chosen,
  choose,
  detailId,
}: {
  c: Comparison;
  index: number;
  rowIndex: number;
  start: number;
  chosen: boolean;
  choose: (i: number) => void;
  detailId: string;
}) {
  return (
    <div
      role="row"
      aria-rowindex={rowIndex + 2}
      className={`vrow ${c.status}${chosen ? ' chosen' : ''}`}
      style={{ position: 'absolute', top: 0, transform: `translateY(${start}px)`, height: ROW, width: '100%' }}
    >
      <div role="cell" style={{ width: WIDTHS[0] }} className="mono small">
        <button
          type="button"
          className="link cell-open"
          aria-pressed={chosen}
          aria-controls={detailId}
          onClick={() => choose(index)}
        >
          <span>{c.output}</span>
        </button>
      </div>
      <div role="cell" style={{ width: WIDTHS[1] }}>
        {c.mode}
      </div>
      <div role="cell" style={{ width: WIDTHS[2] }}>
        <span className={`sev ${c.status}`}>{c.status}</span>
      </div>
      {[show(c.original), show(c.replayed), num(c.delta), num(c.epsilon)].map((text, i) => (
        <div role="cell" key={i} style={{ width: WIDTHS[i + 3] }} className="mono small">
          {text}
        </div>
      ))}
      <div role="cell" style={{ width: WIDTHS[7] }}>
        <JudgeButton pointer={`/comparisons/${index}`} label={`comparison ${c.output}`} />
      </div>
    </div>
  );
}

/** The chosen comparison whole: every value wraps, each with a Copy button. */
function ComparisonDetail({ c, id }: { c: Comparison | null; id: string }) {
  const ref = useRef<HTMLElement>(null);
  // The table is taller than most windows: bring the detail into view when a row is chosen.
  useEffect(() => {
    if (c) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [c]);
  return (
    <section
      ref={ref}
      className="comparison-detail"
      id={id}
      aria-labelledby={`${id}-h`}
      data-testid="comparison-detail"
    >
      <h4 id={`${id}-h`}>{c ? `Comparison ${c.output}` : 'Comparison'}</h4>
      {!c ? (
        <p className="muted small">
          Choose an output in the table to see its values here whole, each with a Copy button.
        </p>
      ) : (
        <dl className="meta">
          <dt>Output</dt>
          <dd className="small">
            <CopyValue value={c.output} label={`the output name ${c.output}`} />
          </dd>
          <dt>Mode, status</dt>
          <dd>
            {c.mode}, <span className={`sev ${c.status}`}>{c.status}</span>
          </dd>
          <dt>Original</dt>
          <dd className="small">
            <CopyValue
              value={show(c.original)}
              label={`the original value of ${c.output}`}
              testId="comparison-original"
            />
          </dd>
          <dt>Replayed</dt>
          <dd className="small">
            <CopyValue
              value={show(c.replayed)}
              label={`the replayed value of ${c.output}`}
              testId="comparison-replayed"
            />
          </dd>
          <dt>Δ, ε</dt>
          <dd className="mono small">
            {num(c.delta)}, {num(c.epsilon)}
          </dd>
          {c.reason && (
            <>
              <dt>Reason</dt>
              <dd>{c.reason}</dd>
            </>
          )}
        </dl>
      )}
    </section>
  );
}

/** The comparisons, virtualized (only the visible rows exist in the DOM), filterable by mode and status. */
export const ComparisonsTable = memo(function ComparisonsTable({
  comparisons,
  cap = null,
  path = 'FILE',
}: {
  comparisons: Comparison[];
  cap?: ComparisonCap | null;
  path?: string;
}) {
  const [sort, setSort] = useState<Sort | null>(null);
  const [mode, setMode] = useState<string | undefined>(undefined);
  const [status, setStatus] = useState<string | undefined>(undefined);
  // The chosen row belongs to the comparisons it was chosen in: a new report starts with none.
  const [chosen, setChosen] = useState<{ of: Comparison[]; index: number } | null>(null);
  const chosenIndex = chosen?.of === comparisons ? chosen.index : null;
  const rows = useMemo(() => shownRows(comparisons, sort, mode, status), [comparisons, sort, mode, status]);
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 12,
  });
  const modes = useMemo(() => [...new Set(comparisons.map((c) => c.mode))].sort(), [comparisons]);
  const detailId = useId();

  return (
    <div className="comparisons">
      {cap && <CapNote cap={cap} path={path} />}
      <div className="toolbar">
        <ColumnFilter label="Mode" testId="filter-mode" options={modes} apply={setMode} />
        <ColumnFilter label="Status" testId="filter-status" options={STATUSES} apply={setStatus} />
        <span className="muted" data-testid="comparison-count" role="status">
          {rows.length.toLocaleString('en')} of {comparisons.length.toLocaleString('en')} comparisons
          {cap ? ` listed (${cap.total.toLocaleString('en')} exist)` : ''}
        </span>
      </div>
      <div
        role="table"
        aria-label="Comparisons"
        aria-rowcount={rows.length + 1}
        className="vtable"
        data-testid="comparisons"
      >
        <ComparisonHeads sort={sort} setSort={setSort} />
        <div
          ref={scroller}
          className="vbody"
          tabIndex={0}
          role="rowgroup"
          aria-label="Comparison rows (scroll)"
          data-testid="comparisons-scroll"
        >
          <div style={{ height: v.getTotalSize(), position: 'relative' }}>
            {v.getVirtualItems().map((item) => {
              const index = rows[item.index]!;
              return (
                <ComparisonRow
                  key={item.key}
                  c={comparisons[index]!}
                  index={index}
                  rowIndex={item.index}
                  start={item.start}
                  chosen={chosenIndex === index}
                  choose={(i) => setChosen({ of: comparisons, index: i })}
                  detailId={detailId}
                />
              );
            })}
          </div>
        </div>
      </div>
      <ComparisonDetail c={chosenIndex === null ? null : (comparisons[chosenIndex] ?? null)} id={detailId} />
    </div>
  );
});

function ComparisonHeads({ sort, setSort }: { sort: Sort | null; setSort: (s: Sort | null) => void }) {
  return (
    <div role="rowgroup" className="vhead">
      <div role="row" className="vrow">
        {COLUMNS.map((col, i) => {
          const dir = sort?.id === col.id ? (sort.desc ? 'desc' : 'asc') : null;
          return (
            <div
              role="columnheader"
              key={col.id}
              style={{ width: WIDTHS[i] }}
              aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}
            >
              <button type="button" className="sort" onClick={() => setSort(nextSort(sort, col.id))}>
                {col.header}
                <span aria-hidden="true">{dir === 'asc' ? ' ▲' : dir === 'desc' ? ' ▼' : ''}</span>
              </button>
            </div>
          );
        })}
        <div role="columnheader" style={{ width: WIDTHS[7] }}>
          Judgement
        </div>
      </div>
    </div>
  );
}

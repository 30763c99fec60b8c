import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { TimelineEvent } from '../../../shared/case';
import { escapeControls } from '../../../shared/controls';
import { ColumnFilter } from './ColumnFilter';
import { Shown } from './Shown';

const ROW = 30;
const SEVERITIES = ['fail', 'unavailable', 'warning', 'info'] as const;
const HEADS = ['Time (UTC)', 'Artifact', 'Kind', 'Event', 'Severity', 'Node'];
const WIDTHS = ['17%', '22%', '13%', '26%', '9%', '13%'];

export interface TimelineFilter {
  artifact?: string | undefined;
  kind?: string | undefined;
  severity?: string | undefined;
}

/** The indexes of the events the filter keeps, in the timeline's own order. */
export function filterTimeline(events: readonly TimelineEvent[], f: TimelineFilter): number[] {
  const out: number[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (
      (f.artifact === undefined || e.artifact === f.artifact) &&
      (f.kind === undefined || e.kind === f.kind) &&
      (f.severity === undefined || e.severity === f.severity)
    )
      out.push(i);
  }
  return out;
}

/**
 * The artifact filter's choices, as Shown writes its paths (an option holds text alone, so
 * as escaped text), each with the path it stands for.
 */
function shownChoices(paths: readonly string[]): Map<string, string> {
  return new Map(paths.map((p) => [escapeControls(p), p]));
}

/** The distinct values of one field, sorted (the filters' choices). */
function distinct(events: readonly TimelineEvent[], k: 'artifact' | 'kind'): string[] {
  const s = new Set<string>();
  for (const e of events) s.add(e[k]);
  return [...s].sort();
}

const EventRow = memo(function EventRow({
  e,
  rowIndex,
  start,
  active,
  open,
  focusMe,
}: {
  e: TimelineEvent;
  rowIndex: number;
  start: number;
  active: boolean;
  open: (e: TimelineEvent) => void;
  focusMe: () => void;
}) {
  return (
    <div
      role="row"
      aria-rowindex={rowIndex + 2}
      data-index={rowIndex}
      className={`vrow ${e.severity}${active ? ' chosen' : ''}`}
      style={{ position: 'absolute', top: 0, transform: `translateY(${start}px)`, height: ROW, width: '100%' }}
    >
      <div role="cell" style={{ width: WIDTHS[0] }} className="mono small">
        {e.atUtc}
      </div>
      <div role="cell" style={{ width: WIDTHS[1] }} className="mono small" title={escapeControls(e.artifact)}>
        <Shown text={e.artifact} />
      </div>
      <div role="cell" style={{ width: WIDTHS[2] }} className="small">
        {e.kind}
      </div>
      <div role="cell" style={{ width: WIDTHS[3] }}>
        <button
          type="button"
          className="link cell-open"
          tabIndex={active ? 0 : -1}
          onFocus={focusMe}
          onClick={() => open(e)}
          title={escapeControls(`Open ${e.artifact} in the chain view${e.node ? ` at ${e.node}` : ''}`)}
        >
          <span>
            <Shown text={e.label} />
          </span>
        </button>
      </div>
      <div role="cell" style={{ width: WIDTHS[4] }}>
        <span className={`sev ${e.severity}`}>{e.severity}</span>
      </div>
      <div role="cell" style={{ width: WIDTHS[5] }} className="mono small" title={escapeControls(e.node ?? e.pointer)}>
        <Shown text={e.node ?? e.pointer} />
      </div>
    </div>
  );
});

function TimelineHeads() {
  const cells = HEADS.map((h, i) => (
    <div role="columnheader" key={h} style={{ width: WIDTHS[i] }}>
      {h}
    </div>
  ));
  return (
    <div role="rowgroup" className="vhead">
      <div role="row" className="vrow">
        {cells}
      </div>
    </div>
  );
}

/** Where the arrow keys, Page keys, Home and End move the active row (null: not a moving key). */
function moved(key: string, at: number, count: number, page: number): number | null {
  const to =
    key === 'ArrowDown'
      ? at + 1
      : key === 'ArrowUp'
        ? at - 1
        : key === 'PageDown'
          ? at + page
          : key === 'PageUp'
            ? at - page
            : key === 'Home'
              ? 0
              : key === 'End'
                ? count - 1
                : null;
  return to === null ? null : Math.max(0, Math.min(count - 1, to));
}

/**
 * Every event of the case in one list, virtualized (only the rows in view exist in the
 * DOM), filtered by artifact, kind and severity. One row's button is in the Tab order at a
 * time; the arrow keys, Page Up/Down, Home and End move it (scrolling it into view), Enter
 * or a click opens the event's artifact in the chain view at its node.
 */
export const CaseTimeline = memo(function CaseTimeline({
  events,
  open,
  lacking = [],
}: {
  events: readonly TimelineEvent[];
  open: (e: TimelineEvent) => void;
  /** The artifacts whose times the timeline lacks (the case's RPR-CASE-004 findings): its count never reads as all there is. */
  lacking?: readonly string[];
}) {
  const [filter, setFilter] = useState<TimelineFilter>({});
  const rows = useMemo(() => filterTimeline(events, filter), [events, filter]);
  const artifacts = useMemo(() => shownChoices(distinct(events, 'artifact')), [events]);
  const kinds = useMemo(() => distinct(events, 'kind'), [events]);
  const [active, setActive] = useState(0);
  const at = Math.min(active, Math.max(0, rows.length - 1));
  const scroller = useRef<HTMLDivElement>(null);
  const wantFocus = useRef(false);
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 12,
  });
  // A key moved the active row: focus its button once the row is rendered.
  useEffect(() => {
    if (!wantFocus.current) return;
    wantFocus.current = false;
    requestAnimationFrame(() =>
      scroller.current?.querySelector<HTMLButtonElement>(`[data-index="${at}"] button`)?.focus(),
    );
  }, [at]);
  const onKey = (e: KeyboardEvent): void => {
    const to = moved(e.key, at, rows.length, Math.max(1, Math.floor(420 / ROW) - 1));
    if (to === null) return;
    e.preventDefault();
    wantFocus.current = true;
    setActive(to);
    v.scrollToIndex(to, { align: 'auto' });
  };
  const set = (k: keyof TimelineFilter) => (value: string | undefined) => {
    setFilter((f) => ({ ...f, [k]: value }));
    setActive(0);
  };
  return (
    <div className="case-timeline">
      <div className="toolbar">
        <ColumnFilter
          label="Artifact"
          testId="timeline-artifact"
          options={[...artifacts.keys()]}
          apply={(shown) => set('artifact')(shown === undefined ? undefined : artifacts.get(shown))}
        />
        <ColumnFilter label="Kind" testId="timeline-kind" options={kinds} apply={set('kind')} />
        <ColumnFilter label="Severity" testId="timeline-severity" options={SEVERITIES} apply={set('severity')} />
        <span className="muted" role="status" data-testid="timeline-count">
          {rows.length.toLocaleString('en')} of {events.length.toLocaleString('en')} events
          {lacking.length > 0 && (
            <>
              ; not every time of{' '}
              {lacking.length === 1 ? <Shown text={lacking[0]!} /> : `${lacking.length.toLocaleString('en')} artifacts`}{' '}
              is on it (the case's findings say which and why)
            </>
          )}
        </span>
      </div>
      <div role="table" aria-label="Timeline" aria-rowcount={rows.length + 1} className="vtable" data-testid="timeline">
        <TimelineHeads />
        <div
          role="rowgroup"
          aria-label="Timeline events (arrow keys move, Enter opens)"
          data-testid="timeline-scroll"
          className="vbody"
          ref={scroller}
          onKeyDown={onKey}
          tabIndex={0}
        >
          <div style={{ height: v.getTotalSize(), position: 'relative' }}>
            {v.getVirtualItems().map((item) => (
              <EventRow
                key={item.key}
                e={events[rows[item.index]!]!}
                rowIndex={item.index}
                start={item.start}
                active={item.index === at}
                open={open}
                focusMe={() => setActive(item.index)}
              />
            ))}
          </div>
        </div>
      </div>
      {rows.length === 0 && (
        <p className="muted" data-testid="timeline-empty">
          No event {events.length ? 'matches these filters' : 'in this case'}.
        </p>
      )}
    </div>
  );
});

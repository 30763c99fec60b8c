import { useMemo, useState } from 'react';
import type { CaseView } from '../../../shared/api';
import { ageWords, claimIdWarning, queueOf, STATES, type Sort, type SortKey } from '../lib/officer';
import { ClaimShown } from './Shown';

function SortableHead({
  k,
  label,
  sort,
  setSort,
}: {
  k: SortKey;
  label: string;
  sort: Sort;
  setSort: (s: Sort) => void;
}) {
  const on = sort.key === k;
  return (
    <th scope="col" aria-sort={on ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button
        type="button"
        className="sort"
        onClick={() => setSort({ key: k, dir: on && sort.dir === 'asc' ? 'desc' : 'asc' })}
        data-testid={`queue-sort-${k}`}
      >
        {label}
        <span aria-hidden="true">{on ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );
}

/** The filters above the queue: state and claim, with how many cases they show. */
function QueueFilters(p: {
  cases: readonly CaseView[];
  shown: number;
  state: string;
  setState: (s: string) => void;
  claim: string;
  setClaim: (s: string) => void;
}) {
  return (
    <div className="toolbar" role="group" aria-label="Filter the cases">
      <label>
        State{' '}
        <select value={p.state} onChange={(e) => p.setState(e.target.value)} data-testid="queue-state">
          <option value="">every state ({p.cases.length})</option>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {s} ({p.cases.filter((c) => c.state === s).length})
            </option>
          ))}
        </select>
      </label>
      <label>
        Claim contains{' '}
        <input type="search" value={p.claim} onChange={(e) => p.setClaim(e.target.value)} data-testid="queue-claim" />
      </label>
      <span className="small" role="status" data-testid="queue-count">
        {p.shown} of {p.cases.length} cases shown
      </span>
    </div>
  );
}

/** The quarantine cases: filtered, sorted, one row each; a row (click, Enter or Space) chooses its case. */
export function CaseQueue({
  cases,
  chosen,
  choose,
}: {
  cases: CaseView[];
  chosen: string | null;
  choose: (id: string) => void;
}) {
  const [state, setState] = useState('');
  const [claim, setClaim] = useState('');
  const [sort, setSort] = useState<Sort>({ key: 'state', dir: 'asc' });
  const shown = useMemo(() => queueOf(cases, state, claim, sort), [cases, state, claim, sort]);
  const now = Date.now();
  const head = { sort, setSort };
  return (
    <>
      <QueueFilters
        cases={cases}
        shown={shown.length}
        state={state}
        setState={setState}
        claim={claim}
        setClaim={setClaim}
      />
      <table className="grid" data-testid="case-queue">
        <caption className="visually-hidden">Quarantine cases and their states</caption>
        <thead>
          <tr>
            <th scope="col">Case</th>
            <SortableHead k="state" label="State" {...head} />
            <SortableHead k="claim" label="Claim" {...head} />
            <th scope="col">Source</th>
            <SortableHead k="age" label="Age" {...head} />
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((x) => (
            <tr
              key={x.caseId}
              className={`clickable${chosen === x.caseId ? ' chosen' : ''}`}
              tabIndex={0}
              // The chosen case is said, not only coloured (a plain table's row: aria-current, not aria-selected).
              aria-current={chosen === x.caseId ? 'true' : undefined}
              onClick={() => choose(x.caseId)}
              onKeyDown={(e) => {
                // Enter or Space chooses the row, as they press a button (Space without scrolling the page).
                if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return;
                e.preventDefault();
                choose(x.caseId);
              }}
              data-case={x.caseId}
            >
              <td className="mono">{x.caseId}</td>
              <td>
                <span className={`state ${x.state}`}>{x.state}</span>
              </td>
              <td className="mono small" title={claimIdWarning(x.claimRef) ?? undefined}>
                <ClaimShown claim={x.claimRef} />
              </td>
              <td>{x.source}</td>
              <td className="small">
                {ageWords(x.openedAtUtc, now)} <span className="muted">(opened {x.openedAtUtc})</span>
              </td>
              <td className="small">{x.updatedAtUtc}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

import { createColumnHelper, useTable } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import type { ChainNode, Finding, Report } from '../../../shared/report';
import { focusWhenShown } from '../lib/focus';
import { Shown } from './Shown';
import { CopyValue } from './Copy';
import { copyable, findingValues, show } from '../lib/report-words';
import { features } from '../lib/table';
import { useStore } from '../store';
import { useShallow } from 'zustand/react/shallow';
import { ColumnFilter } from './ColumnFilter';
import { SortHeader } from './SortHeader';
import { JudgeButton } from './JudgementPanel';

type Row = Finding & { index: number };
const helper = createColumnHelper<typeof features, Row>();
const columns = helper.columns([
  helper.accessor('rule', { header: 'Rule', sortFn: 'alphanumeric', filterFn: 'includesString' }),
  helper.accessor('severity', { header: 'Severity', sortFn: 'text', filterFn: 'equalsString' }),
  helper.accessor('message', { header: 'Message', sortFn: 'text', filterFn: 'includesString' }),
  helper.accessor((r) => r.pointer ?? '', {
    id: 'pointer',
    header: 'Pointer',
    sortFn: 'text',
    filterFn: 'includesString',
  }),
]);
const SEVERITIES = ['fail', 'unavailable', 'warning', 'info'] as const;
const LABELS: Record<string, string> = { rule: 'Rule', severity: 'Severity', message: 'Message', pointer: 'Pointer' };

/**
 * A finding's values whole, in the words the chain, the Trainer and the comparisons use for
 * the same comparison (lib/report-words.ts findingValues); a hash, key id or pointer with a
 * Copy button.
 */
const NONE: readonly string[] = [];

function Values({ f, chain }: { f: Finding; chain: ChainNode[] }) {
  const recomputed = useStore((s) => s.info?.recomputedRules ?? NONE);
  return (
    <>
      {findingValues(f, chain, recomputed).map(({ word, value }) => (
        <div key={word} data-word={word}>
          {word}{' '}
          {copyable(value) ? (
            <CopyValue value={value} label={`the ${word} value of ${f.rule}`} />
          ) : (
            <span className="mono">{show(value)}</span>
          )}
        </div>
      ))}
    </>
  );
}

/** Findings: sortable and filterable; a click (or Enter) jumps to the finding in the chain and editor. */
export function FindingsView({ report }: { report: Report }) {
  const { select, setView } = useStore(useShallow((s) => ({ select: s.select, setView: s.setView })));
  const data = useMemo(() => report.findings.map((f, index) => ({ ...f, index })), [report]);
  const table = useTable({ features, columns, data, getRowId: (r) => String(r.index) });
  const [text, setText] = useState('');

  const open = (r: Row): void => {
    const node = report.chain.find(
      (n) => n.pointer && r.pointer && (r.pointer === n.pointer || r.pointer.startsWith(n.pointer + '/')),
    );
    select({ findingIndex: r.index, pointer: r.pointer ?? null, nodeId: node?.id ?? null });
    setView('chain');
    focusWhenShown('selected-finding');
  };

  return (
    <section className="panel" aria-labelledby="findings-h">
      <h2 id="findings-h">Findings ({report.findings.length})</h2>
      <div className="toolbar">
        <label>
          Search messages{' '}
          <input
            type="search"
            value={text}
            data-testid="findings-search"
            onChange={(e) => {
              setText(e.target.value);
              table.getColumn('message')?.setFilterValue(e.target.value || undefined);
            }}
          />
        </label>
        <ColumnFilter
          label="Severity"
          options={SEVERITIES}
          apply={(v) => table.getColumn('severity')?.setFilterValue(v)}
        />
      </div>
      {report.findings.length === 0 ? (
        <p>No findings: every check passed.</p>
      ) : (
        <table className="findings grid" data-testid="findings">
          <caption className="visually-hidden">Findings, sortable by column</caption>
          <thead>
            {table.getHeaderGroups().map((g) => (
              <tr key={g.id}>
                {g.headers.map((h) => (
                  <SortHeader key={h.id} header={h} label={LABELS[h.column.id] ?? h.column.id} />
                ))}
                <th scope="col">Values</th>
                <th scope="col">Judgement</th>
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => {
              const f = row.original;
              return (
                <tr
                  key={row.id}
                  className={`clickable ${f.severity}`}
                  tabIndex={0}
                  onClick={() => open(f)}
                  onKeyDown={(e) => e.key === 'Enter' && open(f)}
                  aria-label={`Open ${f.rule} in the chain and editor`}
                >
                  <td className="mono rule">{f.rule}</td>
                  <td>
                    <span className={`sev ${f.severity}`}>{f.severity}</span>
                  </td>
                  <td>
                    <Shown text={f.message} />
                  </td>
                  <td>{f.pointer ? <CopyValue value={f.pointer} label={`the pointer of ${f.rule}`} /> : ''}</td>
                  <td className="small finding-values" data-testid="finding-values">
                    <Values f={f} chain={report.chain} />
                  </td>
                  <td>
                    <JudgeButton pointer={`/findings/${f.index}`} label={`finding ${f.rule}`} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

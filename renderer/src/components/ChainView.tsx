import { createColumnHelper, useTable } from '@tanstack/react-table';
import { lazy, Suspense, useMemo, useState } from 'react';
import type { ArtifactContent } from '../../../shared/api';
import type { ChainNode, Report } from '../../../shared/report';
import { directoryLine } from '../lib/pointer';
import { highlightTone, placeHeading, type HighlightTone } from '../lib/highlight';
import { features } from '../lib/table';
import { useStore } from '../store';
import { useShallow } from 'zustand/react/shallow';
import { SortHeader } from './SortHeader';
import { ChainTree, short, STATUS_TEXT } from './ChainTree';
import { CopyValue } from './Copy';
import { copyable, repeatedLabels } from '../lib/report-words';
import { Loading } from './Loading';
import { Shown } from './Shown';

const ArtifactEditor = lazy(() => import('./Editors').then((m) => ({ default: m.ArtifactEditor })));

const helper = createColumnHelper<typeof features, ChainNode>();
const columns = helper.columns([
  helper.accessor('label', { header: 'Node', sortFn: 'text' }),
  helper.accessor('status', { header: 'Status', sortFn: 'text' }),
  helper.accessor((n) => n.recorded ?? '', { id: 'recorded', header: 'Recorded', sortFn: 'text' }),
  helper.accessor((n) => n.recomputed ?? '', { id: 'recomputed', header: 'Recomputed', sortFn: 'text' }),
]);
const LABELS: Record<string, string> = {
  label: 'Node',
  status: 'Status',
  recorded: 'Recorded',
  recomputed: 'Recomputed',
};

const useChainTable = (chain: ChainNode[]) => useTable({ features, columns, data: chain, getRowId: (n) => n.id });
type PickNode = (n: ChainNode) => void;

function ChainTable({
  table,
  chosen,
  pick,
  chain,
}: {
  table: ReturnType<typeof useChainTable>;
  chosen: string | null;
  pick: PickNode;
  chain: ChainNode[];
}) {
  const repeated = useMemo(() => repeatedLabels(chain), [chain]);
  return (
    <table className="chain grid" data-testid="chain">
      <caption className="visually-hidden">Hash chain nodes</caption>
      <thead>
        {table.getHeaderGroups().map((g) => (
          <tr key={g.id}>
            {g.headers.map((h) => (
              <SortHeader key={h.id} header={h} label={LABELS[h.column.id] ?? h.column.id} />
            ))}
          </tr>
        ))}
      </thead>
      <tbody>
        {table.getRowModel().rows.map((row) => {
          const n = row.original;
          return (
            <tr
              key={row.id}
              className={`clickable ${n.status}${chosen === n.id ? ' chosen' : ''}`}
              tabIndex={0}
              onClick={() => pick(n)}
              onKeyDown={(e) => e.key === 'Enter' && pick(n)}
            >
              <td>
                <Shown text={n.label} />
                {repeated.has(n.label) && <span className="mono small node-id"> {short(n.id)}</span>}
              </td>
              <td>
                <span className={`status-badge ${n.status}`}>{STATUS_TEXT[n.status]}</span>
              </td>
              <td className="small">
                {n.recorded ? <CopyValue value={n.recorded} label={`the recorded hash of ${n.label}`} /> : '—'}
              </td>
              <td className="small">
                {n.recomputed ? <CopyValue value={n.recomputed} label={`the recomputed hash of ${n.label}`} /> : '—'}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function NodeMeta({ node }: { node: ChainNode }) {
  return (
    <dl className="meta">
      <dt>Node</dt>
      <dd>
        <Shown text={node.label} />
      </dd>
      <dt>Id</dt>
      <dd className="small">
        {copyable(node.id) ? (
          <CopyValue value={node.id} label="the node's id" testId="node-id" />
        ) : (
          <span className="mono">{node.id}</span>
        )}
      </dd>
      <dt>Status</dt>
      <dd>
        <span className={`status-badge ${node.status}`}>{STATUS_TEXT[node.status]}</span>
      </dd>
      <dt>Recorded</dt>
      <dd className="small">
        {node.recorded ? <CopyValue value={node.recorded} label="the recorded hash" testId="node-recorded" /> : '—'}
      </dd>
      <dt>Recomputed</dt>
      <dd className="small">
        {node.recomputed ? (
          <CopyValue value={node.recomputed} label="the recomputed hash" testId="node-recomputed" />
        ) : (
          '—'
        )}
      </dd>
      {node.pointer && (
        <>
          <dt>Pointer</dt>
          <dd className="small">
            <CopyValue value={node.pointer} label="the node's pointer" />
          </dd>
        </>
      )}
    </dl>
  );
}

/**
 * A directory artifact's files (a journal's entries and checkpoints), one at a time: the
 * file the selected pointer names is shown with its line marked (a case's journal event),
 * and another can be chosen.
 */
function DirectoryFiles({ files, tone }: { files: NonNullable<ArtifactContent['files']>; tone: HighlightTone }) {
  const { pointer, theme } = useStore(useShallow((s) => ({ pointer: s.selection.pointer, theme: s.theme })));
  const at = directoryLine(
    files.map((f) => f.name),
    pointer,
  );
  // A choice holds until the selection changes; then the selected pointer's file is shown.
  const [chosen, setChosen] = useState<{ file: number; for: string | null } | null>(null);
  const file = chosen !== null && chosen.for === pointer ? chosen.file : at.file;
  const shown = files[file]!;
  return (
    <>
      <div className="toolbar" role="group" aria-label="File of the directory">
        {files.map((f, i) => (
          <button
            key={f.name}
            type="button"
            aria-pressed={i === file}
            onClick={() => setChosen({ file: i, for: pointer })}
            data-testid="directory-file"
          >
            {f.name}
          </button>
        ))}
      </div>
      {shown.raw ? (
        <Suspense fallback={<Loading>Loading the editor…</Loading>}>
          <ArtifactEditor
            text={shown.raw}
            pointer={file === at.file ? at.pointer : null}
            tone={tone}
            theme={theme}
            label={`${shown.name} text`}
          />
        </Suspense>
      ) : (
        <p className="muted">{shown.note ?? 'No text to show.'}</p>
      )}
      {shown.raw && shown.note && <p className="muted small">{shown.note}</p>}
    </>
  );
}

/** The artifact's raw or canonical text in Monaco, the selected pointer highlighted (a directory's files, one at a time). */
function ArtifactPane({ report, tone }: { report: Report; tone: HighlightTone }) {
  const { pointer, content, theme } = useStore(
    useShallow((s) => ({ pointer: s.selection.pointer, content: s.content, theme: s.theme })),
  );
  const [which, setWhich] = useState<'raw' | 'canonical'>('raw');
  if (content?.files?.length) return <DirectoryFiles files={content.files} tone={tone} />;
  const text = which === 'canonical' ? content?.canonical : content?.raw;
  return (
    <>
      <div className="toolbar" role="group" aria-label="Editor text">
        <button type="button" aria-pressed={which === 'raw'} onClick={() => setWhich('raw')}>
          Raw
        </button>
        <button
          type="button"
          aria-pressed={which === 'canonical'}
          onClick={() => setWhich('canonical')}
          disabled={!content?.canonical}
        >
          Canonical (RFC 8785)
        </button>
      </div>
      {content === null ? (
        <p className="muted">
          {report && useStore.getState().artifact?.savedReport
            ? 'A saved report carries no artifact content.'
            : 'Loading the artifact…'}
        </p>
      ) : text ? (
        <Suspense fallback={<Loading>Loading the editor…</Loading>}>
          <ArtifactEditor text={text} pointer={pointer} tone={tone} theme={theme} label={`Artifact ${which} text`} />
        </Suspense>
      ) : (
        <p className="muted">{content.note ?? 'No text to show.'}</p>
      )}
    </>
  );
}

/** Above the text when no node or finding says what it shows: the case event's place, or how to choose one. */
function PlaceHeading(shown: { node: boolean; finding: boolean; pointer: string | null }) {
  const words = placeHeading(shown);
  if (words === null) return null;
  return (
    <p className={shown.pointer ? undefined : 'muted'} data-testid="selected-place">
      {words}
      {shown.pointer && (
        <>
          {' '}
          <CopyValue value={shown.pointer} label="the event's pointer" />
        </>
      )}
    </p>
  );
}

/** Hash chain: tree and table, each node recorded vs recomputed; the selected node's content in Monaco. */
export function ChainView({ report }: { report: Report }) {
  const { selection, select } = useStore(useShallow((s) => ({ selection: s.selection, select: s.select })));
  const [layout, setLayout] = useState<'tree' | 'table'>('tree');
  // Made in either layout, so the table's sorting survives a switch to the tree and back.
  const table = useChainTable(report.chain);
  const node = report.chain.find((n) => n.id === selection.nodeId) ?? null;
  const finding = selection.findingIndex !== null ? report.findings[selection.findingIndex] : undefined;
  const pick: PickNode = (n) => select({ nodeId: n.id, pointer: n.pointer ?? null, findingIndex: null });
  const counts = useMemo(() => {
    // Keyed by the report's statuses: no name of Object.prototype may answer for one.
    const c = Object.create(null) as Record<string, number>;
    for (const n of report.chain) c[n.status] = (c[n.status] ?? 0) + 1;
    return c;
  }, [report]);

  return (
    <section className="panel chain-view" aria-labelledby="chain-h">
      <h2 id="chain-h">Hash chain ({report.chain.length} nodes)</h2>
      <p className="muted">
        {Object.entries(counts)
          .map(([k, v]) => `${v} ${k}`)
          .join(' · ') || 'This artifact kind records no hash chain.'}
      </p>
      <div className="toolbar" role="group" aria-label="Chain layout">
        <button type="button" aria-pressed={layout === 'tree'} onClick={() => setLayout('tree')}>
          Tree
        </button>
        <button type="button" aria-pressed={layout === 'table'} onClick={() => setLayout('table')}>
          Table
        </button>
      </div>
      <div className="split">
        <div className="chain-list">
          {layout === 'tree' ? (
            <ChainTree chain={report.chain} selected={selection.nodeId} onSelect={pick} />
          ) : (
            <ChainTable table={table} chosen={selection.nodeId} pick={pick} chain={report.chain} />
          )}
        </div>
        <div className="node-detail" data-testid="node-detail">
          {node && <NodeMeta node={node} />}
          <PlaceHeading node={node !== null} finding={finding !== undefined} pointer={selection.pointer} />
          {finding && (
            <p className="finding-callout" data-testid="selected-finding" id="selected-finding" tabIndex={-1}>
              <strong className="mono">{finding.rule}</strong> <Shown text={finding.message} />{' '}
              {finding.pointer && (
                <>
                  at <CopyValue value={finding.pointer} label="the finding's pointer" />
                </>
              )}
            </p>
          )}
          <ArtifactPane report={report} tone={highlightTone(finding, node)} />
        </div>
      </div>
    </section>
  );
}

/**
 * What is inside a Nemosyne package: every member with the digest the manifest records for
 * it and the same digest recomputed by the engine, and one member at a time — JSON in the
 * editor (raw or canonical), the dataset also as a table. The engine reads the archive
 * (strict ZIP reader, in its own process); this view only shows what it returns.
 */
import { createColumnHelper, useTable } from '@tanstack/react-table';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { PackageMember, PackageMemberContent } from '../../../shared/api';
import type { Report } from '../../../shared/report';
import { features } from '../lib/table';
import { useStore } from '../store';
import { CopyValue } from './Copy';
import { Shown } from './Shown';
import { SortHeader } from './SortHeader';
import { ColumnHeads } from './ColumnHeads';
import { Loading } from './Loading';

const ArtifactEditor = lazy(() => import('./Editors').then((m) => ({ default: m.ArtifactEditor })));

type Row = Record<string, string>;

function digestStatus(m: PackageMember): { word: string; cls: string } {
  if (m.recordedDigest === null)
    return { word: m.digestName ? 'not recorded' : 'no recorded digest', cls: 'unresolved' };
  if (m.recomputedDigest === null) return { word: 'not recomputable', cls: 'unresolved' };
  return m.recordedDigest === m.recomputedDigest
    ? { word: 'match', cls: 'match' }
    : { word: 'mismatch', cls: 'mismatch' };
}

/** The dataset's rows as a sortable TanStack table (the columns are the dataset's own). */
function DatasetTable({ table: t }: { table: NonNullable<PackageMemberContent['table']> }) {
  const helper = createColumnHelper<typeof features, Row>();
  const columns = useMemo(
    () =>
      helper.columns(
        t.columns.map((c, i) =>
          helper.accessor((r) => r[String(i)] ?? '', { id: `c${i}`, header: c, sortFn: 'alphanumeric' }),
        ),
      ),
    [t],
  );
  const data = useMemo(() => t.rows.map((r) => Object.fromEntries(r.map((v, i) => [String(i), v]))), [t]);
  const table = useTable({ features, columns, data });
  return (
    <div className="table-scroll">
      <table className="grid" data-testid="dataset-table">
        <caption>
          Dataset: {t.columns.length} columns, {t.totalRows} rows
          {t.rows.length < t.totalRows ? ` (the first ${t.rows.length} shown)` : ''}
        </caption>
        <thead>
          {table.getHeaderGroups().map((g) => (
            <tr key={g.id}>
              {g.headers.map((h, i) => (
                <SortHeader key={h.id} header={h} label={t.columns[i] ?? h.id} />
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getAllCells().map((c) => (
                <td key={c.id} className="small">
                  {String(c.getValue())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MemberContent({ content, theme }: { content: PackageMemberContent; theme: 'light' | 'dark' }) {
  const [which, setWhich] = useState<'raw' | 'canonical'>('raw');
  const text = which === 'canonical' ? content.canonical : content.raw;
  return (
    <div data-testid="member-content" data-member={content.path}>
      <h4>{content.path}</h4>
      {content.note && <p className="muted small">{content.note}</p>}
      {content.table && <DatasetTable table={content.table} />}
      <div className="toolbar" role="group" aria-label="Member text">
        <button type="button" aria-pressed={which === 'raw'} onClick={() => setWhich('raw')}>
          Raw
        </button>
        <button
          type="button"
          aria-pressed={which === 'canonical'}
          onClick={() => setWhich('canonical')}
          disabled={content.canonical === null}
          data-testid="member-canonical"
        >
          Canonical
        </button>
      </div>
      {text != null ? (
        <Suspense fallback={<Loading>Loading the editor…</Loading>}>
          <ArtifactEditor text={text} pointer={null} theme={theme} label={`${content.path} (${which})`} />
        </Suspense>
      ) : (
        <p className="muted">No {which} text for this member.</p>
      )}
    </div>
  );
}

/** Each member with its role, size and recorded vs recomputed digest; a click opens its content. */
function MembersTable({ members, open }: { members: PackageMember[]; open: (path: string) => void }) {
  return (
    <table className="grid" data-testid="members">
      <caption className="visually-hidden">Members of the package with their recorded and recomputed digests</caption>
      <ColumnHeads names={['Member', 'Role', 'Bytes', 'Recorded', 'Recomputed', 'Digest']} />
      <tbody>
        {members.map((m) => {
          const st = digestStatus(m);
          return (
            <tr key={m.path} data-testid="member-row" data-member={m.path}>
              <td>
                <button type="button" className="link" onClick={() => open(m.path)} data-testid="open-member">
                  <Shown text={m.path} />
                </button>
              </td>
              <td>{m.role}</td>
              <td>{m.size}</td>
              <td className="small">
                {m.recordedDigest ? (
                  <CopyValue value={m.recordedDigest} label={`the recorded digest of ${m.path}`} />
                ) : (
                  '—'
                )}
              </td>
              <td className="small" data-testid="member-recomputed">
                {m.recomputedDigest ? (
                  <CopyValue value={m.recomputedDigest} label={`the recomputed digest of ${m.path}`} />
                ) : m.sha256 ? (
                  <CopyValue value={m.sha256} label={`the SHA-256 of ${m.path}`} />
                ) : (
                  '—'
                )}
              </td>
              <td>
                <span className={`status-badge ${st.cls}`} data-testid="member-status">
                  {st.word}
                </span>
                {m.digestName && <span className="muted small"> ({m.digestName})</span>}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function PackageMembers({ report }: { report: Report }) {
  const { api, artifact, theme } = useStore(useShallow((s) => ({ api: s.api, artifact: s.artifact, theme: s.theme })));
  const [members, setMembers] = useState<PackageMember[] | null>(null);
  const [content, setContent] = useState<PackageMemberContent | null>(null);
  const [error, setError] = useState<string | null>(null);
  const source = artifact?.source ?? null;

  useEffect(() => {
    setMembers(null);
    setContent(null);
    setError(null);
    if (!api || !source) return;
    let live = true;
    api.packageMembers({ source }).then(
      (r) => live && setMembers(r.members),
      (e: unknown) => live && setError((e as Error).message),
    );
    return () => {
      live = false;
    };
  }, [api, source, report]);

  const open = async (path: string): Promise<void> => {
    if (!api || !source) return;
    setError(null);
    try {
      setContent((await api.packageMembers({ source, path })).member);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <section className="panel package-members" aria-labelledby="members-h" data-testid="package-members">
      <h3 id="members-h">Package members</h3>
      {!source && (
        <p className="muted">
          The members are read from the package file: open it (not a saved report) to browse them.
        </p>
      )}
      {error && (
        <p className="bad" role="alert" data-testid="members-error">
          <Shown text={error} />
        </p>
      )}
      {members && <MembersTable members={members} open={(path) => void open(path)} />}
      {content && <MemberContent key={content.path} content={content} theme={theme} />}
    </section>
  );
}

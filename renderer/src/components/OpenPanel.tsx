import { memo, useMemo, useRef, useState, type DragEvent } from 'react';
import type { CheckMode, ExampleSummary } from '../../../shared/api';
import { useStore } from '../store';
import { artifactExamples } from '../lib/examples';
import { escapeControls } from '../../../shared/controls';
import { PackageOptions } from './PackageOptions';
import { Shown } from './Shown';
import { useShallow } from 'zustand/react/shallow';

type Props = { mode: CheckMode; busy: boolean };

function ModeField({ mode, setMode }: { mode: CheckMode; setMode: (m: CheckMode) => void }) {
  return (
    <fieldset className="mode">
      <legend>Action</legend>
      <label>
        <input type="radio" name="mode" value="verify" checked={mode === 'verify'} onChange={() => setMode('verify')} />{' '}
        Verify
      </label>
      <label>
        <input type="radio" name="mode" value="replay" checked={mode === 'replay'} onChange={() => setMode('replay')} />{' '}
        Replay
      </label>
    </fieldset>
  );
}

/** A file picker in the window (hidden inputs behind buttons), the shell's native dialog when it has one. */
function FileChoosers({ mode, busy }: Props) {
  const { openFile, openPath, openSavedReport, info, api } = useStore(
    useShallow((s) => ({
      openFile: s.openFile,
      openPath: s.openPath,
      openSavedReport: s.openSavedReport,
      info: s.info,
      api: s.api,
    })),
  );
  const fileInput = useRef<HTMLInputElement>(null);
  const reportInput = useRef<HTMLInputElement>(null);
  return (
    <>
      {info?.nativeDialogs ? (
        <button
          type="button"
          className="button"
          onClick={() =>
            void api?.pickPath({ kind: 'file', title: 'Open an artifact' }).then((p) => {
              if (p) void openPath(p, mode);
            })
          }
        >
          Choose a file…
        </button>
      ) : (
        // The real control is this button: the file inputs are hidden and no Tab stop.
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() => fileInput.current?.click()}
          data-testid="choose-file"
        >
          Choose a file…
        </button>
      )}
      <input
        id="file-input"
        ref={fileInput}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        disabled={busy}
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void openFile(f, mode);
          e.target.value = '';
        }}
      />
      <p className="hint">The kind is detected from the content, never from the file name.</p>
      <button type="button" className="link" onClick={() => reportInput.current?.click()} data-testid="choose-report">
        View a saved report (JSON)…
      </button>
      {/* A report carries no signature: said before it is picked, so its banner's "as stated" is no surprise. */}
      <p className="hint" data-testid="saved-report-hint">
        A saved report is shown as it states itself, not re-verified; one whose verdict its findings do not make is
        refused. To have one checked, open it as a file above.
      </p>
      <input
        id="report-input"
        ref={reportInput}
        tabIndex={-1}
        aria-hidden="true"
        type="file"
        accept=".json,application/json"
        className="visually-hidden"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void openSavedReport(f);
          e.target.value = '';
        }}
      />
    </>
  );
}

function DropZone({ mode, busy }: Props) {
  const openFile = useStore((s) => s.openFile);
  const [over, setOver] = useState(false);
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const f = e.dataTransfer.files[0];
    if (f) void openFile(f, mode);
  };
  return (
    <div
      className={`dropzone${over ? ' over' : ''}`}
      data-testid="dropzone"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <p>Drop a file here, or</p>
      <FileChoosers mode={mode} busy={busy} />
    </div>
  );
}

function PathForm({ mode, busy }: Props) {
  const openPath = useStore((s) => s.openPath);
  const [path, setPath] = useState('');
  return (
    <form
      className="field"
      onSubmit={(e) => {
        e.preventDefault();
        if (path.trim()) void openPath(path.trim(), mode);
      }}
    >
      <label htmlFor="open-path">
        Or open a file or package directory on this machine by its path (large files are read by the engine, not sent
        through the window)
      </label>
      <input
        id="open-path"
        className="mono"
        value={path}
        onChange={(e) => setPath(e.target.value)}
        placeholder="/home/me/case-17/run.dump.json"
        spellCheck={false}
        data-testid="open-path"
      />
      <button type="submit" disabled={busy || !path.trim()}>
        Open
      </button>
    </form>
  );
}

function RecentFiles({ mode, busy }: Props) {
  const { openPath, recent } = useStore(useShallow((s) => ({ openPath: s.openPath, recent: s.recent })));
  if (recent.length === 0) return null;
  return (
    <div className="recent">
      <h3>Recent files</h3>
      <ul>
        {recent.map((r) => (
          <li key={r.path}>
            <button
              type="button"
              className="link"
              disabled={busy}
              onClick={() => void openPath(r.path, mode)}
              title={escapeControls(r.path)}
            >
              <Shown text={r.name} />
            </button>{' '}
            <span className="muted">{r.openedAtUtc}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The built-in examples, filtered and grouped by folder. */
function Examples({ mode, busy }: Props) {
  const examples = useStore((s) => s.examples);
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => artifactExamples(examples, filter), [examples, filter]);
  const groups = useMemo(() => {
    const m = new Map<string, typeof shown>();
    for (const ex of shown) {
      const g = ex.path.split('/')[0] ?? '';
      m.set(g, [...(m.get(g) ?? []), ex]);
    }
    return [...m.entries()];
  }, [shown]);
  if (examples.length === 0) return null;
  return (
    <details className="examples" open>
      <summary>Built-in examples ({shown.length})</summary>
      <label className="filter">
        Filter examples{' '}
        <input
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder="dumps, tg, acgp, packages…"
        />
      </label>
      {/* One attribute disables every example during a job: the memoized list is not
          re-rendered (200 buttons) and restyled at the moment the job starts. */}
      <fieldset className="bare" disabled={busy}>
        <legend className="visually-hidden">Examples</legend>
        <ExampleGroups groups={groups} mode={mode} />
      </fieldset>
    </details>
  );
}

/** Open: a file picker, a drop zone, recent files, and the built-in examples one click away. */
export function OpenPanel() {
  const busy = useStore((s) => s.job !== null);
  const setView = useStore((s) => s.setView);
  const [mode, setMode] = useState<CheckMode>('verify');
  return (
    <section className="panel open-panel" aria-labelledby="open-h">
      <h2 id="open-h">Open an artifact</h2>
      <ModeField mode={mode} setMode={setMode} />
      <DropZone mode={mode} busy={busy} />
      <PathForm mode={mode} busy={busy} />
      <p className="hint">
        Several artifacts of one investigation (a folder, a journal beside them)?{' '}
        <button type="button" className="link" onClick={() => setView('case')} data-testid="open-case-view">
          Open a case folder…
        </button>
      </p>
      <details className="options">
        <summary>
          Engine options for the files you open: trust store, providers registry, profile registry, kernel adapter
        </summary>
        <OptionField id="opt-trust" label="Trust store (who may sign dumps)" k="trustStore" />
        <OptionField id="opt-providers" label="Providers registry (for replay)" k="providers" />
        <PackageOptions />
        <p className="muted small">
          Absolute paths on this machine. Without a trust store a signed dump is at best "unknown signer". Built-in
          examples bring their own.
        </p>
      </details>
      <RecentFiles mode={mode} busy={busy} />
      <Examples mode={mode} busy={busy} />
    </section>
  );
}

/** The example list, memoized: typing elsewhere in the panel must not re-render 200 buttons. */
const ExampleGroups = memo(function ExampleGroups({
  groups,
  mode,
}: {
  groups: [string, ExampleSummary[]][];
  mode: CheckMode;
}) {
  const openExample = useStore((s) => s.openExample);
  return (
    <>
      {groups.map(([g, list]) => (
        <div key={g} className="example-group">
          <h3>{g}</h3>
          <ul>
            {list.map((ex) => (
              <li key={ex.path}>
                <button
                  type="button"
                  className="link"
                  onClick={() => void openExample(ex.path, ex.expect?.command ?? mode, ex.expect?.whatIf)}
                  title={ex.note}
                  data-example={ex.path}
                >
                  {ex.path}
                </button>
                {ex.expect && <span className={`tag ${ex.expect.verdict}`}>{ex.expect.verdict}</span>}
                {ex.expect?.command === 'replay' && <span className="tag neutral">replay</span>}
                {/* It opens with its own action and what-if substitutions, so the badge is what it shows here. */}
                {ex.expect?.whatIf && <span className="tag demo">what-if {ex.expect.whatIf.join(' ')}</span>}
                {ex.options && <span className="muted"> with {Object.keys(ex.options).join(', ')}</span>}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
});

function OptionField({ id, label, k }: { id: string; label: string; k: 'trustStore' | 'providers' }) {
  const { value, setOpenOptions, info, api } = useStore(
    useShallow((s) => ({ value: s.openOptions[k], setOpenOptions: s.setOpenOptions, info: s.info, api: s.api })),
  );
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="mono"
        value={value}
        onChange={(e) => setOpenOptions({ [k]: e.target.value })}
        spellCheck={false}
        placeholder="/path/to/file.json"
      />
      {info?.nativeDialogs && (
        <button
          type="button"
          onClick={() =>
            void api?.pickPath({ kind: 'file', title: label }).then((p) => p && setOpenOptions({ [k]: p }))
          }
        >
          Choose…
        </button>
      )}
    </div>
  );
}

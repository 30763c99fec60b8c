import { useEffect, useRef, useState, type ChangeEvent, type DragEvent, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useCase, type CaseFile } from '../case-store';
import { useStore } from '../store';
import { PathField } from './PathField';

/** Most files read from one dropped folder (the host refuses more in one case, case-side.ts). */
const MAX_DROPPED = 10_000;

/** A picked folder's files, named by their path inside it (webkitRelativePath without the folder's own name). */
function pickedFiles(list: FileList | null): CaseFile[] {
  return [...(list ?? [])].map((file) => {
    const rel = file.webkitRelativePath;
    return { file, name: rel && rel.includes('/') ? rel.slice(rel.indexOf('/') + 1) : file.name };
  });
}

/** Every file under a dropped entry (folders read recursively), named by its path below what was dropped. */
async function entryFiles(entry: FileSystemEntry, prefix: string, out: CaseFile[]): Promise<void> {
  if (out.length >= MAX_DROPPED) return;
  if (entry.isFile) {
    const file = await new Promise<File>((res, rej) => (entry as FileSystemFileEntry).file(res, rej));
    out.push({ file, name: prefix + entry.name });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
    if (batch.length === 0) return;
    for (const e of batch) await entryFiles(e, `${prefix}${entry.name}/`, out);
  }
}

/** A drop: one folder dropped is the case itself (its name left out); loose files and folders keep their names. */
async function droppedFiles(dt: DataTransfer): Promise<CaseFile[]> {
  const entries = [...dt.items].map((i) => i.webkitGetAsEntry?.() ?? null).filter((e) => e !== null);
  if (entries.length === 0) return [...dt.files].map((file) => ({ file, name: file.name }));
  const out: CaseFile[] = [];
  const only = entries.length === 1 && entries[0]!.isDirectory ? entries[0]! : null;
  if (only) {
    const reader = (only as FileSystemDirectoryEntry).createReader();
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
      if (batch.length === 0) break;
      for (const e of batch) await entryFiles(e, '', out);
    }
  } else for (const e of entries) await entryFiles(e, '', out);
  return out;
}

/** A drop area's props: highlighted while something is dragged over it, `take` given what is dropped. */
function useDropArea(take: (dt: DataTransfer) => void) {
  const [over, setOver] = useState(false);
  return {
    className: over ? 'dropzone over' : 'dropzone',
    onDragOver: (e: DragEvent) => (e.preventDefault(), setOver(true)),
    onDragLeave: () => setOver(false),
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      setOver(false);
      take(e.dataTransfer);
    },
  };
}

/** The hidden file inputs behind the two buttons (a folder input takes the non-standard webkitdirectory). */
function FileInputs({ busy, pick }: { busy: boolean; pick: (files: CaseFile[]) => void }) {
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  useEffect(() => folder.current?.setAttribute('webkitdirectory', ''), []);
  const onChange = (e: ChangeEvent<HTMLInputElement>): void => {
    const list = pickedFiles(e.target.files);
    e.target.value = '';
    if (list.length) pick(list);
  };
  return (
    <>
      <button type="button" disabled={busy} onClick={() => folder.current?.click()} data-testid="case-choose-folder">
        Send a folder…
      </button>
      <button type="button" disabled={busy} onClick={() => files.current?.click()} data-testid="case-choose-files">
        Send files…
      </button>
      <input
        ref={folder}
        id="case-folder-input"
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={onChange}
      />
      <input
        ref={files}
        id="case-files-input"
        type="file"
        multiple
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={onChange}
      />
    </>
  );
}

/** The folder by its path on the host (under the web host's --root), typed or chosen in the shell's native folder dialog. */
function FolderPath({ busy }: { busy: boolean }) {
  const openFolder = useCase((s) => s.openFolder);
  const [path, setPath] = useState('');
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (path.trim()) void openFolder(path.trim());
  };
  return (
    <form onSubmit={submit} data-testid="case-path-form">
      <PathField
        id="case-path"
        label="Case folder on this machine (its path)"
        value={path}
        kind="directory"
        onChange={setPath}
      />
      <button type="submit" disabled={busy || !path.trim()} data-testid="case-open">
        Open the case
      </button>
    </form>
  );
}

/** Verify or replay: what each artifact of the next case opened gets (a running case keeps its own). */
function ModeChoice({ busy }: { busy: boolean }) {
  const { mode, setMode } = useCase(useShallow((s) => ({ mode: s.mode, setMode: s.setMode })));
  return (
    <fieldset className="case-mode" disabled={busy} data-testid="case-mode-choice">
      <legend>Each artifact is</legend>
      <label>
        <input type="radio" name="case-mode" checked={mode === 'verify'} onChange={() => setMode('verify')} /> verified
        (its hashes, signatures and structure; nothing re-executed)
      </label>
      <label>
        <input
          type="radio"
          name="case-mode"
          checked={mode === 'replay'}
          onChange={() => setMode('replay')}
          data-testid="case-mode-replay"
        />{' '}
        replayed (what can be re-executed is, with the providers and policy of the Open view)
      </label>
    </fieldset>
  );
}

/** "Open a case folder": by path or dialog, a folder or several files sent from the window, a drop, a saved case report. */
export function CaseOpener() {
  const { busy, openFiles, openSaved } = useCase(
    useShallow((s) => ({ busy: s.running !== null, openFiles: s.openFiles, openSaved: s.openSaved })),
  );
  const transport = useStore((s) => s.info?.transport);
  const drop = useDropArea((dt) => {
    if (!busy) void droppedFiles(dt).then((files) => openFiles(files));
  });
  const saved = useRef<HTMLInputElement>(null);
  return (
    <section className="case-open" aria-labelledby="case-open-h">
      <h3 id="case-open-h">Open a case folder</h3>
      <p className="muted small">
        Every artifact of the folder is verified (or replayed) in the engine's workers; each verdict shows as it lands,
        and one failing artifact never stops the others.{' '}
        {transport === 'web' && 'By path, the folder must lie under a folder this web host was started with (--root).'}
      </p>
      <ModeChoice busy={busy} />
      <FolderPath busy={busy} />
      <div {...drop} data-testid="case-dropzone">
        <p>Drop a case folder or several files here, or</p>
        <FileInputs busy={busy} pick={(files) => void openFiles(files)} />
        <button type="button" className="link" onClick={() => saved.current?.click()} data-testid="case-choose-report">
          View a saved case report (JSON)…
        </button>
        <input
          ref={saved}
          id="case-report-input"
          type="file"
          accept=".json,application/json"
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void openSaved(f);
          }}
        />
      </div>
    </section>
  );
}

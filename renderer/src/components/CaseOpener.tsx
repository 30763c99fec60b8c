import { useEffect, useRef, useState, type ChangeEvent, type DragEvent, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { MAX_SENT, useCase, type CaseFile, type SentFrom } from '../case-store';
import { useStore } from '../store';
import { PathField } from './PathField';

/**
 * Most files read from one drop: one more than a case sent from the window may hold, so a
 * larger drop is refused as a whole (case-store.ts) rather than cut short without a word.
 */
const MAX_DROPPED = MAX_SENT + 1;

/** A picked folder's files, named by their path inside it (webkitRelativePath without the folder's own name). */
function pickedFiles(list: FileList | null): { files: CaseFile[]; folder?: string } {
  const files = [...(list ?? [])].map((file) => {
    const rel = file.webkitRelativePath;
    return { file, name: rel && rel.includes('/') ? rel.slice(rel.indexOf('/') + 1) : file.name };
  });
  const rel = list?.[0]?.webkitRelativePath ?? '';
  return rel.includes('/') ? { files, folder: rel.slice(0, rel.indexOf('/')) } : { files };
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
async function droppedFiles(dt: DataTransfer): Promise<{ files: CaseFile[]; folder?: string }> {
  const entries = [...dt.items].map((i) => i.webkitGetAsEntry?.() ?? null).filter((e) => e !== null);
  if (entries.length === 0) return { files: [...dt.files].map((file) => ({ file, name: file.name })) };
  const out: CaseFile[] = [];
  const only = entries.length === 1 && entries[0]!.isDirectory ? entries[0]! : null;
  if (!only) {
    for (const e of entries) await entryFiles(e, '', out);
    return { files: out };
  }
  const reader = (only as FileSystemDirectoryEntry).createReader();
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
    if (batch.length === 0) return { files: out, folder: only.name };
    for (const e of batch) await entryFiles(e, '', out);
  }
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

type Pick = (files: CaseFile[], from: SentFrom) => void;

/** The hidden file inputs behind the two buttons (a folder input takes the non-standard webkitdirectory). */
function FileInputs({ busy, pick }: { busy: boolean; pick: Pick }) {
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  useEffect(() => folder.current?.setAttribute('webkitdirectory', ''), []);
  const onChange = (e: ChangeEvent<HTMLInputElement>): void => {
    const what = e.target === folder.current ? 'folder' : 'files';
    const { files: list, folder: name } = pickedFiles(e.target.files);
    e.target.value = '';
    // A folder chosen that holds no file is said so; no file chosen (the dialog closed) asked for nothing.
    if (list.length || what === 'folder') pick(list, { what, ...(name ? { folder: name } : {}) });
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

/** The files being sent: which of how many, and Cancel (the case is in progress from its first file). */
function Sending() {
  const { sending, cancel } = useCase(useShallow((s) => ({ sending: s.sending, cancel: s.cancel })));
  if (!sending) return null;
  return (
    <div className="case-progress" role="status" data-testid="case-sending">
      <span>
        Sending {sending.name} to the engine ({sending.index.toLocaleString('en')} of{' '}
        {sending.count.toLocaleString('en')})…
      </span>
      <progress max={sending.count} value={sending.index - 1} aria-label="Files sent" />
      <button type="button" onClick={() => void cancel()} data-testid="case-send-cancel">
        Cancel
      </button>
    </div>
  );
}

/** "Open a case folder": by path or dialog, a folder or several files sent from the window, a drop, a saved case report. */
export function CaseOpener() {
  const { busy, openFiles, openDropped, openSaved, busyRefusal } = useCase(
    useShallow((s) => ({
      busy: s.running !== null || s.sending !== null,
      openFiles: s.openFiles,
      openDropped: s.openDropped,
      openSaved: s.openSaved,
      busyRefusal: s.busyRefusal,
    })),
  );
  const transport = useStore((s) => s.info?.transport);
  const drop = useDropArea((dt) => {
    if (busy) return busyRefusal();
    // Read within the drop event (its entries are gone after it), under the drop's own generation.
    void openDropped(() => droppedFiles(dt));
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
        <FileInputs busy={busy} pick={(files, from) => void openFiles(files, from)} />
        <button
          type="button"
          className="link"
          disabled={busy}
          onClick={() => saved.current?.click()}
          data-testid="case-choose-report"
        >
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
      <Sending />
    </section>
  );
}

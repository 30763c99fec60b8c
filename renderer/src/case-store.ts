/**
 * The reviewer's case in the window (zustand, beside the main store): the case folder
 * being verified, one progress over it, each artifact's verdict as it lands, then the case
 * report (shared/case.ts) with its links, judgements and timeline. An artifact of the case
 * opens in the main store as a file opened by path (the chain view at the event's node).
 */
import { create } from 'zustand';
import type { ApiEvent, CaseSource, CaseStarted, CheckMode, RepriseClient } from '../../shared/api';
import { CASE_SCHEMA, type CaseArtifact, type CaseReport } from '../../shared/case';
import { uploadFile } from './lib/file-prep';
import { focusWhenShown } from './lib/focus';
import { caseChanged, optionRefusal, type CaseSeen } from './lib/deep-link';
import { hashBytes, hasher } from './lib/digest';
import { optionsFor, useStore } from './store';

export interface CaseRun {
  /** Null until the host has answered startCase: the case is asked for, and can be cancelled already. */
  caseId: string | null;
  done: number;
  total: number;
}

/** Files being sent from the window into a case folder on the host: the case's first part. */
export interface CaseSending {
  /** The file being sent now (1-based), of how many, and its name in the case. */
  index: number;
  count: number;
  name: string;
}

/** Where files sent from the window came from: what an empty case is said to be, and the name a link keeps. */
export interface SentFrom {
  what: 'folder' | 'files' | 'drop';
  /** The folder's own name, when one folder was sent. */
  folder?: string;
}

/** The most files one case sent from the window may hold (the host refuses more, main/host/case-side.ts). */
export const MAX_SENT = 10_000;

/** A file of a multi-file pick or drop, with its path in the case (a journal is a folder of files). */
export interface CaseFile {
  file: File;
  name: string;
}

interface CaseState {
  /** What is open: the folder's path, "N files", or a saved case report's name. */
  name: string | null;
  /** The case folder on the host (null for a saved case report: nothing to open by path). */
  dir: string | null;
  /** The folder opened by its path, and the options the case ran with: what a link names (lib/deep-link.ts). */
  folder: string | null;
  runOptions: Record<string, string>;
  /** What the next case opened runs: verify, or replay (re-execute what can be re-executed). */
  mode: CheckMode;
  /** What the case on screen ran (null for a saved case report): its link says it, and its artifacts open so. */
  runMode: CheckMode | null;
  /** The name a link keeps of a case sent from the window, which no link can send again. */
  sent: string | null;
  /** What the case on screen saw once it ended (its verdict and content): its link says it. */
  seen: CaseSeen | null;
  /**
   * The SHA-256 of the saved case report on screen (of its text), null for any other case:
   * no link names a saved report, and two of one file name are told apart by it in the
   * window's history (lib/link-history.ts).
   */
  savedSha256: string | null;
  /** What the link that opened this case says its case saw: the run is held to it. */
  linkSeen: CaseSeen | null;
  setMode(mode: CheckMode): void;
  /** While files are sent, then while the case runs: either is the case in progress, and Cancel stops it. */
  sending: CaseSending | null;
  running: CaseRun | null;
  /** Verdicts landed so far, in landing order (the report's own order once it is in). */
  landed: CaseArtifact[];
  report: CaseReport | null;
  error: string | null;
  note: string | null;
  /**
   * The files sent from the window that could not be sent (unreadable, over the host's
   * upload limits) or that the host refused by name (a `\`, too deep), each with why: the
   * others still make the case, and its note says these are not in it.
   */
  notSent: string[];
  /**
   * The path of the artifact whose notes are shown, or null: of the case on screen only, so
   * opening another case closes them (an artifact of that one may have the same path).
   */
  notesOn: string | null;
  showNotes(path: string | null): void;
  /**
   * Runs the folder at `path` as a case; `options` and `mode` (a link's) instead of the Open
   * view's fields and the chosen mode, and `linkSeen`, what that link says its case saw.
   */
  openFolder(
    path: string,
    options?: Record<string, string>,
    mode?: CheckMode,
    linkSeen?: CaseSeen | null,
  ): Promise<void>;
  openFiles(files: CaseFile[], from: SentFrom): Promise<void>;
  /**
   * A drop: `read` (called at once, while the drop's entries can still be read) gives its
   * files. A newer open, or a second drop, while it reads takes its place; a read that fails
   * is said.
   */
  openDropped(read: () => Promise<{ files: CaseFile[]; folder?: string }>): Promise<void>;
  openSaved(file: File): Promise<void>;
  cancel(): Promise<void>;
  /** Nothing open (a link the window refused): what ran is stopped and can no longer land. */
  close(): void;
  /** A link to a case sent from the window: nothing to reopen, said so, the link kept. */
  linkToSent(name: string): void;
  /** Something to open arrived while a case is in progress (a drop): said, not dropped. */
  busyRefusal(): void;
  /** Opens one artifact of the case in the chain view, at a node (or a pointer) when given. */
  openArtifact(path: string, node: string | null, pointer: string | null): Promise<void>;
}

const FRESH = {
  running: null,
  sending: null,
  landed: [] as CaseArtifact[],
  report: null,
  error: null,
  note: null,
  notSent: [] as string[],
  notesOn: null,
  runMode: null,
  runOptions: {},
  sent: null,
  name: null,
  dir: null,
  folder: null,
  seen: null,
  linkSeen: null,
  savedSha256: null,
};

/**
 * Each open (or Cancel, or close) starts a new generation: what an earlier one still has
 * in flight (a file being sent, a startCase not yet answered) sees it is no longer current
 * and lands nothing, so an earlier case never replaces a later one.
 */
let generation = 0;
const STOPPED = new Error('superseded');
function stillCurrent(gen: number): void {
  if (gen !== generation) throw STOPPED;
}

/**
 * A new generation; a case running on the host is cancelled (its events no longer match the
 * one shown), and its verdicts still waiting for a frame are dropped: they would otherwise
 * land in the next case's table with that case's first progress.
 */
function supersede(api: RepriseClient | null): number {
  const run = useCase.getState().running;
  if (api && run?.caseId) void api.cancelCase({ caseId: run.caseId }).catch(() => undefined);
  pending = [];
  latest = null;
  return ++generation;
}

/**
 * What a case's files are, as its link says: the SHA-256 of each artifact's path and SHA-256,
 * in path order. Its link carries it (with the verdict), so a reload over other files says so.
 */
export function caseContent(artifacts: readonly CaseArtifact[]): string {
  const lines = artifacts.map((a) => JSON.stringify([a.path, a.sha256])).sort();
  const h = hasher();
  h.update(new TextEncoder().encode(lines.join('\n')));
  return h.digest();
}

/** A case refused or failed over one of its options says which, as a job's does (lib/deep-link.ts). */
const caseWords = (message: string, options: Record<string, string>): string =>
  optionRefusal(message, options, useStore.getState().info?.options ?? [], 'case') ?? message;

/** The options a case takes (the Open view's, the package options): those an artifact opened by path would. */
function caseOptions(mode: CheckMode): Record<string, string> {
  const { openOptions, jobExtras } = useStore.getState();
  const asFile = { type: 'path', path: '' } as const;
  return { ...jobExtras(mode, asFile).options, ...optionsFor(asFile, openOptions) };
}

/**
 * An event's pointer the artifact's text can show: RFC 6901, `line:N` of the file itself
 * (a JSON Lines trace's EVAL, a journal entry), or `entry:NAME:line:N`, a line of a file of
 * a journal (an older checkpoint), which the editor shows that file for. Any other `entry:…`
 * names a member of a package, which the editor does not hold.
 */
const SHOWN_POINTER = /^(?:\/|line:[1-9]\d*$|entry:[^:/]+:line:[1-9]\d*$)/;

/**
 * Progress and landed verdicts are shown at most once a frame: a case of thousands of small
 * files lands many verdicts within one, and a render per event would fall behind them.
 */
let pending: CaseArtifact[] = [];
let latest: { caseId: string; done: number; total: number } | null = null;
let flushing = false;
function land(caseId: string, done: number, total: number, a: CaseArtifact | undefined): void {
  if (a) pending.push(a);
  latest = { caseId, done, total };
  if (flushing) return;
  flushing = true;
  requestAnimationFrame(() => {
    flushing = false;
    const more = pending;
    const at = latest;
    pending = [];
    latest = null;
    // Nothing of a superseded case (`at` dropped with it), nor of another case than the one running.
    useCase.setState((s) =>
      !at || s.running?.caseId !== at.caseId
        ? {}
        : { landed: more.length ? [...s.landed, ...more] : s.landed, running: { ...s.running!, ...at } },
    );
  });
}

/** One case event, if it is the running case's. */
function onCaseEvent(e: ApiEvent): void {
  const run = useCase.getState().running;
  if (!run || !('caseId' in e) || e.caseId !== run.caseId) return;
  if (e.type === 'case-progress') land(e.caseId, e.done, e.total, e.artifact);
  else if (e.type === 'case-done') {
    pending = [];
    const { linkSeen, folder } = useCase.getState();
    const seen: CaseSeen = { content: caseContent(e.report.artifacts), verdict: e.report.verdict };
    const note = [caseChanged(linkSeen, seen, folder ?? ''), notSentNote()].filter((n) => n !== null).join(' ');
    useCase.setState({ running: null, report: e.report, landed: e.report.artifacts, seen, note: note || null });
    focusWhenShown('case-verdict');
  } else {
    pending = [];
    useCase.setState({
      running: null,
      ...(e.cancelled
        ? { note: 'Cancelled: the case was stopped.' }
        : { error: caseWords(e.message, useCase.getState().runOptions) }),
    });
    focusWhenShown(e.cancelled ? 'case-note' : 'case-error');
  }
}

/**
 * Starts a case and follows it: listening before asking (a case's first events can overtake
 * the answer to startCase, as a job's can, lib/watch-job.ts), replaying what came early. A
 * case answered after a newer open (or Cancel) is cancelled on the host at once.
 */
async function follow(
  api: RepriseClient,
  gen: number,
  source: CaseSource,
  mode: CheckMode,
  options: Record<string, string>,
): Promise<void> {
  const early: ApiEvent[] = [];
  let caseId: string | null = null;
  const off = api.onEvent((e) => {
    if (!('caseId' in e)) return;
    // Superseded (its case cancelled, its end maybe not yet heard): it would hand the next case's events on twice.
    if (gen !== generation) return off();
    if (caseId === null) early.push(e);
    else onCaseEvent(e);
    if (caseId !== null && e.caseId === caseId && e.type !== 'case-progress') off();
  });
  let started: CaseStarted;
  try {
    started = await api.startCase({ source, mode, ...(Object.keys(options).length ? { options } : {}) });
  } catch (e) {
    off();
    throw e;
  }
  if (gen !== generation) {
    off();
    void api.cancelCase({ caseId: started.caseId }).catch(() => undefined);
    return;
  }
  caseId = started.caseId;
  useCase.setState({ dir: started.dir, running: { caseId, done: 0, total: 0 } });
  for (const e of early.splice(0)) {
    onCaseEvent(e);
    if ('caseId' in e && e.caseId === caseId && e.type !== 'case-progress') off();
  }
}

/** What the case's note says of the files that could not be sent or that the host refused by name, or null when it took them all. */
function notSentNote(): string | null {
  const { notSent } = useCase.getState();
  if (notSent.length === 0) return null;
  return `Not in this case: ${notSent.length.toLocaleString('en')} file(s) sent from the window could not be sent or were refused by name, so nothing of them was checked: ${notSent.join('; ')}.`;
}

/**
 * Sends each file, one at a time, into one case folder on the host; stops once a newer open
 * or Cancel came. A file that cannot be sent (unreadable where it was dropped from, refused
 * by the host's upload limits) or whose name the host refuses is left out, said in the
 * case's note, as one failing artifact never stops the others; none taken at all is the
 * case's error.
 */
async function sendFiles(api: RepriseClient, gen: number, files: CaseFile[]): Promise<string> {
  let folderId: string | undefined;
  const notSent: string[] = [];
  for (const [i, f] of files.entries()) {
    stillCurrent(gen);
    useCase.setState({ sending: { index: i + 1, count: files.length, name: f.name } });
    const added = await sendOne(api, gen, f, folderId);
    if (typeof added === 'string') notSent.push(added);
    else folderId = added.folderId;
  }
  stillCurrent(gen);
  if (folderId === undefined) throw new Error(notSent[0] ?? 'no file was sent');
  useCase.setState({ notSent });
  return folderId;
}

/** One file sent and added to the case folder (its id), or why it is not in the case; throws only when superseded. */
async function sendOne(
  api: RepriseClient,
  gen: number,
  f: CaseFile,
  folderId: string | undefined,
): Promise<{ folderId: string } | string> {
  const why = (e: unknown): string => {
    const message = e instanceof Error ? e.message : String(e);
    return message.includes(f.name) ? message : `${f.name}: ${message}`;
  };
  let sent: Awaited<ReturnType<typeof uploadFile>>;
  try {
    sent = await uploadFile(api, f.file);
  } catch (e) {
    stillCurrent(gen);
    return why(e);
  }
  try {
    await sent.sent;
    stillCurrent(gen);
    return await api.addCaseUpload({ ...(folderId ? { folderId } : {}), name: f.name, uploadId: sent.uploadId });
  } catch (e) {
    if (e === STOPPED) throw e;
    stillCurrent(gen);
    return why(e);
  } finally {
    sent.drop();
  }
}

/** A case that could not start (or whose files could not be sent), unless a newer open or Cancel took its place. */
function failed(gen: number, options: Record<string, string>, e: unknown): void {
  if (gen !== generation || e === STOPPED) return;
  useCase.setState({ running: null, sending: null, error: caseWords((e as Error).message, options), note: null });
  focusWhenShown('case-error');
}

/** Why files sent from the window make no case, or null when they do. */
function notACase(files: CaseFile[], from: SentFrom): string | null {
  const what =
    from.what === 'drop'
      ? 'What was dropped'
      : from.folder
        ? `The folder ${from.folder}`
        : from.what === 'folder'
          ? 'The folder you chose'
          : 'The files you chose';
  if (files.length === 0) return `${what} holds no file: there is nothing in it to check.`;
  if (files.length > MAX_SENT)
    return `${what} holds more than ${MAX_SENT.toLocaleString('en')} files, more than a case sent from the window may hold: nothing was sent. Open it by its path instead.`;
  return null;
}

/** Reads a saved case report (`reprise verify DIR --json`), for reading only. */
function parseSaved(text: string): CaseReport {
  const r = JSON.parse(text) as CaseReport;
  if (r?.schema !== CASE_SCHEMA || !Array.isArray(r.artifacts) || !Array.isArray(r.timeline))
    throw new Error(`not a ${CASE_SCHEMA} document`);
  for (const k of ['links', 'judgements', 'findings'] as const) if (!Array.isArray(r[k])) r[k] = [];
  return r;
}

/** Resolves once the main store's job has ended. */
function jobEnded(): Promise<void> {
  return new Promise((resolve) => {
    if (!useStore.getState().job) return resolve();
    const stop = useStore.subscribe((s) => {
      if (!s.job) {
        stop();
        resolve();
      }
    });
  });
}

/** Files sent from the window as one case, under the generation `gen` its request took. */
async function sendCase(api: RepriseClient, gen: number, files: CaseFile[], from: SentFrom): Promise<void> {
  const refused = notACase(files, from);
  if (refused) {
    useCase.setState({ ...FRESH, error: refused });
    return focusWhenShown('case-error');
  }
  const runs = useCase.getState().mode;
  const runOptions = caseOptions(runs);
  const count = `${files.length.toLocaleString('en')} file${files.length === 1 ? '' : 's'}`;
  const name = `${count} sent from this window`;
  useCase.setState({ ...FRESH, name, sent: from.folder ?? count, runOptions, runMode: runs });
  try {
    const folderId = await sendFiles(api, gen, files);
    useCase.setState({ sending: null, running: { caseId: null, done: 0, total: 0 } });
    await follow(api, gen, { type: 'uploads', folderId }, runs, runOptions);
  } catch (e) {
    failed(gen, runOptions, e);
  }
}

export const useCase = create<CaseState>((set, get) => ({
  mode: 'verify',
  ...FRESH,
  setMode(mode) {
    set({ mode });
  },
  async openFolder(path, options, mode, linkSeen = null) {
    const api = useStore.getState().api;
    if (!api) return;
    const gen = supersede(api);
    const runs = mode ?? get().mode;
    const runOptions = options ?? caseOptions(runs);
    // Named at once, with its options: a refused case keeps its link, so a reload refuses again.
    set({
      ...FRESH,
      name: path,
      folder: path,
      runOptions,
      runMode: runs,
      mode: runs,
      linkSeen,
      running: { caseId: null, done: 0, total: 0 },
    });
    await follow(api, gen, { type: 'path', path }, runs, runOptions).catch((e) => failed(gen, runOptions, e));
  },
  async openFiles(files, from) {
    const api = useStore.getState().api;
    if (!api) return;
    await sendCase(api, supersede(api), files, from);
  },
  async openDropped(read) {
    const api = useStore.getState().api;
    if (!api) return;
    // Taken before the read: whatever is asked for while a large drop is read is the later request.
    const gen = supersede(api);
    let dropped: { files: CaseFile[]; folder?: string };
    try {
      dropped = await read();
    } catch (e) {
      if (gen !== generation) return;
      const why = e instanceof Error ? e.message : String(e);
      set({ ...FRESH, error: `Nothing was opened from what was dropped: it could not be read (${why}).` });
      return focusWhenShown('case-error');
    }
    if (gen !== generation) return;
    await sendCase(api, gen, dropped.files, { what: 'drop', ...(dropped.folder ? { folder: dropped.folder } : {}) });
  },
  async openSaved(file) {
    try {
      const text = await file.text();
      const report = parseSaved(text);
      const savedSha256 = await hashBytes(new TextEncoder().encode(text));
      supersede(useStore.getState().api);
      set({ ...FRESH, name: file.name, savedSha256, report, landed: report.artifacts });
      focusWhenShown('case-verdict');
    } catch (e) {
      // What was open goes: its verdict under this error would read as the file's.
      supersede(useStore.getState().api);
      set({ ...FRESH, error: `Cannot read the saved case report: ${(e as Error).message}` });
      focusWhenShown('case-error');
    }
  },
  showNotes(path) {
    set({ notesOn: path });
  },
  async cancel() {
    const api = useStore.getState().api;
    const { running, sending } = get();
    // A case on the host: its end (case-failed, cancelled) says it stopped.
    if (api && running?.caseId) {
      await api.cancelCase({ caseId: running.caseId });
      return;
    }
    if (!running && !sending) return;
    generation += 1;
    set({
      running: null,
      sending: null,
      note: sending
        ? `Cancelled: ${(sending.index - 1).toLocaleString('en')} of ${sending.count.toLocaleString('en')} files were sent, and nothing was checked.`
        : 'Cancelled: the case was stopped.',
    });
    focusWhenShown('case-note');
  },
  close() {
    supersede(useStore.getState().api);
    set({ ...FRESH });
  },
  linkToSent(name) {
    supersede(useStore.getState().api);
    set({
      ...FRESH,
      sent: name,
      note: `The link was to a case sent from this window (${name}): a link keeps no file's bytes, so send its files again to reopen it.`,
    });
    focusWhenShown('case-note');
  },
  busyRefusal() {
    set({ note: 'Nothing was opened from what was dropped: a case is in progress here. Cancel it first.' });
    focusWhenShown('case-note');
  },
  async openArtifact(path, node, pointer) {
    const { dir } = get();
    if (dir === null) {
      set({
        note: `A saved case report keeps no artifact: open the case folder itself to follow ${path} into the chain view.`,
      });
      focusWhenShown('case-note');
      return;
    }
    const abs = `${dir.replace(/[\\/]+$/, '')}/${path}`;
    const main = useStore.getState();
    main.setView('chain');
    // As the case ran it: a replayed case's artifact opens replayed, with the options the case ran with.
    // Its first run is held to what the case saw of it: another file at its path is said.
    const { runMode, runOptions, landed } = get();
    const row = landed.find((a) => a.path === path);
    const seen = row ? { sha256: row.sha256, verdict: row.verdict } : null;
    await main.openPath(abs, runMode ?? 'verify', [], runOptions, { seen });
    await jobEnded();
    const { report, artifact, select } = useStore.getState();
    if (!report || artifact?.source?.type !== 'path' || artifact.source.path !== abs) return;
    const n = node !== null ? report.chain.find((c) => c.id === node) : undefined;
    select({
      nodeId: n?.id ?? null,
      pointer: n?.pointer ?? (pointer !== null && SHOWN_POINTER.test(pointer) ? pointer : null),
      findingIndex: null,
    });
    // The job's end sends the window to its findings when it started from the Open view: the chain is what was asked for.
    useStore.getState().setView('chain');
  },
}));

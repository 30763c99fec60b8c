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
import { optionsFor, useStore } from './store';

export interface CaseRun {
  caseId: string;
  done: number;
  total: number;
}

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
  setMode(mode: CheckMode): void;
  running: CaseRun | null;
  /** Verdicts landed so far, in landing order (the report's own order once it is in). */
  landed: CaseArtifact[];
  report: CaseReport | null;
  error: string | null;
  note: string | null;
  /**
   * Runs the folder at `path` as a case; `options` and `mode` (a link's) instead of the Open
   * view's fields and the chosen mode.
   */
  openFolder(path: string, options?: Record<string, string>, mode?: CheckMode): Promise<void>;
  openFiles(files: CaseFile[]): Promise<void>;
  openSaved(file: File): Promise<void>;
  cancel(): Promise<void>;
  /** Opens one artifact of the case in the chain view, at a node (or a pointer) when given. */
  openArtifact(path: string, node: string | null, pointer: string | null): Promise<void>;
}

const FRESH = { running: null, landed: [], report: null, error: null, note: null, runMode: null };

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
    useCase.setState((s) =>
      s.running?.caseId !== at?.caseId
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
    useCase.setState({ running: null, report: e.report, landed: e.report.artifacts });
    focusWhenShown('case-verdict');
  } else {
    pending = [];
    useCase.setState({
      running: null,
      ...(e.cancelled ? { note: 'Cancelled: the case was stopped.' } : { error: e.message }),
    });
    focusWhenShown(e.cancelled ? 'case-note' : 'case-error');
  }
}

/**
 * Starts a case and follows it: listening before asking (a case's first events can overtake
 * the answer to startCase, as a job's can, lib/watch-job.ts), replaying what came early.
 */
async function follow(
  api: RepriseClient,
  source: CaseSource,
  name: string,
  mode: CheckMode,
  given?: Record<string, string>,
): Promise<void> {
  const early: ApiEvent[] = [];
  let caseId: string | null = null;
  const off = api.onEvent((e) => {
    if (!('caseId' in e)) return;
    if (caseId === null) early.push(e);
    else onCaseEvent(e);
    if (caseId !== null && e.caseId === caseId && e.type !== 'case-progress') off();
  });
  // The options an artifact opened by path takes (the Open view's, the package options): the same when one is opened from the case.
  const { openOptions, jobExtras } = useStore.getState();
  const asFile = { type: 'path', path: '' } as const;
  const options: Record<string, string> = given ?? {
    ...jobExtras(mode, asFile).options,
    ...optionsFor(asFile, openOptions),
  };
  let started: CaseStarted;
  try {
    started = await api.startCase({ source, mode, ...(Object.keys(options).length ? { options } : {}) });
  } catch (e) {
    off();
    throw e;
  }
  caseId = started.caseId;
  useCase.setState({
    ...FRESH,
    name,
    dir: started.dir,
    folder: source.type === 'path' ? source.path : null,
    runOptions: options,
    runMode: mode,
    running: { caseId, done: 0, total: 0 },
  });
  for (const e of early.splice(0)) {
    onCaseEvent(e);
    if ('caseId' in e && e.caseId === caseId && e.type !== 'case-progress') off();
  }
}

/** Sends each file, one at a time, into one case folder on the host. */
async function sendFiles(api: RepriseClient, files: CaseFile[]): Promise<string> {
  let folderId: string | undefined;
  for (const [i, f] of files.entries()) {
    useCase.setState({ note: `Sending ${f.name} to the engine (${i + 1} of ${files.length})…` });
    const sent = await uploadFile(api, f.file);
    try {
      await sent.sent;
      folderId = (await api.addCaseUpload({ ...(folderId ? { folderId } : {}), name: f.name, uploadId: sent.uploadId }))
        .folderId;
    } finally {
      sent.drop();
    }
  }
  return folderId!;
}

function failed(e: unknown): void {
  useCase.setState({ running: null, error: (e as Error).message, note: null });
  focusWhenShown('case-error');
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

export const useCase = create<CaseState>((set, get) => ({
  name: null,
  dir: null,
  folder: null,
  runOptions: {},
  mode: 'verify',
  ...FRESH,
  setMode(mode) {
    set({ mode });
  },
  async openFolder(path, options, mode) {
    const api = useStore.getState().api;
    if (!api || get().running) return;
    const runs = mode ?? get().mode;
    set({ ...FRESH, name: path, dir: null, folder: null, mode: runs });
    await follow(api, { type: 'path', path }, path, runs, options).catch(failed);
  },
  async openFiles(files) {
    const api = useStore.getState().api;
    if (!api || get().running || files.length === 0) return;
    const name = `${files.length} file${files.length === 1 ? '' : 's'} sent from this window`;
    set({ ...FRESH, name, dir: null, folder: null });
    try {
      const folderId = await sendFiles(api, files);
      set({ note: null });
      await follow(api, { type: 'uploads', folderId }, name, get().mode);
    } catch (e) {
      failed(e);
    }
  },
  async openSaved(file) {
    try {
      const report = parseSaved(await file.text());
      set({ ...FRESH, name: file.name, dir: null, folder: null, report, landed: report.artifacts });
      focusWhenShown('case-verdict');
    } catch (e) {
      set({ error: `Cannot read the saved case report: ${(e as Error).message}` });
      focusWhenShown('case-error');
    }
  },
  async cancel() {
    const api = useStore.getState().api;
    const run = get().running;
    if (api && run) await api.cancelCase({ caseId: run.caseId });
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
    const { runMode, runOptions } = get();
    await main.openPath(abs, runMode ?? 'verify', [], runOptions);
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

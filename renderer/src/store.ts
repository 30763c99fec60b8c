/** UI state (zustand): the engine connection, the open artifact, its job and report, the journal. */
import { create } from 'zustand';
import type {
  AnchorReceipt,
  ArtifactContent,
  CaseView,
  CheckMode,
  EngineInfo,
  ExampleSummary,
  JobSource,
  JournalStatus,
  ProviderOffers,
  RecentFile,
  RepriseClient,
  StartJobRequest,
  UnreadOption,
} from '../../shared/api';
import type { Report } from '../../shared/report';
import { MAX_SHAPE_PROBLEMS, reportShapeProblems } from '../../shared/report-shape';
import { verdictContradictions } from '../../shared/details/carried';
import {
  linkOptionNames,
  linkTrouble,
  optionRefusal,
  readLink,
  seenChanged,
  sentCase,
  type DeepLink,
  type LinkSeen,
} from './lib/deep-link';
import { uploadFile, type SentFile } from './lib/file-prep';
import { focusWhenShown } from './lib/focus';
import { arrival, viewFollowsRun } from './lib/link-history';
import { startWatchedJob, type JobEnd } from './lib/watch-job';
import { runSweepJobs, type Sweep } from './lib/sweep';
import { forgetReceipt, keepReceipt, keptReceipt, type KeptReceipt } from './lib/kept-receipt';
import { forgetSweep, keepSweep, keptSweep, sweptSource, type KeptSweep } from './lib/kept-sweep';

export type View = 'open' | 'chain' | 'findings' | 'replay' | 'trainer' | 'journal' | 'export' | 'case' | 'compare';
export const VIEWS: { id: View; label: string }[] = [
  { id: 'open', label: 'Open' },
  { id: 'chain', label: 'Hash chain' },
  { id: 'findings', label: 'Findings' },
  { id: 'replay', label: 'Replay' },
  { id: 'trainer', label: 'Trainer' },
  { id: 'journal', label: 'Journal' },
  { id: 'export', label: 'Export' },
  { id: 'case', label: 'Case' },
  { id: 'compare', label: 'Compare' },
];

/** The window's own hash of a picked file (lib/digest.ts): still computing, done, or why not. */
export type LocalHash =
  { state: 'computing' } | { state: 'done'; sha256: string } | { state: 'failed'; message: string };

export interface OpenArtifact {
  name: string;
  /** Only for a picked file: what the window hashed itself, to hold against the report's hash. */
  localHash?: LocalHash;
  source: JobSource | null;
  /** A saved report opened for reading only (not re-verified). */
  savedReport?: boolean;
  /** The action last run on it, and its what-if substitutions (for the deep link). */
  mode?: CheckMode;
  whatIf?: string[];
  /** The engine options the last job on it ran with (the deep link carries them; never a key). */
  options?: Record<string, string>;
  /** Options a link opened it with that the Open view's fields do not hold: every job on it takes them. */
  pinned?: Record<string, string>;
  /**
   * Opened from a case: `pinned` are all the options the case ran with, and its jobs take
   * those alone. The Open view's fields may hold what an earlier artifact was opened with;
   * added here, they would decide it otherwise than the case did (UNAVAILABLE read as PASS).
   */
  asCaseRan?: true;
  /**
   * A link the window could not open (a picked file or a saved report, which no link can
   * reopen; a link refused): nothing is open, and the address keeps that link, so a reload
   * says the same instead of opening what was open before it.
   */
  heldLink?: string;
  /**
   * Opened from a link that says what its run saw (lib/deep-link.ts LinkSeen): the first run
   * on it is held to that, and says when the file or its verdict is not what was shared.
   */
  linkedSeen?: LinkSeen;
}

/** The engine options sent with a job on an opened file (built-in examples bring their own). */
export function optionsFor(source: JobSource, o: OpenOptions): { trustStore?: string; providers?: string } {
  if (source.type === 'example') return {};
  return {
    ...(o.trustStore.trim() ? { trustStore: o.trustStore.trim() } : {}),
    ...(o.providers.trim() ? { providers: o.providers.trim() } : {}),
  };
}

/**
 * Options a job takes from elsewhere in the window (judgement-store.ts: the open journal
 * and key for a replay, the Nemosyne registry and adapter); the Open view's own fields win.
 */
export type JobExtras = (mode: CheckMode, source: JobSource) => { options?: Record<string, string>; key?: string };

export interface JobState {
  id: string;
  mode: CheckMode;
  fraction: number;
  label: string;
  whatIf: string[];
  /** What it runs on: its end lands only while that is still the open artifact. */
  source: JobSource;
  /** The first run a link opened: what the link says its own run saw, to hold this run to. */
  linkedSeen?: LinkSeen;
  /** The options it was sent with: its `journal` is the one it read anchors from, and wrote to when it signed. */
  options: Record<string, string>;
}

/** What the editor highlights: a JSON pointer (from a chain node or a finding). */
export interface Selection {
  nodeId: string | null;
  pointer: string | null;
  findingIndex: number | null;
}

/** Engine options for files the user opens (examples bring their own). */
export interface OpenOptions {
  trustStore: string;
  providers: string;
}

export interface JournalForm {
  dir: string;
  trustStore: string;
  keyFile: string;
}

export type { Sweep, SweepRun } from './lib/sweep';

interface State {
  api: RepriseClient | null;
  info: EngineInfo | null;
  examples: ExampleSummary[];
  recent: RecentFile[];
  view: View;
  theme: 'light' | 'dark';
  artifact: OpenArtifact | null;
  content: ArtifactContent | null;
  report: Report | null;
  /** What produced the shown report (a replay may be refused and return verification findings only). */
  reportMode: CheckMode | null;
  /**
   * The options sent with the run whose report is shown that its kind does not read (the
   * host says which: ApiEvent job-done), said beside the verdict; none for a saved report.
   */
  reportUnread: UnreadOption[];
  /** The options the run whose report is shown was sent with (where it anchored: its `journal`); none for a saved report. */
  reportOptions: Record<string, string>;
  job: JobState | null;
  /**
   * What the run whose report is shown saw (its artifact's SHA-256 and verdict), for the link;
   * null while another run on it is under way or ended without a report, so a link never
   * claims a verdict for a run that did not give it.
   */
  reportSeen: LinkSeen | null;
  lastJobNote: string | null;
  /**
   * Links followed in this tab that named nothing to open, and entries of the history
   * returned to that name what is open (`arrive`): each makes the window write the address
   * again (App.tsx useLinkWriter), so it names what stays shown and how it last ran.
   */
  linksNamingNothing: number;
  selection: Selection;
  error: string | null;
  openOptions: OpenOptions;
  setOpenOptions(o: Partial<OpenOptions>): void;
  offers: ProviderOffers | null;
  offersError: string | null;
  loadOffers(): Promise<void>;
  sweep: Sweep | null;
  /**
   * The sweep this tab kept from before it was reloaded (lib/kept-sweep.ts): shown as the
   * result of the sweep that was run while its artifact is open again, until another sweep
   * runs or another artifact is opened.
   */
  earlierSweep: KeptSweep | null;
  /** Replays the open artifact under each substitution, `repeats` times each, side by side in the pool. */
  runSweep(whatIfs: string[], repeats?: number): Promise<void>;
  /** Stops the sweep: its runs not started are withdrawn, those running cancelled in the engine. */
  cancelSweep(): void;
  journal: JournalForm;
  journalStatus: JournalStatus | null;
  journalBusy: boolean;
  journalError: string | null;
  receipt: AnchorReceipt | null;
  /**
   * The receipt this tab kept from before it was reloaded (lib/kept-receipt.ts): shown as an
   * earlier signing's while its journal is open, until another decision is signed or another
   * journal opened.
   */
  earlierReceipt: KeptReceipt | null;
  connect(api: RepriseClient): Promise<void>;
  setView(v: View): void;
  setTheme(t: 'light' | 'dark'): void;
  openFile(file: File, mode: CheckMode): Promise<void>;
  openExample(path: string, mode: CheckMode, whatIf?: string[], pinned?: Record<string, string>): Promise<void>;
  restoreLink(): Promise<void>;
  /**
   * The address changed under the window (Back, Forward, a link in the tab: lib/link-history.ts):
   * an entry it wrote naming what is open shows its view again, running nothing; any other
   * address is followed as a link (restoreLink).
   */
  arrive(): Promise<void>;
  /**
   * `fromCase`: opened from a case, whose options (`pinned`) are all its jobs take
   * (OpenArtifact.asCaseRan); its first run reproduces the case's, read-only, and is held to
   * what the case saw of it (`seen`: its row's SHA-256 and verdict).
   */
  openPath(
    path: string,
    mode: CheckMode,
    whatIf?: string[],
    pinned?: Record<string, string>,
    fromCase?: { seen: LinkSeen | null },
  ): Promise<void>;
  openSavedReport(file: File): Promise<void>;
  showReport(report: Report, name: string): void;
  /** Where a job's other options come from: none until the window's composition root (main.tsx) connects the judgement store. */
  jobExtras: JobExtras;
  /**
   * Runs the open artifact. `linked`: started by a link, a reload or a hash change, so it runs
   * with the link's options only and read-only (nothing anchored, no key): a link followed
   * never writes to the reviewer's journal; the user's own Replay anchors.
   */
  run(mode: CheckMode, whatIf?: string[], linked?: boolean): Promise<void>;
  cancel(): Promise<void>;
  select(sel: Partial<Selection>): void;
  setJournal(f: Partial<JournalForm>): void;
  loadJournal(): Promise<void>;
  /**
   * Signs a decision on the case shown: sent by its opening entry hash (never its number alone,
   * which another journal put in its place reuses), with the key id the confirmation showed.
   */
  decide(c: CaseView, decision: 'release' | 'uphold' | 'escalate', rationale: string, keyId: string): Promise<boolean>;
}

const NO_SELECTION: Selection = { nodeId: null, pointer: null, findingIndex: null };

function initialTheme(): 'light' | 'dark' {
  try {
    const t = localStorage.getItem('reprise.theme');
    if (t === 'light' || t === 'dark') return t;
  } catch {
    /* storage unavailable */
  }
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** One part of the store: the members it names, made from the store's own set and get. */
type Slice<K extends keyof State> = (set: (p: Partial<State>) => void, get: () => State) => Pick<State, K>;

/** Stops the sweep running, if any (store.runSweep). */
let sweepStop: AbortController | null = null;

/** The Open view's engine options, the registry's offers and the trainer's sweep of versions. */
const trainerSlice: Slice<
  | 'openOptions'
  | 'setOpenOptions'
  | 'offers'
  | 'offersError'
  | 'loadOffers'
  | 'sweep'
  | 'earlierSweep'
  | 'runSweep'
  | 'cancelSweep'
> = (set, get) => ({
  openOptions: { trustStore: '', providers: '' },
  setOpenOptions(o) {
    set({ openOptions: { ...get().openOptions, ...o } });
  },
  offers: null,
  offersError: null,
  async loadOffers() {
    const { api, artifact, openOptions } = get();
    if (!api) return;
    const src = artifact?.source;
    try {
      const offers = await api.providerOffers(
        src?.type === 'example'
          ? { example: src.path }
          : openOptions.providers.trim()
            ? { providers: openOptions.providers.trim() }
            : {},
      );
      set({ offers, offersError: null });
    } catch (e) {
      set({ offers: null, offersError: (e as Error).message });
    }
  },
  sweep: null,
  earlierSweep: keptSweep(),
  async runSweep(whatIfs, repeats = 1) {
    const { api, artifact } = get();
    if (!api || !artifact?.source || get().job || get().sweep?.running) return;
    const source = artifact.source;
    const sha256 = get().report?.artifact.sha256;
    const options = { ...fieldOptions(artifact, get().openOptions), ...artifact.pinned };
    // A new sweep takes the place of the one kept: a reload shows this one once it ends.
    forgetSweep();
    set({ earlierSweep: null });
    // Every run a job of its own, side by side in the engine's pool (lib/sweep.ts).
    const base = { source, ...(Object.keys(options).length ? { options } : {}) };
    const stop = new AbortController();
    sweepStop = stop;
    let shown: Sweep | null = null;
    // The artifact closed or opened again (its sweep gone with it): the sweep stops, and
    // none of its runs still queued reaches the engine's pool.
    const off = useStore.subscribe((s) => {
      if (s.artifact?.source !== source || (shown !== null && s.sweep !== shown)) stop.abort();
    });
    await runSweepJobs(
      api,
      base,
      whatIfs,
      repeats,
      (sweep) => {
        if (get().artifact?.source !== source || (shown !== null && get().sweep !== shown)) return;
        shown = sweep;
        set({ sweep });
      },
      stop.signal,
    );
    off();
    if (sweepStop === stop) sweepStop = null;
    if (shown !== null && get().sweep === shown) {
      keepSweep(artifact.name, source, sha256, options, shown);
      focusWhenShown('sweep-h');
    }
  },
  cancelSweep() {
    sweepStop?.abort();
  },
});

/** The engine connection, the view and the theme. */
const connectSlice: Slice<'connect' | 'setView' | 'setTheme' | 'arrive'> = (set, get) => ({
  async connect(api) {
    set({ api });
    // Jobs are followed by run() (startWatchedJob); the shell's own requests come here.
    api.onEvent((e) => {
      if (e.type === 'open-path') void get().openPath(e.path, e.mode);
    });
    try {
      const [info, examples, recent] = await Promise.all([api.engineInfo(), api.listExamples(), api.recentFiles()]);
      set({ info, examples, recent });
      await get().restoreLink();
    } catch (e) {
      set({ error: (e as Error).message });
    }
  },
  setView(view) {
    set({ view });
  },
  async arrive() {
    const to = arrival(VIEWS.map((v) => v.id));
    if (to === null) return;
    if (to === 'follow') return get().restoreLink();
    // Closed in the same update that shows the view: an address written between them would
    // name the case or comparison as this entry's.
    const close = to.empty ? await closerOf(to.empty) : null;
    close?.();
    const view = VIEWS.find((v) => v.id === to.revisit)?.id;
    set({ ...(view ? { view } : {}), linksNamingNothing: get().linksNamingNothing + 1 });
  },
  setTheme(theme) {
    try {
      localStorage.setItem('reprise.theme', theme);
    } catch {
      /* ignore */
    }
    set({ theme });
  },
});

/** The Open view's fields as options of a job on the artifact: none for one opened from a case (OpenArtifact.asCaseRan). */
function fieldOptions(artifact: OpenArtifact, fields: State['openOptions']): Record<string, string> {
  return artifact.asCaseRan || !artifact.source ? {} : optionsFor(artifact.source, fields);
}

/**
 * The options a run on the open artifact takes from the window when nothing signs (the
 * Compare view's): the Open view's fields (none for one opened from a case) and what a link
 * or a case pinned to it; never the header's journal or key.
 */
export function artifactOptions(artifact: OpenArtifact, fields: OpenOptions): Record<string, string> {
  return { ...fieldOptions(artifact, fields), ...artifact.pinned };
}

/**
 * A link's options: for a file, its trust store and providers fill the Open view's fields
 * (`set` given), as the link has them (empty when it has none), where the user sees and
 * changes them; the rest are pinned to the artifact.
 */
function linkOptions(
  options: Record<string, string>,
  set: ((p: Partial<State>) => void) | null,
): Record<string, string> | undefined {
  const { trustStore, providers, ...rest } = options;
  if (set) set({ openOptions: { trustStore: trustStore ?? '', providers: providers ?? '' } });
  const pinned = set ? rest : options;
  return Object.keys(pinned).length ? pinned : undefined;
}

/** Opens an example or a path (with the options a link pinned to it) and runs it; a link's job (`linked`) read-only. */
async function openSource(
  set: (p: Partial<State>) => void,
  get: () => State,
  source: Extract<JobSource, { type: 'example' | 'path' }>,
  mode: CheckMode,
  whatIf: string[],
  pinned: Record<string, string> | undefined,
  linked = false,
  asCaseRan = false,
  linkedSeen: LinkSeen | null = null,
): Promise<void> {
  set({
    artifact: {
      name: source.path,
      source,
      mode,
      ...(pinned ? { pinned } : {}),
      ...(asCaseRan ? { asCaseRan: true as const } : {}),
      ...(linkedSeen ? { linkedSeen } : {}),
    },
    report: null,
    reportSeen: null,
    content: null,
    sweep: null,
  });
  await get().run(mode, whatIf, linked);
}

/**
 * Nothing open: the artifact, its verdict and its job go (the job is stopped, and its end
 * no longer lands), as a new pick clears them. `held` is the link that asked for this.
 */
function closeArtifact(set: (p: Partial<State>) => void, get: () => State, held: OpenArtifact | null): void {
  const { api, job } = get();
  if (api && job) void api.cancelJob({ jobId: job.id }).catch(() => undefined);
  set({
    artifact: held,
    report: null,
    reportSeen: null,
    reportMode: null,
    content: null,
    sweep: null,
    job: null,
    selection: NO_SELECTION,
  });
}

/**
 * What closes the case or the comparison on screen: returning to an entry of its view from
 * before it was opened shows that view as it was then (lib/link-history.ts returnTo), and
 * what runs there can no longer land.
 */
async function closerOf(view: 'case' | 'compare'): Promise<() => void> {
  // Loaded here, not imported above: both stores import this one.
  if (view === 'case') return (await import('./case-store')).useCase.getState().close;
  return (await import('./compare-store')).useCompare.getState().close;
}

/**
 * A link the window will not follow: what was open goes (a refusal under another
 * artifact's verdict reads as that verdict's), the link stays in the address, and the
 * error says why. A case or a comparison on screen goes too: the link may have been meant for it.
 */
async function refuseLink(set: (p: Partial<State>) => void, get: () => State, hash: string, why: string) {
  closeArtifact(set, get, { name: '', source: null, heldLink: hash });
  set({ error: why, lastJobNote: null });
  focusWhenShown('error');
  const [{ useCase }, { useCompare }] = await Promise.all([import('./case-store'), import('./compare-store')]);
  useCase.getState().close();
  useCompare.getState().close();
}

/**
 * Why a link to a built-in example is not that example, or null: an option the example sets
 * itself named again (the example's own stays its own; the link's would check it against
 * another trust store or artifact under its name), or what-if substitutions on what it verifies.
 */
function exampleLinkTrouble(ex: ExampleSummary, link: DeepLink): string | null {
  const own = Object.keys(link.options).filter((k) => ex.options?.[k] !== undefined);
  if (own.length)
    return (
      `This link opens the built-in example ${ex.path}, which sets its own ${own.join(' and ')}, and names ` +
      `${own.map((k) => `${k}=${link.options[k]}`).join(' and ')} as well: an example's own options are not replaced by a link's, so nothing was opened.`
    );
  if (link.whatIf !== null && (link.mode ?? ex.expect?.command ?? 'verify') !== 'replay')
    return `This link verifies the built-in example ${ex.path} with what-if substitutions, which apply to a replay only (mode=replay), so nothing was opened.`;
  return null;
}

/**
 * A link that names nothing to open (a view alone, a bare token) leaves what is open as it
 * is, and the address is written again to name it: left as given, it would name nothing, and
 * copied or reloaded would open nothing while this window shows a verdict. A link held
 * because it could not be opened (a picked file, a refusal) is no longer what was asked:
 * it goes, with its note.
 */
function namesNothing(set: (p: Partial<State>) => void, get: () => State): void {
  const { artifact, linksNamingNothing } = get();
  if (artifact?.heldLink !== undefined) set({ artifact: null, lastJobNote: null });
  set({ linksNamingNothing: linksNamingNothing + 1 });
}

/** A link's example, path, picked file or saved report (a link without one opens nothing). */
async function openLinked(set: (p: Partial<State>) => void, get: () => State, link: DeepLink, hash: string) {
  const ex = link.example ? get().examples.find((x) => x.path === link.example) : undefined;
  if (ex) {
    const trouble = exampleLinkTrouble(ex, link);
    if (trouble) return refuseLink(set, get, hash, trouble);
  }
  // The options the link ran it with: a file's trust store and providers fill the Open view's fields.
  const pinned = linkOptions(link.options, link.path && !ex ? set : null);
  // A link's job runs read-only (linked): it never writes to the reviewer's journal.
  if (ex) {
    const mode = link.mode ?? ex.expect?.command ?? 'verify';
    return openSource(
      set,
      get,
      { type: 'example', path: ex.path },
      mode,
      link.whatIf ?? ex.expect?.whatIf ?? [],
      pinned,
      true,
      false,
      link.seen,
    );
  }
  if (link.example)
    return refuseLink(set, get, hash, `The link names the example ${link.example}, which this engine does not have.`);
  if (link.path)
    return openSource(
      set,
      get,
      { type: 'path', path: link.path },
      link.mode ?? 'verify',
      link.whatIf ?? [],
      pinned,
      true,
      false,
      link.seen,
    );
  const unopenable = link.picked
    ? `The link was to ${link.picked}, a file picked in this window: a link keeps no file's bytes, so pick it again to reopen it.`
    : link.report
      ? `The link was to the saved report ${link.report}: a link keeps no file's contents, so open it again with "View a saved report (JSON)…".`
      : null;
  if (!unopenable) return namesNothing(set, get);
  closeArtifact(set, get, { name: link.picked ?? link.report!, source: null, heldLink: hash });
  set({ lastJobNote: unopenable });
  focusWhenShown('job-note');
}

/** How many of a saved report's shape problems its refusal lists: enough to see what is wrong. */
const SHOWN_SHAPE_PROBLEMS = 3;

/**
 * Why a saved report is not shown, or null: the report kind's own first checks (docs/
 * report-kind.md), form (RPR-RPT-001) and a verdict its findings or its carried integrity
 * verdict do not make (RPR-RPT-002). A report carries no signature, so one that fails these
 * was edited, and showing its stated verdict would show a claim its own contents deny.
 */
function savedReportRefusal(doc: unknown): string | null {
  const problems = reportShapeProblems(doc, { runOptional: true });
  if (problems.length > 0) {
    const listed = problems.slice(0, SHOWN_SHAPE_PROBLEMS).map((p) => `${p.pointer || 'the report'} ${p.message}`);
    const more = problems.length - listed.length;
    const rest = more > 0 ? `; and ${more}${problems.length >= MAX_SHAPE_PROBLEMS ? ' or more' : ''} more` : '';
    return `it is not a well-formed reprise.report/v1 report (RPR-RPT-001): ${listed.join('; ')}${rest}`;
  }
  const r = doc as Report;
  const c = verdictContradictions(r)[0];
  if (c === undefined) return null;
  return c.by === 'findings'
    ? `its stated verdict is ${r.verdict.toUpperCase()}, but its findings make ${c.made.toUpperCase()} (RPR-RPT-002: the report's verdict is not the one its findings make)`
    : `its stated verdict ${r.verdict.toUpperCase()} is better than the integrity verdict it carries, ${c.integrity.toUpperCase()} (RPR-RPT-002)`;
}

/** What a refused saved report's error says after why: the way to see it checked. */
const CHECK_IT_INSTEAD =
  'It is not shown. To see it checked, open it with Open ("Choose a file…" or its path): the engine checks it as an exported report, fully when given the artifact it is about (reprise verify REPORT --artifact FILE).';

/** Opening an artifact: a picked file, an example, a path, a deep link, a saved report. */
const openSlice: Slice<'openFile' | 'openExample' | 'restoreLink' | 'openPath' | 'openSavedReport' | 'showReport'> = (
  set,
  get,
) => ({
  async openFile(file, mode) {
    const api = get().api;
    if (!api) return;
    // Progress shows at once: the first tenth is the pick itself. The previous artifact's
    // verdict goes now, not when the upload ends: nothing on screen may look like this file's.
    set({
      error: null,
      artifact: null,
      report: null,
      reportSeen: null,
      content: null,
      sweep: null,
      lastJobNote: `Sending ${file.name} to the engine… 0%`,
    });
    try {
      let shown = 0;
      let following = false;
      const sent = await uploadFile(api, file, (f) => {
        // Re-render only on whole tenths: the window stays quiet while a large file streams.
        // A job that follows the arriving bytes shows their progress itself.
        const tenth = Math.floor(f * 10);
        if (tenth !== shown && !following) {
          shown = tenth;
          set({ lastJobNote: `Sending ${file.name} to the engine… ${tenth * 10}%` });
        }
      });
      const source: JobSource = { type: 'upload', uploadId: sent.uploadId };
      set({
        artifact: { name: file.name, localHash: { state: 'computing' }, source, mode },
        report: null,
        reportSeen: null,
        content: null,
        sweep: null,
        lastJobNote: null,
      });
      // Through the web host the job starts now and follows the bytes as they are written,
      // so its first steps overlap the sending (app/engine/arriving.ts).
      following = sent.arriving;
      if (sent.arriving) void sent.sent.catch((e: Error) => sendingFailed(source, e.message));
      await get().run(mode);
      void windowHashAfterJob(sent, source);
    } catch (e) {
      set({ error: (e as Error).message, lastJobNote: null });
      focusWhenShown('error');
    }
  },
  async openExample(path, mode, whatIf = [], pinned) {
    await openSource(set, get, { type: 'example', path }, mode, whatIf, pinned);
  },
  async restoreLink() {
    const names = linkOptionNames(get().info?.options ?? []);
    const hash = location.hash;
    // A link followed is a new request: an error about the one before no longer applies.
    set({ error: null });
    const trouble = linkTrouble(
      hash,
      names,
      VIEWS.map((v) => v.id),
    );
    if (trouble) return refuseLink(set, get, hash, trouble);
    const link = readLink(hash, names);
    const view = VIEWS.find((v) => v.id === link.view)?.id;
    if (view) set({ view });
    if (link.compare) {
      // Loaded here, not imported above: the compare store imports this one.
      const { useCompare } = await import('./compare-store');
      set({ view: 'compare' });
      return useCompare.getState().openLinked(link.compare);
    }
    const sent = sentCase(hash);
    if (link.caseFolder || sent) {
      // Loaded here, not imported above: the case store imports this one.
      const { useCase } = await import('./case-store');
      if (sent) return useCase.getState().linkToSent(sent);
      return useCase
        .getState()
        .openFolder(link.caseFolder!, link.options, link.mode ?? 'verify', link.caseSeen ?? null);
    }
    await openLinked(set, get, link, hash);
  },
  async openPath(path, mode, whatIf = [], pinned, fromCase) {
    const asCase = fromCase !== undefined;
    await openSource(set, get, { type: 'path', path }, mode, whatIf, pinned, asCase, asCase, fromCase?.seen ?? null);
  },
  async openSavedReport(file) {
    let error: string;
    try {
      const doc: unknown = JSON.parse(await file.text());
      const refusal = savedReportRefusal(doc);
      if (refusal === null) return get().showReport(doc as Report, file.name);
      error = `The saved report ${file.name} is refused: ${refusal}. ${CHECK_IT_INSTEAD}`;
    } catch (e) {
      error = `Cannot read the saved report: ${(e as Error).message}`;
    }
    // What was open goes: a refusal under another artifact's verdict would read as that verdict's.
    closeArtifact(set, get, null);
    set({ error, lastJobNote: null });
    focusWhenShown('error');
  },
  showReport(report, name) {
    set({
      artifact: { name, source: null, savedReport: true },
      report,
      reportUnread: [],
      reportOptions: {},
      reportSeen: null,
      reportMode: null,
      content: null,
      selection: NO_SELECTION,
      error: null,
      lastJobNote: null,
      view: 'findings',
    });
    focusWhenShown('verdict-h');
  },
});

/** Jobs the window stopped for a reason of its own: their end shows that reason as the error. */
const stoppedFor = new Map<string, string>();

/**
 * What a link's replay says when it ended: it ran read-only, and how to anchor it. When the
 * link names another journal than the header's, the user's replay would be refused
 * (`signsElsewhere`), so the way to anchor is to open that journal in the header.
 */
function notAnchored(journal: string, pinned: string | undefined, from: 'link' | 'case' = 'link'): string {
  const how =
    pinned === journal || (pinned === undefined && from === 'link')
      ? 'To anchor it, run the replay again from the window (Replay view, "Run replay"), which signs with the chosen key.'
      : pinned === undefined
        ? 'The case ran with no journal: to anchor, replay the case with that journal open, or open the artifact again without the case.'
        : `It read the journal ${pinned} the ${from} names: to anchor there, open that journal in the header and run the replay again.`;
  return (
    `Opened from a ${from}, this replay ran read-only: nothing was anchored in the journal ${journal} ` +
    `(no drift entry signed, no case opened). ${how}`
  );
}

/**
 * A picked file's sending failed while its job followed the arriving bytes: the job can
 * never end well, so it is stopped and the sending's own reason is shown (the engine would
 * otherwise wait for bytes that are not coming, until it gave up).
 */
async function sendingFailed(source: JobSource, message: string): Promise<void> {
  const { api, job, artifact } = useStore.getState();
  if (artifact?.source !== source) return;
  if (api && job) {
    stoppedFor.set(job.id, message);
    await api.cancelJob({ jobId: job.id }).catch(() => undefined);
  } else {
    useStore.setState({ error: message, lastJobNote: null });
    focusWhenShown('error');
  }
}

/**
 * Resolves once the window has painted what is pending and is idle (or after `ms` at most):
 * a big report's render and the garbage collection of its arrival come first.
 */
function whenIdle(ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback !== 'function') return void setTimeout(resolve, 0);
    requestAnimationFrame(() => requestIdleCallback(() => resolve(), { timeout: ms }));
  });
}

/**
 * The window's own hash of a picked file, asked for once its job has ended and the verdict
 * is on screen: the pure-JS digest (lib/digest.ts) then takes no core from the verification
 * the user waits for, nor from the report's render (on two cores, a worker hashing beside
 * it stretched that render past 100 ms). It lands on the banner if the same upload is still
 * open; otherwise it is dropped.
 */
async function windowHashAfterJob(sent: SentFile, source: JobSource): Promise<void> {
  const isOpen = (): boolean => useStore.getState().artifact?.source === source;
  await new Promise<void>((resolve) => {
    if (!useStore.getState().job) return resolve();
    const stop = useStore.subscribe((s) => {
      if (!s.job) {
        stop();
        resolve();
      }
    });
  });
  await whenIdle(1000);
  if (!isOpen()) return sent.drop();
  const localHash = await sent.hash().then(
    (sha256): LocalHash => ({ state: 'done', sha256 }),
    (e: Error): LocalHash => ({ state: 'failed', message: e.message }),
  );
  const a = useStore.getState().artifact;
  if (a && isOpen()) useStore.setState({ artifact: { ...a, localHash } });
}

/**
 * Why a job that signs may not run on this artifact, or null. A link (or a case) pins its
 * journal to the artifact, and a job takes the pinned options over the header's; a job that
 * signs with the header's key would then write into the journal the link chose. Neither is
 * used silently: the link's journal would take the reviewer's signature, and the header's
 * would change what the link reproduces (the anchors its verdict reads).
 */
function signsElsewhere(artifact: OpenArtifact, extra: ReturnType<JobExtras>): string | null {
  const pinned = artifact.pinned?.['journal'];
  const header = extra.options?.['journal'];
  if (!extra.key || pinned === header) return null;
  // A link that names no journal leaves the header's to its jobs; a case's options are all its
  // artifacts' jobs take, so a case that ran with no journal has none to sign into.
  if (pinned === undefined && !artifact.asCaseRan) return null;
  const from = artifact.asCaseRan ? 'case' : 'link';
  const into =
    header === undefined ? 'with the key chosen in the header' : `into the journal ${header} chosen in the header`;
  if (pinned === undefined)
    return (
      `This artifact was opened from a case that ran with no journal; your replay signs ${into}, so nothing was ` +
      `run or signed: replay the case with that journal open to anchor its artifacts, or open the artifact again without the case.`
    );
  return (
    `This artifact was opened from a ${from} with the journal ${pinned}; your replay signs ${into}, so nothing ` +
    `was run or signed: open ${pinned} in the header to anchor there, or open the artifact again without the ${from}.`
  );
}

/**
 * What of the header a job takes: nothing for a link's or a case's own run (read-only, its
 * options alone); for the user's run on a case's artifact only the key (the case's options are
 * all it takes, and signsElsewhere held the header's journal to be the case's); else all of it.
 */
function ownExtras(artifact: OpenArtifact, wouldAnchor: ReturnType<JobExtras>, linked: boolean): ReturnType<JobExtras> {
  if (linked) return {};
  if (artifact.asCaseRan) return wouldAnchor.key ? { key: wouldAnchor.key } : {};
  return wouldAnchor;
}

/** A run the window will not start: what is shown stays, and the error says why (focused). */
function refuseRun(set: (p: Partial<State>) => void, why: string): void {
  set({ error: why, lastJobNote: null });
  focusWhenShown('error');
}

/** The job on the open artifact, and what the editor highlights. */
const jobSlice: Slice<'run' | 'cancel' | 'select'> = (set, get) => ({
  async run(mode, whatIf = [], linked = false) {
    const { api, artifact, job } = get();
    if (!api || !artifact?.source) return;
    // A link's job takes the link's options only: no journal, no key (nothing anchored), and
    // its address gains nothing it did not name. What the user's own replay would anchor is said.
    const wouldAnchor = get().jobExtras(mode, artifact.source);
    const elsewhere = linked ? null : signsElsewhere(artifact, wouldAnchor);
    if (elsewhere) return refuseRun(set, elsewhere);
    const extra = ownExtras(artifact, wouldAnchor, linked);
    if (job) await get().cancel();
    set({ error: null, lastJobNote: null, selection: NO_SELECTION, reportSeen: null });
    let options: Record<string, string> = {};
    try {
      const unanchored =
        linked && wouldAnchor.key
          ? notAnchored(
              wouldAnchor.options?.['journal'] ?? '',
              artifact.pinned?.['journal'],
              artifact.asCaseRan ? 'case' : 'link',
            )
          : undefined;
      options = { ...extra.options, ...fieldOptions(artifact, get().openOptions), ...artifact.pinned };
      // The address names these now, not once the engine accepts the job: a link copied while
      // it starts must reproduce the run (a case's trust store missing would read UNAVAILABLE).
      const sending = get().artifact;
      if (sending?.source === artifact.source) set({ artifact: { ...sending, mode, whatIf, options } });
      const req: StartJobRequest = {
        source: artifact.source,
        mode,
        ...(whatIf.length ? { whatIf } : {}),
        ...(Object.keys(options).length ? { options } : {}),
        ...(extra.key ? { key: extra.key } : {}),
      };
      const { jobId, end } = await startWatchedJob(api, req, (fraction, label) => {
        const job = get().job;
        if (job?.id === jobId) set({ job: { ...job, fraction, label: label ?? job.label } });
      });
      // The artifact now stands for this run (the deep link names its action and substitutions).
      const now = get().artifact;
      const linkedSeen = linked ? artifact.linkedSeen : undefined;
      set({
        job: {
          id: jobId,
          mode,
          fraction: 0,
          label: mode === 'replay' ? 'replaying' : 'verifying',
          whatIf,
          source: artifact.source,
          ...(linkedSeen ? { linkedSeen } : {}),
          options,
        },
        ...(now?.source === artifact.source ? { artifact: { ...withoutSeen(now), mode, whatIf, options } } : {}),
      });
      void end.then((e) => finishJob(jobId, mode, e, unanchored));
      if (!get().content) {
        void api.artifactContent({ source: artifact.source }).then(
          (content) => set({ content }),
          () => set({ content: { raw: null, canonical: null, note: 'the content could not be read' } }),
        );
      }
    } catch (e) {
      // A refused run still names its options: the link keeps them, so a reload says the
      // same refusal rather than running the artifact without them.
      const now = get().artifact;
      set({
        error: optionWords((e as Error).message, options),
        job: null,
        ...(now?.source === artifact.source ? { artifact: { ...withoutSeen(now), mode, whatIf, options } } : {}),
      });
      focusWhenShown('error');
    }
  },
  async cancel() {
    const { api, job } = get();
    if (!api || !job) return;
    await api.cancelJob({ jobId: job.id });
  },
  select(sel) {
    set({ selection: { ...get().selection, ...sel } });
  },
});

/** The journal's status as the engine verifies it now (cases, findings, verdict). */
const verifyNow = (api: RepriseClient, j: JournalForm): Promise<JournalStatus> =>
  api.journalStatus({ dir: j.dir, ...(j.trustStore ? { trustStore: j.trustStore } : {}) });

/** The journal's cases and the officer's signed decisions (the journal is the header's, judgement-store.ts). */
const journalSlice: Slice<
  | 'journal'
  | 'journalStatus'
  | 'journalBusy'
  | 'journalError'
  | 'receipt'
  | 'earlierReceipt'
  | 'setJournal'
  | 'loadJournal'
  | 'decide'
> = (set, get) => ({
  journal: { dir: '', trustStore: '', keyFile: '' },
  journalStatus: null,
  journalBusy: false,
  journalError: null,
  receipt: null,
  earlierReceipt: keptReceipt(),

  setJournal(f) {
    set({ journal: { ...get().journal, ...f } });
  },
  async loadJournal() {
    const { api, journal } = get();
    if (!api || !journal.dir) return;
    set({ journalBusy: true, journalError: null });
    try {
      set({ journalStatus: await verifyNow(api, journal), journalBusy: false });
    } catch (e) {
      set({ journalError: (e as Error).message, journalBusy: false });
    }
  },
  async decide(c, decision, rationale, keyId) {
    const { api, journal } = get();
    if (!api) return false;
    // A new signing takes the place of the receipt kept: a reload shows its receipt, or none.
    forgetReceipt();
    set({ journalBusy: true, journalError: null, receipt: null, earlierReceipt: null });
    try {
      if (!c.openHash) throw new Error(`${c.caseId} cannot be decided: the journal did not give its opening entry`);
      const receipt = await api.decideCase({
        dir: journal.dir,
        trustStore: journal.trustStore,
        keyFile: journal.keyFile,
        keyId,
        caseId: c.caseId,
        openHash: c.openHash,
        shownLast: c.history[c.history.length - 1]?.entryHash ?? '',
        decision,
        rationale,
      });
      set({ receipt, journalBusy: false });
      keepReceipt(journal.dir, receipt);
      await get().loadJournal();
      return true;
    } catch (e) {
      set({ journalError: (e as Error).message });
      // The journal may have changed on disk since the window verified it (the engine refuses
      // to sign onto one that fails): verify again so the sign buttons follow; the refusal stays shown.
      const journalStatus = await verifyNow(api, journal).catch(() => get().journalStatus);
      set({ journalStatus, journalBusy: false });
      return false;
    }
  },
});

export const useStore = create<State>((set, get) => ({
  api: null,
  info: null,
  examples: [],
  recent: [],
  view: 'open',
  theme: initialTheme(),
  artifact: null,
  content: null,
  report: null,
  reportUnread: [],
  reportOptions: {},
  reportSeen: null,
  reportMode: null,
  job: null,
  lastJobNote: null,
  linksNamingNothing: 0,
  selection: NO_SELECTION,
  error: null,
  jobExtras: () => ({}),
  ...trainerSlice(set, get),
  ...connectSlice(set, get),
  ...openSlice(set, get),
  ...jobSlice(set, get),
  ...journalSlice(set, get),
}));

/**
 * What the tab keeps across a reload goes with what it was: a receipt once the receipt shown
 * goes (another journal opened, the journal closed) or the journal open is no longer the one
 * it was signed into; a sweep once the sweep shown goes (its artifact opened again, another
 * one opened) or another artifact than the one it swept is open.
 */
function keptInStep(s: State, prev: State): void {
  if (prev.receipt !== null && s.receipt === null) forgetReceipt();
  const earlier = s.earlierReceipt;
  if (earlier && s.journal.dir !== prev.journal.dir && s.journal.dir !== earlier.journal) {
    forgetReceipt();
    useStore.setState({ earlierReceipt: null });
  }
  if (prev.sweep !== null && s.sweep === null) forgetSweep();
  if (s.earlierSweep && s.artifact !== prev.artifact && !sweptSource(s.earlierSweep, s.artifact?.source)) {
    forgetSweep();
    useStore.setState({ earlierSweep: null });
  }
}
useStore.subscribe(keptInStep);

/**
 * A job refused or failed because of one of its options (the host's gate refused its path,
 * or the engine cannot read it): the error names that option, and that nothing was run
 * without it (lib/deep-link.ts optionRefusal); any other message is shown as it is.
 */
function optionWords(message: string, options: Record<string, string>): string {
  return optionRefusal(message, options, useStore.getState().info?.options ?? []) ?? message;
}

/** The artifact without what a link said of its run: only the first job on it, the link's own, is held to that. */
function withoutSeen(a: OpenArtifact): OpenArtifact {
  const { linkedSeen: _seen, ...rest } = a;
  return rest;
}

/** What a run saw of its artifact, as a link carries it. */
const seenIn = (report: Report): LinkSeen => ({ sha256: report.artifact.sha256, verdict: report.verdict });

/** Shows a job's end, unless a newer job has taken its place; `unanchored`: what a link's replay did not anchor (`notAnchored`). */
function finishJob(jobId: string, mode: CheckMode, e: JobEnd, unanchored?: string): void {
  const { job, api, artifact } = useStore.getState();
  const set = useStore.setState;
  // Another artifact opened meanwhile (its own job not yet started): this end is not its.
  if (job?.id !== jobId || artifact?.source !== job.source) return;
  if (e.ok) {
    const seen = seenIn(e.report);
    const changed = job.linkedSeen
      ? seenChanged(job.linkedSeen, seen, artifact.name, artifact.asCaseRan ? 'case' : 'link')
      : null;
    const notes = [changed, unanchored ?? null];
    set({
      job: null,
      report: e.report,
      reportUnread: e.unread ?? [],
      reportOptions: job.options,
      reportMode: mode,
      reportSeen: seen,
      selection: NO_SELECTION,
      lastJobNote: notes.filter((n) => n !== null).join(' ') || null,
    });
    // Part of the step that opened it: the address goes over the entry (lib/link-history.ts).
    if (useStore.getState().view === 'open') {
      viewFollowsRun();
      set({ view: 'findings' });
    }
    focusWhenShown('verdict-h');
    if (api) void api.recentFiles().then((recent) => set({ recent }));
  } else {
    const reason = stoppedFor.get(jobId);
    stoppedFor.delete(jobId);
    const cancelled = e.cancelled && reason === undefined;
    set({
      job: null,
      ...(cancelled
        ? { lastJobNote: 'Cancelled: the worker running the job was stopped.' }
        : { error: reason ?? optionWords(e.message, useStore.getState().artifact?.options ?? {}) }),
    });
    focusWhenShown(cancelled ? 'job-note' : 'error');
  }
}

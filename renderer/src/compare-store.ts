/**
 * The Compare view's state (zustand, beside the main store): the two sides chosen, the
 * comparison asked for and its result, and the link that names it (lib/compare-link.ts), so
 * the address names the comparison on screen and a reload, or the link shared, runs it again.
 * Each side runs in the engine as a job of its own (the open result's shown report is taken
 * when it ran as the side asks), then the engine diffs the two (docs/compare.md). Once both
 * have run, the link says what each side's run saw; a link's own comparison is held to what
 * its link says (`note`).
 */
import { create } from 'zustand';
import type { CheckMode, CompareSide, JobSource, RepriseClient } from '../../shared/api';
import { artifactsWords, type DiffResult } from '../../shared/diff';
import type { DiffSideLabel } from '../../shared/diff-html';
import type { Report } from '../../shared/report';
import { comparisonChanged, type CompareLink, type CompareSideLink } from './lib/compare-link';
import { optionRefusal, type LinkSeen } from './lib/deep-link';
import { uploadFile } from './lib/file-prep';
import { focusWhenShown } from './lib/focus';
import { startWatchedJob } from './lib/watch-job';
import { artifactOptions, optionsFor, useStore } from './store';

/** Where a side comes from: the open result, a built-in example, a file by its path, a file picked in the window. */
export type From = 'open' | 'example' | 'path' | 'file';
export type Side = 'left' | 'right';

export interface Choice {
  from: From;
  example: string;
  path: string;
  file: File | null;
  mode: CheckMode;
  /** A replay's what-if substitution (`model=ref-2`): two model versions of one artifact. */
  whatIf: string;
  /** The options a link ran this side with: no field holds them, and its run takes them alone. */
  linked?: Record<string, string>;
}

export interface Compared {
  result: DiffResult;
  what: string;
  left: DiffSideLabel;
  right: DiffSideLabel;
}

export const NEW_CHOICE: Choice = { from: 'example', example: '', path: '', file: null, mode: 'verify', whatIf: '' };

/** One side as it will run: where its artifact is (null: a file still to send), its name, its run, as its link names it. */
interface Planned {
  source: JobSource | null;
  file: File | null;
  name: string;
  mode: CheckMode;
  whatIf: string[];
  options: Record<string, string>;
  /** The open result's report, when it ran as this side asks. */
  report: Report | null;
  link: CompareSideLink;
}

const whatIfOf = (c: Choice): string[] => (c.mode === 'replay' && c.whatIf.trim() ? [c.whatIf.trim()] : []);

/** What a link names a side by: an example or a path reopens it; anything else only by its name. */
function targetOf(source: JobSource | null, name: string): CompareSideLink['target'] {
  if (source?.type === 'example' || source?.type === 'path') return { type: source.type, name: source.path };
  return { type: 'picked', name };
}

function plan(
  c: Choice,
  source: JobSource | null,
  name: string,
  options: Record<string, string>,
  report: Report | null = null,
): Planned {
  const whatIf = whatIfOf(c);
  const link = { target: targetOf(source, name), mode: c.mode, whatIf: whatIf[0] ?? null, options };
  return { source, file: c.file, name, mode: c.mode, whatIf, options, report, link };
}

/** The open result as a side: its report when it ran the same way (action and substitution), else run again as it would be. */
function planOpen(c: Choice): Planned {
  const s = useStore.getState();
  const a = s.artifact;
  if (!a?.source)
    throw new Error('No artifact is open: open one first, or choose an example, a path or a file for that side.');
  const same = s.report !== null && s.reportMode === c.mode && (a.whatIf ?? []).join() === whatIfOf(c).join();
  return same
    ? plan(c, a.source, a.name, s.reportOptions, s.report)
    : plan(c, a.source, a.name, artifactOptions(a, s.openOptions));
}

/** One side's run as chosen; why it cannot run, thrown, when something is missing. */
function planSide(c: Choice): Planned {
  const fields = useStore.getState().openOptions;
  if (c.from === 'open') return planOpen(c);
  if (c.from === 'example') {
    if (!c.example) throw new Error('Choose an example for each side.');
    return plan(c, { type: 'example', path: c.example }, c.example, c.linked ?? {});
  }
  if (c.from === 'path') {
    const source: JobSource = { type: 'path', path: c.path.trim() };
    if (!source.path) throw new Error('Give the path of each side compared by its path.');
    return plan(c, source, source.path, c.linked ?? optionsFor(source, fields));
  }
  if (!c.file) throw new Error('Choose a file for each side.');
  return plan(c, null, c.file.name, c.linked ?? optionsFor({ type: 'upload', uploadId: '' }, fields));
}

/** Sends a picked file to the engine; where it is then. */
async function sendFile(api: RepriseClient, file: File): Promise<JobSource> {
  const sent = await uploadFile(api, file);
  await sent.sent;
  sent.drop(); // the window's own hash of it is not wanted here
  return { type: 'upload', uploadId: sent.uploadId };
}

/** Runs one side's job; its report. */
async function jobOn(api: RepriseClient, source: JobSource, p: Planned): Promise<Report> {
  const req = {
    source,
    mode: p.mode,
    ...(p.whatIf.length ? { whatIf: p.whatIf } : {}),
    ...(Object.keys(p.options).length ? { options: p.options } : {}),
  };
  const end = await (await startWatchedJob(api, req)).end;
  if (!end.ok) throw new Error(end.message);
  return end.report;
}

/** One side run (or its shown report taken), as the engine's diff takes it; a failure names the side. */
async function runSide(api: RepriseClient, side: Side, p: Planned): Promise<CompareSide> {
  try {
    const source = p.source ?? (await sendFile(api, p.file!));
    const report = p.report ?? (await jobOn(api, source, p));
    return { source, name: p.whatIf.length ? `${p.name} (what-if ${p.whatIf.join(', ')})` : p.name, report };
  } catch (e) {
    // A refused option (a folder no longer granted, a file gone) is named, as any link's is.
    const message = (e as Error).message;
    const words = optionRefusal(message, p.options, useStore.getState().info?.options ?? []) ?? message;
    throw new Error(`The ${side} side, ${p.name}, was not run, so nothing was compared: ${words}`, { cause: e });
  }
}

/** What a side's run saw of its artifact, as a link carries it. */
const seenIn = (s: CompareSide): LinkSeen => ({ sha256: s.report.artifact.sha256, verdict: s.report.verdict });

/** Both sides run, then diffed by the engine (their content read there, to the CLI's limit); what each run saw. */
async function compareSides(
  api: RepriseClient,
  a: Planned,
  b: Planned,
): Promise<{ compared: Compared; seen: Record<Side, LinkSeen> }> {
  const left = await runSide(api, 'left', a);
  const right = await runSide(api, 'right', b);
  const { kind: _kind, ...compared } = await api.compareArtifacts({ left, right });
  const modes = a.mode === b.mode ? (a.mode === 'replay' ? 'the replays of ' : '') : 'a verification and a replay of ';
  const what = `${modes}${artifactsWords(left.report.artifact.kind, right.report.artifact.kind)}`;
  return { compared: { ...compared, what }, seen: { left: seenIn(left), right: seenIn(right) } };
}

/** The comparison's link once both sides ran: each side says what its run saw. */
const linkSeen = (a: Planned, b: Planned, seen: Record<Side, LinkSeen>): CompareLink => ({
  left: { ...a.link, seen: seen.left },
  right: { ...b.link, seen: seen.right },
});

/** A side as a link names it, as the picker shows it: a picked file's side waits for the file to be picked again. */
function choiceOf(s: CompareSideLink): Choice {
  const { type, name } = s.target;
  return {
    ...NEW_CHOICE,
    from: type === 'picked' ? 'file' : type,
    example: type === 'example' ? name : '',
    path: type === 'path' ? name : '',
    mode: s.mode,
    whatIf: s.whatIf ?? '',
    linked: s.options,
  };
}

/** What a link to a comparison of a picked file says: no link holds a file's bytes. Null when none was picked. */
function pickedWords(link: CompareLink): string | null {
  const picked = (['left', 'right'] as const).filter((s) => link[s].target.type === 'picked');
  if (picked.length === 0) return null;
  const which = picked.map((s) => `the ${s} side, ${link[s].target.name}`).join(', and ');
  return (
    `This link compared ${which}, picked in the window: a link keeps no file's bytes, so nothing was ` +
    `compared. Pick ${picked.length === 1 ? 'it' : 'them'} again and compare.`
  );
}

interface CompareState {
  left: Choice;
  right: Choice;
  busy: boolean;
  error: string | null;
  compared: Compared | null;
  /** The comparison on screen, or asked for, as its link names it; null when none. */
  link: CompareLink | null;
  /** Which side of a link's comparison no longer reads as the link says (lib/compare-link.ts comparisonChanged), or null. */
  note: string | null;
  /** A side chosen in the picker: another artifact drops the options a link gave the side. */
  choose(side: Side, c: Choice): void;
  run(): Promise<void>;
  /** A link to a comparison: its sides chosen as it names them, and compared (but for a picked file). */
  openLinked(link: CompareLink): Promise<void>;
  /** Nothing compared (a link the window refused): what runs can no longer land. */
  close(): void;
}

/** Each comparison asked for is a generation: an earlier one still running lands nothing. */
let generation = 0;

const sameArtifact = (a: Choice, b: Choice): boolean =>
  a.from === b.from && a.example === b.example && a.path === b.path;

/**
 * Runs the sides as chosen and compares them; `linked`: the link this comparison was opened
 * from, whose record of its sides' runs this run is held to (only the link's own run is).
 */
async function compare(linked: CompareLink | null): Promise<void> {
  const api = useStore.getState().api;
  if (!api) return;
  const gen = ++generation;
  const set = useCompare.setState;
  let sides: [Planned, Planned];
  try {
    sides = [planSide(useCompare.getState().left), planSide(useCompare.getState().right)];
  } catch (e) {
    set({ busy: false, compared: null, link: null, note: null, error: (e as Error).message });
    return focusWhenShown('diff-error');
  }
  // The address names the comparison now, not once it is made: a link copied meanwhile reproduces it.
  set({ busy: true, error: null, compared: null, note: null, link: { left: sides[0].link, right: sides[1].link } });
  try {
    const { compared, seen } = await compareSides(api, ...sides);
    if (gen !== generation) return;
    const note = linked ? comparisonChanged(linked, seen) : null;
    set({ compared, busy: false, link: linkSeen(...sides, seen), note });
    if (note) focusWhenShown('diff-seen');
  } catch (e) {
    if (gen !== generation) return;
    set({ error: (e as Error).message, busy: false });
    focusWhenShown('diff-error');
  }
}

export const useCompare = create<CompareState>((set, get) => ({
  left: NEW_CHOICE,
  right: NEW_CHOICE,
  busy: false,
  error: null,
  compared: null,
  link: null,
  note: null,
  choose(side, c) {
    const { linked: _linked, ...chosen } = c;
    set(
      side === 'left'
        ? { left: sameArtifact(get().left, c) ? c : chosen }
        : { right: sameArtifact(get().right, c) ? c : chosen },
    );
  },
  run: () => compare(null),
  async openLinked(link) {
    ++generation;
    set({
      left: choiceOf(link.left),
      right: choiceOf(link.right),
      link,
      compared: null,
      error: null,
      note: null,
      busy: false,
    });
    const picked = pickedWords(link);
    if (picked === null) return compare(link);
    set({ error: picked });
    focusWhenShown('diff-error');
  },
  close() {
    ++generation;
    set({ busy: false, error: null, compared: null, link: null, note: null });
  },
}));

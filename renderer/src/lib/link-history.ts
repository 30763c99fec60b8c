/**
 * The window's history (docs/workbench.md "Back and Forward"). The address names what is
 * shown (lib/deep-link.ts); a change of view, or another artifact, case or comparison opened,
 * is a step of its own (history.pushState), so Back returns to the view before it and
 * Forward goes on again. What changes the address without being a step (a run's verdict
 * arriving, another run of the same artifact, its options) rewrites the entry
 * (history.replaceState).
 *
 * Each entry the window writes says so in its state, with the picked file it names (a link
 * names a picked file by its name only, and two picks may share one). Returning to an entry
 * that names what the window shows there (the same artifact, case or comparison, or
 * nothing) shows its view again and runs nothing: the address is then written again, naming
 * how what is open last ran. Any other address is followed as a link: a link typed, pasted or
 * followed in this tab, or an entry naming what is no longer open, which is opened again as
 * its link says (read-only, held to what its run saw) or refused with why.
 */
import { linkFor, linkOpens, linkTrouble, readLink, type LinkState } from './deep-link.js';

/** An entry of the window's history as the window wrote it: its fragment, and the upload of the picked file it names. */
export interface LinkEntry {
  hash: string;
  upload: string | null;
}

/** How the window writes the next address: as a step of its own, over the entry it is on, or not at all (unchanged). */
export type HistoryStep = 'push' | 'replace' | 'none';

/** Where an entry's state says the window wrote it. */
const MARK = 'reprise.link';

/**
 * The entry the window wrote, from a history entry's state and the address, or null when
 * the window did not write it (the page loaded, a link typed, pasted or followed in the tab).
 */
export function entryOf(state: unknown, hash: string): LinkEntry | null {
  const e: unknown = typeof state === 'object' && state !== null ? (state as Record<string, unknown>)[MARK] : null;
  if (typeof e !== 'object' || e === null) return null;
  const { hash: written, upload } = e as Record<string, unknown>;
  return written === hash ? { hash, upload: typeof upload === 'string' ? upload : null } : null;
}

/** The upload of the picked file a link names (`picked=`), when it is the file open: two picks may share a name. */
export const uploadNamed = (hash: string, s: LinkState): string | null =>
  readLink(hash).picked !== null && s.source?.type === 'upload' ? s.source.uploadId : null;

/**
 * How the window writes `next` while the history is at `at`: a step when the view changes,
 * or when what the view opens does (lib/deep-link.ts linkOpens; another picked file of the
 * same name too), but for an entry that opened nothing (the Case view before a case is
 * opened: nothing there to go back to); over the entry otherwise. An entry the window did
 * not write (`at` null: the page's load, a link followed) is written over: its address
 * asked for what is now shown.
 */
export function historyStep(at: LinkEntry | null, next: LinkEntry): HistoryStep {
  if (at === null) return 'replace';
  if (at.hash === next.hash && at.upload === next.upload) return 'none';
  if (readLink(at.hash).view !== readLink(next.hash).view) return 'push';
  const opened = linkOpens(at.hash);
  if (opened === '') return 'replace';
  return opened !== linkOpens(next.hash) || at.upload !== next.upload ? 'push' : 'replace';
}

/**
 * Whether returning to `entry` shows what is open again, running nothing: what it opens in
 * its view is what the window (in `shown`, the state last written) shows there, the same
 * picked file for a picked one; or it opens nothing in its view.
 */
export function revisits(entry: LinkEntry, shown: LinkState, optionNames: readonly string[]): boolean {
  const opens = linkOpens(entry.hash);
  if (opens === '') return true;
  const now = linkFor('', { ...shown, view: readLink(entry.hash).view ?? shown.view }, optionNames);
  return linkOpens(now) === opens && uploadNamed(now, shown) === entry.upload;
}

/** The state the window last wrote (with the options a link may carry), and the entry it was last on. */
let shown: { state: LinkState; names: readonly string[] } | null = null;
let taken: LinkEntry | null = null;
/** Whether the next address written out of the Open view is the window's move to the Findings view (viewFollowsRun). */
let followsRun = false;
/** Whether the entry the window is on is the Open view with nothing open, written over with what was opened there. */
let openedOverNothing = false;

/**
 * The window leaves the Open view for the Findings view as the run of what was opened there
 * ends: part of the step that opened it, none of its own. The next address written out of
 * the Open view (not an earlier write still pending, which names it) goes over the entry, so
 * Back from that Findings view returns to what was shown before the artifact was opened, and
 * an entry returned to whose artifact runs again keeps the entries after it (Forward still
 * goes on). But for an artifact opened where the Open view had nothing open, whose entry
 * it was written over: the Findings view is then a step, and Back returns to the Open view.
 */
export function viewFollowsRun(): void {
  followsRun = true;
}

/** Writes the address for what is shown: a history step for a change of view or of what is open, else over the entry. */
export function writeLink(s: LinkState, optionNames: readonly string[] = []): void {
  const hash = linkFor(location.hash, s, optionNames);
  const next = { hash, upload: uploadNamed(hash, s) };
  const at = entryOf(history.state, location.hash);
  const found = historyStep(at, next);
  const moved = followsRun && s.view !== 'open';
  if (moved) followsRun = false;
  const step = moved && found === 'push' && !openedOverNothing ? 'replace' : found;
  if (step === 'push' || at === null) openedOverNothing = false;
  else if (step === 'replace' && readLink(at.hash).view === 'open' && linkOpens(at.hash) === '')
    openedOverNothing = linkOpens(hash) !== '';
  shown = { state: s, names: optionNames };
  taken = next;
  if (step === 'push') history.pushState({ [MARK]: next }, '', hash);
  else if (step === 'replace') history.replaceState({ [MARK]: next }, '', hash);
}

/** What the window does on arriving at the address (Back, Forward, a link in the tab): show a view again, or follow it as a link. */
export type Arrival = { revisit: string | null } | 'follow';

/**
 * What arriving at the address asks for, or null when the window is already there (what it
 * wrote; one arrival heard twice, as popstate then hashchange). An entry the window wrote
 * that names what is shown is revisited (its view, `null` when it names none); anything
 * else is followed as a link, a link it cannot follow (`views`: the view ids) refused again.
 */
export function arrival(views: readonly string[]): Arrival | null {
  const entry = entryOf(history.state, location.hash);
  const at = entry ?? { hash: location.hash, upload: null };
  if (taken !== null && taken.hash === at.hash && taken.upload === at.upload) return null;
  taken = at;
  openedOverNothing = false;
  if (entry === null || shown === null || linkTrouble(entry.hash, shown.names, views) !== null) return 'follow';
  return revisits(entry, shown.state, shown.names) ? { revisit: readLink(entry.hash).view } : 'follow';
}

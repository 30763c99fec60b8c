/**
 * The window's history (docs/workbench.md "Back and Forward"). The address names what is
 * shown (lib/deep-link.ts); a change of view, or another artifact, case or comparison opened,
 * is a step of its own (history.pushState), so Back returns to the view before it and
 * Forward goes on again. What changes the address without being a step (a run's verdict
 * arriving, another run of the same artifact, its options) rewrites the entry
 * (history.replaceState).
 *
 * Each entry the window writes says so in its state, with the picked file it names (a link
 * names a picked file by its name only, and two picks may share one), and what the Case and
 * Compare views showed (`shows`, nothing included: their address then names the open
 * artifact, which they do not show, and a saved case report has no link: it is said by its
 * name and the SHA-256 of its text, so another report of the same file name opened over it
 * is a step). Returning to an entry that names what the window shows there (the same
 * artifact, case, comparison or saved case report, or nothing) shows its view again and
 * runs nothing: the address is then written again, naming how what is open last ran.
 * Returning to a Case or Compare entry that showed nothing (or a saved case report, which no
 * link reopens) where another case, report or comparison was opened since shows that view
 * without it: what was opened later is closed, never shown as that entry's. Any other address is followed as a link: a link typed, pasted or followed in this
 * tab, or an entry naming what is no longer open, which is opened again as its link says
 * (read-only, held to what its run saw) or refused with why.
 */
import { linkFor, linkOpens, linkTrouble, readLink, type LinkState } from './deep-link.js';
import type { ShownState } from './link-state.js';

/** The views that show something of their own, not the open artifact: the case, the comparison. */
const OWN_VIEWS = ['case', 'compare'] as const;
type OwnView = (typeof OWN_VIEWS)[number];
const isOwnView = (v: string | null): v is OwnView => OWN_VIEWS.includes(v as OwnView);

/** What the Case and the Compare views show, as lib/deep-link.ts linkOpens says it ('' for nothing). */
export type ViewsShown = Record<OwnView, string>;

/**
 * An entry of the window's history as the window wrote it: its fragment, the upload of the
 * picked file it names, and what the Case and Compare views showed (absent from an entry
 * that does not say: its fragment is then all it names).
 */
export interface LinkEntry {
  hash: string;
  upload: string | null;
  shows?: ViewsShown;
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
  const { hash: written, upload, shows } = e as Record<string, unknown>;
  if (written !== hash) return null;
  return { hash, upload: typeof upload === 'string' ? upload : null, ...(isViewsShown(shows) ? { shows } : {}) };
}

/** Whether an entry's state says what its Case and Compare views showed, as the window writes it. */
function isViewsShown(v: unknown): v is ViewsShown {
  return (
    typeof v === 'object' && v !== null && OWN_VIEWS.every((k) => typeof (v as Record<string, unknown>)[k] === 'string')
  );
}

/**
 * What the Case and Compare views show: the case or the comparison their links name, a
 * saved case report (which no link carries) by its name and the SHA-256 of its text, so two
 * reports of one file name are two things shown; '' for nothing.
 */
export function viewsShown(s: ShownState, optionNames: readonly string[]): ViewsShown {
  const opens = (view: OwnView): string => linkOpens(linkFor('', { ...s, view, heldLink: null }, optionNames));
  const saved = s.caseReport ? `report=${s.caseReport.name}\nsha256=${s.caseReport.sha256}` : '';
  return { case: opens('case') || saved, compare: opens('compare') };
}

/** What an entry opens in its view: what it says its Case or Compare view showed, else what its fragment names there. */
function opensIn(e: LinkEntry): string {
  const view = readLink(e.hash).view;
  return e.shows && isOwnView(view) ? e.shows[view] : linkOpens(e.hash);
}

/** Whether two entries say the same of what the Case and Compare views showed. */
const sameShows = (a: LinkEntry, b: LinkEntry): boolean =>
  OWN_VIEWS.every((v) => (a.shows?.[v] ?? null) === (b.shows?.[v] ?? null));

/** The upload of the picked file a link names (`picked=`), when it is the file open: two picks may share a name. */
export const uploadNamed = (hash: string, s: LinkState): string | null =>
  readLink(hash).picked !== null && s.source?.type === 'upload' ? s.source.uploadId : null;

/**
 * How the window writes `next` while the history is at `at`: a step when the view changes,
 * or when what the view opens does (lib/deep-link.ts linkOpens, or what the Case or Compare
 * view showed; another picked file of the same name too, and another saved case report
 * where one was shown, whose address does not change), but for an entry that opened
 * nothing (the Case view before a case is opened: nothing there to go back to); over the
 * entry otherwise, when only what another view shows changed, and when the view now shows
 * nothing at the same address (a saved case report's entry returned to, emptied). An entry
 * the window did not write (`at` null: the page's load, a link followed) is written over:
 * its address asked for what is now shown.
 */
export function historyStep(at: LinkEntry | null, next: LinkEntry): HistoryStep {
  if (at === null) return 'replace';
  if (at.hash === next.hash && at.upload === next.upload) {
    if (sameShows(at, next)) return 'none';
    const [was, now] = [opensIn(at), opensIn(next)];
    return was !== '' && now !== '' && was !== now ? 'push' : 'replace';
  }
  if (readLink(at.hash).view !== readLink(next.hash).view) return 'push';
  const opened = opensIn(at);
  if (opened === '') return 'replace';
  return opened !== opensIn(next) || at.upload !== next.upload ? 'push' : 'replace';
}

/** What returning to an entry does: show its view again, or emptied of what was opened there since, or follow its link. */
export type Return = 'show' | 'empty' | 'follow';

/**
 * What returning to `entry` does, `shown` being the state last written. What it opens in its
 * view is what the window shows there (the same picked file for a picked one), or a view
 * other than Case and Compare that opens nothing: shown again, nothing run. A Case or
 * Compare entry that showed nothing, or a saved case report (no link reopens it), where
 * something else is shown now: that view emptied. Anything else: its link followed.
 */
export function returnTo(entry: LinkEntry, shown: ShownState, optionNames: readonly string[]): Return {
  const view = readLink(entry.hash).view ?? shown.view;
  const was = opensIn(entry);
  if (was === '' && !isOwnView(view)) return 'show';
  const hash = linkFor('', { ...shown, view }, optionNames);
  const now = opensIn({ hash, upload: null, shows: viewsShown(shown, optionNames) });
  if (was === now && (was === '' || uploadNamed(hash, shown) === entry.upload)) return 'show';
  return isOwnView(view) && linkOpens(entry.hash) === '' ? 'empty' : 'follow';
}

/** The state the window last wrote (with the options a link may carry), and the entry it was last on. */
let shown: { state: ShownState; names: readonly string[] } | null = null;
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
export function writeLink(s: ShownState, optionNames: readonly string[] = []): void {
  const hash = linkFor(location.hash, s, optionNames);
  const next = { hash, upload: uploadNamed(hash, s), shows: viewsShown(s, optionNames) };
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

/**
 * What the window does on arriving at the address (Back, Forward, a link in the tab): show a
 * view again (`empty`: the Case or Compare view, closing what is open there), or follow it as a link.
 */
export type Arrival = { revisit: string | null; empty?: OwnView } | 'follow';

/**
 * What arriving at the address asks for, or null when the window is already there (what it
 * wrote, the views' contents included: two entries of one address may show two saved case
 * reports; one arrival heard twice, as popstate then hashchange). An entry the window wrote
 * that names what is shown is revisited (its view, `null` when it names none), one whose
 * Case or Compare view showed nothing is revisited with that view emptied (returnTo);
 * anything else is followed as a link, a link it cannot follow (`views`: the view ids) refused again.
 */
export function arrival(views: readonly string[]): Arrival | null {
  const entry = entryOf(history.state, location.hash);
  const at = entry ?? { hash: location.hash, upload: null };
  if (taken !== null && taken.hash === at.hash && taken.upload === at.upload && sameShows(taken, at)) return null;
  taken = at;
  openedOverNothing = false;
  if (entry === null || shown === null || linkTrouble(entry.hash, shown.names, views) !== null) return 'follow';
  const to = returnTo(entry, shown.state, shown.names);
  const view = readLink(entry.hash).view;
  if (to === 'follow') return 'follow';
  return to === 'empty' && isOwnView(view) ? { revisit: view, empty: view } : { revisit: view };
}

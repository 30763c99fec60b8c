/**
 * What the window shows, as its address and its history say it (lib/deep-link.ts,
 * lib/link-history.ts): the view, the open artifact and how it last ran, the case in the
 * Case view and the comparison in the Compare view. One mapping from the stores to it, used
 * by App.tsx's writer and by the tests that stand in for it.
 */
import type { CheckMode, JobSource } from '../../../shared/api.js';
import type { CompareLink } from './compare-link.js';
import type { CaseSeen, LinkSeen, LinkState } from './deep-link.js';

/** A saved case report open in the Case view: its file's name, and the SHA-256 of its text that tells two of one name apart. */
export interface SavedCaseReport {
  name: string;
  sha256: string;
}

/** What the window shows: what its link names, and what the Case view shows that no link names. */
export interface ShownState extends LinkState {
  /** The saved case report open in the Case view (a link keeps no file's contents); null when none is. */
  caseReport?: SavedCaseReport | null;
}

/** What the window's store holds of the view and the open artifact (store.ts). */
export interface MainShown {
  view: string;
  artifact: {
    name: string;
    source: JobSource | null;
    savedReport?: boolean;
    mode?: CheckMode;
    whatIf?: string[];
    options?: Record<string, string>;
    heldLink?: string;
  } | null;
  reportSeen: LinkSeen | null;
}

/** What the case store holds of the case open in the Case view (case-store.ts). */
export interface CaseShown {
  name: string | null;
  folder: string | null;
  runOptions: Record<string, string>;
  runMode: CheckMode | null;
  sent: string | null;
  seen: CaseSeen | null;
  /** The SHA-256 of a saved case report's text, when one is what the Case view shows. */
  savedSha256: string | null;
}

/** What the window shows, from its stores: the view, the open artifact, the case and the comparison on screen. */
export function linkStateOf(main: MainShown, shownCase: CaseShown, compare: CompareLink | null): ShownState {
  const { view, artifact, reportSeen } = main;
  return {
    view,
    source: artifact?.source ?? null,
    mode: artifact?.mode ?? null,
    whatIf: artifact?.whatIf ?? [],
    name: artifact?.name ?? null,
    savedReport: artifact?.savedReport ?? false,
    options: artifact?.options ?? {},
    caseFolder: shownCase.folder,
    caseOptions: shownCase.runOptions,
    caseMode: shownCase.runMode,
    caseSent: shownCase.sent,
    caseSeen: shownCase.seen,
    // A saved case report, read from its file: by its name and the SHA-256 of its text.
    caseReport:
      shownCase.savedSha256 !== null && shownCase.name !== null
        ? { name: shownCase.name, sha256: shownCase.savedSha256 }
        : null,
    compare,
    heldLink: artifact?.heldLink ?? null,
    // What the run whose report is shown saw: none while another run on it is under way.
    seen: artifact?.source ? reportSeen : null,
  };
}

/**
 * Where the Export view sends a reviewer for the evidence bundle. The bundle holds the
 * journal's judgements on the report, so its one control sits with them, in the judgements
 * bar above the tabs (ExportBundle in JudgementPanel), shown once a journal is open; the
 * Export view says so and moves focus there rather than offer a second control.
 */

/** The id of the judgements bar's "Export evidence bundle" button (ExportBundle). */
export const EXPORT_BUNDLE_ID = 'export-bundle';
/** The judgements bar's error (JudgementPanel.tsx), where focus moves when signing or an export is refused. */
export const JUDGEMENT_ERROR_ID = 'judgement-error';
/** The id of the journal header's toggle (JournalHeader). */
export const JOURNAL_TOGGLE_ID = 'work-journal-toggle';

export interface BundleWhere {
  words: string;
  /** The control the button moves focus to, with the button's words; null when there is none to go to. */
  go: { id: string; label: string } | null;
}

const CONTENTS = 'the report, every judgement on it with its inclusion proof and the latest signed checkpoint';

/** Where the bundle is exported, for a window with or without a journal open and a report that does or does not name its artifact's hash. */
export function bundleWhere(s: { journalOpen: boolean; namesArtifact: boolean }): BundleWhere {
  if (!s.namesArtifact)
    return {
      words: `The evidence bundle (${CONTENTS}) is made for an artifact file: this report names no artifact SHA-256, so it has none.`,
      go: null,
    };
  if (!s.journalOpen)
    return {
      words: `The evidence bundle (${CONTENTS}) is exported from the judgements bar above the tabs, shown once a journal is open: open one in the journal header first.`,
      go: { id: JOURNAL_TOGGLE_ID, label: 'Go to the journal header' },
    };
  return {
    words: `The evidence bundle (${CONTENTS}) is exported from the judgements bar above the tabs, beside "Record judgement".`,
    go: { id: EXPORT_BUNDLE_ID, label: 'Go to "Export evidence bundle"' },
  };
}

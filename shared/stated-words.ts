/**
 * How a saved report (an exported reprise.report/v1 opened without its artifact) is said:
 * the same words in the window's verdict banner and on its exported HTML page
 * (shared/report-html.ts). A report carries no signature, so its verdict and every proof,
 * signer and decision in it are its claims, none checked where it is shown.
 */

/** Beside a saved report's verdict word. */
export const VERDICT_STATED = 'as stated (not re-verified)';

/** Beside each of a saved report's claims (its authenticity, a carried verdict, a proof). */
export const AS_STATED = 'as the saved report states it, not checked here';

/** The first sentence of the note under a saved report's heading. */
export const SAVED_LEAD = 'This is a saved report, shown as it states itself: not re-verified.';

/** What the note says next: whose claims are shown. */
export const SAVED_CLAIMS =
  'A report carries no signature, so its verdict, authenticity, proofs and judgements are its own claims, none checked here.';

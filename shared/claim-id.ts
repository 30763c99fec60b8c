/**
 * The form a claim id must have for a new journal entry (RPR-QUAR-008), and how a reader
 * shows a claim id that lacks it. Two ids that differ only by trailing whitespace, or by
 * Unicode normalization (a composed "é" and "e" + U+0301), draw alike, so an officer could
 * release the wrong claim: the writer refuses such an id for a new entry but a decision on its
 * case (app/journal/claim-ids.ts), and `journal verify` and `quarantine list|show` show one a
 * journal already holds escaped, with a warning.
 * Pure: imports only shared/controls.ts (the engine, the host and the renderer read shared/).
 */
import { CONTROL_CLASS, controlEscape, controlPieces, escapeControls, type ShownAs } from './controls.js';

export const CLAIM_ID_RULE = 'RPR-QUAR-008';

const CONTROL = new RegExp(`[${CONTROL_CLASS}]`, 'u');
const SPACE = /^\s$/u;
const IDENTIFIER: Readonly<ShownAs> = Object.freeze({ identifier: true });
/** Printable ASCII (U+0021-U+007E at the ends, U+0020 allowed between): no control, bidi or edge space, and NFC. */
const PLAIN_ASCII = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * Why `id` may not name the claim of a new case (a phrase after "the claim id …"), or null:
 * a control or bidirectional character (shared/controls.ts CONTROL_CLASS), whitespace at
 * either end (JavaScript's `trim` set: U+00A0, U+3000, U+FEFF… too), or a form other than NFC.
 */
export function claimIdProblem(id: string): string | null {
  // Printable ASCII with no space at an end, the form nearly every claim id has, breaks none
  // of the rules: asked first, as `journal verify` asks it of every entry.
  if (PLAIN_ASCII.test(id)) return null;
  const c = CONTROL.exec(id);
  if (c) return `holds the control character U+${c[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  if (id.trim() !== id) return 'begins or ends with whitespace';
  if (id.normalize('NFC') !== id)
    return 'is not in Unicode normalization form NFC (a decomposed letter draws as its composed form)';
  return null;
}

/** A piece of a shown claim id: a run of plain text, or one character's escape, which a view can mark. */
export type ClaimIdPiece = { text: string; control: boolean };

/** Which code points of a claim id that breaks the rule are shown escaped. */
function escapedAt(id: string, cps: readonly string[]): (c: string, i: number) => boolean {
  let lead = 0;
  while (lead < cps.length && SPACE.test(cps[lead]!)) lead++;
  let trail = cps.length;
  while (trail > lead && SPACE.test(cps[trail - 1]!)) trail--;
  const nfc = id.normalize('NFC') === id;
  return (c, i) => i < lead || i >= trail || (!nfc && c > '\x7f') || escapeControls(c, IDENTIFIER) !== c;
}

/**
 * A claim id as a reader is shown it: as an identifier (shared/controls.ts `identifier`), and,
 * when it breaks the rule above, with its edge whitespace escaped too (`\x20`) and, when it is
 * not NFC, every character beyond ASCII escaped (`e\u0301`, `\u212b`), so it never reads as
 * the id in the rule's form. Backslashes are then doubled, as every escaped text doubles them.
 */
export function claimIdPieces(id: string): ClaimIdPiece[] {
  if (claimIdProblem(id) === null) return controlPieces(id, IDENTIFIER);
  const cps = [...id];
  const escaped = escapedAt(id, cps);
  const out: ClaimIdPiece[] = [];
  cps.forEach((c, i) => {
    if (escaped(c, i)) return void out.push({ text: controlEscape(c), control: true });
    const text = c === '\\' ? '\\\\' : c;
    const last = out[out.length - 1];
    if (last && !last.control) last.text += text;
    else out.push({ text, control: false });
  });
  return out;
}

/** The claim id as `claimIdPieces` shows it, as one text (the terminal's, a search's). */
export function shownClaimId(id: string): string {
  return claimIdPieces(id)
    .map((p) => p.text)
    .join('');
}

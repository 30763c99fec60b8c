/**
 * What may not reach a terminal raw, written out here apart from the engine's own list
 * (app/core/text.ts) so that a test of it cannot agree with a mistake in it: C0 but the
 * line feed, DEL, C1, the bidirectional controls and the line and paragraph separators.
 */
import { PROGRESS_END, PROGRESS_START } from '../../app/cli/output.js';

const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/gu;

/**
 * A hostile string: ESC colour, an OSC 8 hyperlink, bidi overrides and isolates, C1 CSI,
 * DEL, CR, tab, NUL, LS/PS, and a line feed that would start a line of its own (FAKED_LINE).
 */
export const HOSTILE =
  'E\x1b[31mRED\x1b]8;;https://evil.example/\x07link\x1b]8;;\x07\u202eTXT.EXE\u2066\u2069\u200e\u200f\u061c\u0085\u009b2J\x7f\r\t\u2028\u2029\x00\nFAKED line';

/** Where a field's line feed reached the output raw, making a line of its own. */
export const FAKED_LINE = /^FAKED line/m;

/** HOSTILE as a file name may hold it: no slash, no NUL. */
export const HOSTILE_NAME = HOSTILE.replace(/[/\0]/g, '');

/** The progress line the printer draws on stderr: its own controls around escaped text. */
const PROGRESS = new RegExp(`${PROGRESS_START}[^\\r\\x1b]*${PROGRESS_END.replace('[', '\\[')}`, 'g');

/** The raw controls in `text` (as U+XXXX), after the printer's own progress lines when `progress` says so. */
export function rawControls(text: string, progress = false): string[] {
  const t = progress ? text.replace(PROGRESS, '') : text;
  return [...t.matchAll(RAW)].map((m) => `U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The characters a reader is shown as an escape rather than given raw: one definition for
 * the terminal (app/core/text.ts) and the HTML pages (shared/report-html.ts), so that a
 * value reads the same on either. Pure; imports nothing.
 */

/**
 * Characters a terminal acts on rather than shows: C0 (line feed and carriage return too),
 * DEL and C1 (ESC [, CSI: cursor moves, erase, colour), the bidirectional controls (which
 * reorder what follows, on a terminal and on a page alike: U+061C, U+200E/F, U+202A-E,
 * U+2066-9) and the line and paragraph separators U+2028/9. A dumpId holding
 * "ESC[2K\r ESC[32mPASS" would otherwise erase the FAIL line it sits on and print a green
 * PASS; "\u202e0001" would display as "1000".
 */
export const CONTROL_CLASS = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028-\\u202e\\u2066-\\u2069';

const hex = (c: string, width: number): string => c.charCodeAt(0).toString(16).padStart(width, '0');

/** A control as a visible escape: `\x1b` below U+0100, `\u202e` above (as JSON and JavaScript write them). */
export function controlEscape(c: string): string {
  return c.charCodeAt(0) < 0x100 ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`;
}

/** A control as the `\uXXXX` escape of a JSON string, whatever its code point. */
export function jsonControlEscape(c: string): string {
  return `\\u${hex(c, 4)}`;
}

/** Every control of CONTROL_CLASS but those in `keep`, matched one at a time. */
const controlsBut = (keep: string): RegExp =>
  new RegExp(keep ? `(?![${keep}])[${CONTROL_CLASS}]` : `[${CONTROL_CLASS}]`, 'gu');

/**
 * Text as the window shows a value it did not write (a claim id, a rationale from a
 * journal): every control as its visible escape, as the terminal shows it, so that
 * "claim:\u202egnp.exe" never reads as "claim:exe.png". `keep` names controls shown as
 * themselves (a rationale's line feeds and tabs, as `\n\t`).
 */
export function escapeControls(s: string, keep = ''): string {
  return s.replace(controlsBut(keep), controlEscape);
}

/** The same text in pieces, each a run of plain text or one control's escape, so a view can mark the escapes. */
export function controlPieces(s: string, keep = ''): { text: string; control: boolean }[] {
  const out: { text: string; control: boolean }[] = [];
  let at = 0;
  for (const m of s.matchAll(controlsBut(keep))) {
    if (m.index > at) out.push({ text: s.slice(at, m.index), control: false });
    out.push({ text: controlEscape(m[0]), control: true });
    at = m.index + m[0].length;
  }
  if (at < s.length) out.push({ text: s.slice(at), control: false });
  return out;
}

/**
 * Characters that take no room on screen: Unicode's format characters (zero-width space,
 * joiners, the soft hyphen, word joiner, the byte order mark, the bidirectional controls)
 * and the combining grapheme joiner. A diff shows them as escapes: "ab" against "a\u200bb"
 * must not read as the same text twice. Elsewhere (a rationale in a script that needs ZWNJ)
 * they stay as written. In a value shown as JSON the escape cannot be confused with the text
 * "\u200b" (JSON writes that `\\u200b`); in a changed span, which is raw text, it can.
 */
// Not the controls of CONTROL_CLASS (the bidirectional ones are format characters too): the
// terminal and the pages escape those themselves, a page as `&#92;u202e`, which no literal
// "\u202e" in a value can imitate (RPR-EVB-014).
const INVISIBLE = new RegExp(`(?![${CONTROL_CLASS}])[\\p{Cf}\\u034f]`, 'gu');

/** `s` with every invisible character as its `\uXXXX` escape (as JSON writes one). */
export function showInvisible(s: string): string {
  return s.replace(INVISIBLE, jsonControlEscape);
}

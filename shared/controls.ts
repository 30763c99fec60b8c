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

/**
 * A control as a visible escape: `\x1b` below U+0100, `\u202e` above, `\u{e0041}` beyond the
 * BMP (an identifier's tag characters), as JavaScript writes them.
 */
export function controlEscape(c: string): string {
  const cp = c.codePointAt(0)!;
  if (cp > 0xffff) return `\\u{${cp.toString(16)}}`;
  return cp < 0x100 ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`;
}

/** A control as the `\uXXXX` escape of a JSON string, whatever its code point. */
export function jsonControlEscape(c: string): string {
  return `\\u${hex(c, 4)}`;
}

/** Literal text that reads as one of the escapes these functions write. */
const ESCAPE_LOOKALIKE = /\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|u\{[0-9a-fA-F]+\})/;

/**
 * `s` with every backslash doubled (as JSON writes one) when `escaped` finds a character to
 * escape in it, or when it holds text that reads as an escape: otherwise the six characters
 * "\u202e" typed as text and an escaped U+202E would read alike. Text with neither is left
 * as it is (a Windows path keeps its single backslashes), and holds no escape-like text at
 * all, so wherever `\u202e` is read after an even number of backslashes it is an escape.
 * `escaped` must not be global (its `test` would keep state between calls).
 */
export function backslashesFor(s: string, escaped: RegExp): string {
  return s.includes('\\') && (escaped.test(s) || ESCAPE_LOOKALIKE.test(s)) ? s.replace(/\\/g, '\\\\') : s;
}

/** How a value the window did not write is shown. */
export interface ShownAs {
  /** Controls shown as themselves (a rationale's line feeds and tabs, as `\n\t`). */
  keep?: string;
  /** The text is JSON, which already writes a typed backslash doubled. */
  json?: boolean;
  /**
   * An identifier (a claim id): every character Unicode lets a renderer draw as nothing
   * escaped too, exactly as `everyInvisible` escapes them (the format characters: zero-width
   * space, joiners, soft hyphen, word joiner, byte order mark, tags; the combining grapheme
   * joiner; and the rest of Default_Ignorable_Code_Point: variation selectors, the Hangul
   * fillers, U+180B-U+180F…), so "claim\u200bA" never reads as "claimA", nor
   * "claim:loan\ufe0f-1" or "claim:loan\u3164-1" as "claim:loan-1". An identifier is no
   * text in a script that needs one of them to be drawn, so none is left raw.
   */
  identifier?: boolean;
  /**
   * A text every character of which must be seen (a signed note or a case decision's
   * rationale, whose edit must not read as the version it replaces and whose signature
   * covers characters no one saw otherwise; a value, span or pointer a diff shows,
   * shared/diff.ts): the characters `identifier` escapes, every one Unicode lets a renderer
   * draw as nothing (Default_Ignorable_Code_Point: the Hangul fillers U+115F, U+1160, U+3164
   * and U+FFA0, the variation selectors, U+180B-U+180F, the tags U+E0000-U+E0FFF…), so an edit
   * that only inserts U+200B, or a text carrying hidden tag characters, shows it. ZWNJ and ZWJ
   * too, even where they shape a script's letters (docs/journal.md, "Invisible characters").
   * With `keep`, the kept controls (a note's line feeds and tabs) still stay as they are.
   */
  everyInvisible?: boolean;
}

/** What takes no room on screen: the format characters, the combining grapheme joiner, every default-ignorable code point. */
const INVISIBLE_CLASS = '\\p{Cf}\\u034f\\p{Default_Ignorable_Code_Point}';

/** What is escaped, one at a time: every control (invisible characters too for an identifier or a note) but those kept. */
function escapedBy(as: ShownAs): RegExp {
  const cls = as.everyInvisible || as.identifier ? `${CONTROL_CLASS}${INVISIBLE_CLASS}` : CONTROL_CLASS;
  return new RegExp(as.keep ? `(?![${as.keep}])[${cls}]` : `[${cls}]`, 'gu');
}

/** `s` with its backslashes as backslashesFor says, unless it is JSON. */
function withBackslashes(s: string, as: ShownAs): string {
  if (as.json) return s;
  return backslashesFor(s, new RegExp(escapedBy(as).source, 'u'));
}

/**
 * Text as the window shows a value it did not write (a claim id, a rationale from a
 * journal): every control as its visible escape, as the terminal shows it, so that
 * "claim:\u202egnp.exe" never reads as "claim:exe.png".
 */
export function escapeControls(s: string, as: ShownAs = {}): string {
  return withBackslashes(s, as).replace(escapedBy(as), controlEscape);
}

/** The same text in pieces, each a run of plain text or one control's escape, so a view can mark the escapes. */
export function controlPieces(shown: string, as: ShownAs = {}): { text: string; control: boolean }[] {
  const out: { text: string; control: boolean }[] = [];
  const s = withBackslashes(shown, as);
  let at = 0;
  for (const m of s.matchAll(escapedBy(as))) {
    if (m.index > at) out.push({ text: s.slice(at, m.index), control: false });
    out.push({ text: controlEscape(m[0]), control: true });
    at = m.index + m[0].length;
  }
  if (at < s.length) out.push({ text: s.slice(at), control: false });
  return out;
}

/**
 * Artifact data made safe to print on a terminal: `safeText` for each field a text renderer
 * puts in a line (the engine's reports, lint, quarantine), `terminalSafe` for everything the
 * CLI's printer (app/cli/output.ts) writes.
 */
import { CONTROL_CLASS, controlPieces, escapeControls, jsonControlEscape } from '../../shared/controls.js';

/** The same but the line feed: the one control whole output may hold (it ends lines). */
const CONTROLS_BUT_LF = new RegExp(`(?!\\n)[${CONTROL_CLASS}]`, 'g');

/**
 * Artifact data as terminal text: every terminal control becomes a visible escape (\x1b,
 * \u202e), so that the line shows what the artifact holds and cannot rewrite the screen or
 * start a line of its own. Every string from an artifact, a path or an error message goes
 * through this before a text renderer puts it in a line.
 */
export function safeText(s: string): string {
  return escapeControls(s);
}

/**
 * An identifier (a claim id) as terminal text: every invisible character escaped too, variation
 * selectors and Hangul fillers among them (shared/controls.ts ShownAs.identifier).
 */
export function safeIdentifier(s: string): string {
  return escapeControls(s, { identifier: true });
}

/**
 * A signed note's text, or a line of a case decision's rationale, as terminal text: safeText,
 * and every character a terminal may draw as nothing escaped too (shared/controls.ts
 * ShownAs.everyInvisible), so an edit that only inserts U+200B, or hidden tag characters,
 * show as the window shows them.
 */
export function safeNoteText(s: string): string {
  return escapeControls(s, { everyInvisible: true });
}

/**
 * JSON text made safe as safeText makes text: its backslashes stay as they are, since JSON
 * already writes a typed "\u202e" as `\\u202e`, and doubling them would misquote it.
 */
export function safeJsonText(s: string): string {
  return escapeControls(s, { json: true });
}

/**
 * Whole output made safe for a terminal: every terminal control but the line feed becomes
 * `\uXXXX`. That form is a JSON string escape, and in JSON.stringify's output a control
 * can only stand inside a string (which escapes C0 but leaves DEL, C1, the bidi controls
 * and U+2028/9 raw), so JSON stays valid and means the same while a line read on a terminal
 * cannot be recoloured or reordered; in text it is as visible as `safeText`'s escapes.
 */
export function terminalSafe(s: string): string {
  return s.replace(CONTROLS_BUT_LF, jsonControlEscape);
}

/** The character a `controlEscape` escape (`\x1b`, `\u202e`, `\u{e0041}`) stands for, as JSON `\uXXXX` escapes (a surrogate pair beyond the BMP). */
function asJsonEscape(escape: string): string {
  const c = String.fromCodePoint(parseInt(escape.slice(2).replace(/[{}]/g, ''), 16));
  let out = '';
  for (let i = 0; i < c.length; i++) out += jsonControlEscape(c[i]!);
  return out;
}

/**
 * JSON text (JSON.stringify's, pretty-printed or not) with every control and every character a
 * terminal may draw as nothing written as a JSON `\uXXXX` escape: the characters `safeNoteText`
 * escapes in text, so `--json` shows a rationale's U+200B or hidden tag characters as text
 * mode does, and parses to the exact text recorded. Outside strings JSON.stringify writes none
 * of them but the line feeds of its layout, which stay.
 */
export function jsonShown(json: string): string {
  return controlPieces(json, { json: true, everyInvisible: true, keep: '\n' })
    .map((p) => (p.control ? asJsonEscape(p.text) : p.text))
    .join('');
}

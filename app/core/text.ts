/**
 * Artifact data made safe to print on a terminal: `safeText` for each field a text renderer
 * puts in a line (the engine's reports, lint, quarantine), `terminalSafe` for everything the
 * CLI's printer (app/cli/output.ts) writes.
 */
/**
 * Characters a terminal acts on rather than shows: C0 (line feed and carriage return too),
 * DEL and C1 (ESC [, CSI: cursor moves, erase, colour), the bidirectional controls (which
 * reorder what follows: U+061C, U+200E/F, U+202A-E, U+2066-9) and the line and paragraph
 * separators U+2028/9. A dumpId holding "ESC[2K\r ESC[32mPASS" would otherwise erase the
 * FAIL line it sits on and print a green PASS.
 */
const CONTROL_CLASS = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028-\\u202e\\u2066-\\u2069';
const TERMINAL_CONTROLS = new RegExp(`[${CONTROL_CLASS}]`, 'g');
/** The same but the line feed: the one control whole output may hold (it ends lines). */
const CONTROLS_BUT_LF = new RegExp(`(?!\\n)[${CONTROL_CLASS}]`, 'g');

const hex = (c: string, width: number): string => c.charCodeAt(0).toString(16).padStart(width, '0');

/**
 * Artifact data as terminal text: every terminal control becomes a visible escape (\x1b,
 * \u202e), so that the line shows what the artifact holds and cannot rewrite the screen or
 * start a line of its own. Every string from an artifact, a path or an error message goes
 * through this before a text renderer puts it in a line.
 */
export function safeText(s: string): string {
  return s.replace(TERMINAL_CONTROLS, (c) => {
    const n = c.charCodeAt(0);
    return n < 0x100 ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`;
  });
}

/**
 * Whole output made safe for a terminal: every terminal control but the line feed becomes
 * `\uXXXX`. That form is a JSON string escape, and in JSON.stringify's output a control
 * can only stand inside a string (which escapes C0 but leaves DEL, C1, the bidi controls
 * and U+2028/9 raw), so JSON stays valid and means the same while a line read on a terminal
 * cannot be recoloured or reordered; in text it is as visible as `safeText`'s escapes.
 */
export function terminalSafe(s: string): string {
  return s.replace(CONTROLS_BUT_LF, (c) => `\\u${hex(c, 4)}`);
}

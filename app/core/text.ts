/** Artifact data made safe to print on a terminal (every text renderer uses this: the engine's reports, lint, quarantine). */
/**
 * Characters a terminal acts on rather than shows: C0 (line feed and carriage return too),
 * DEL and C1 (ESC [, CSI: cursor moves, erase, colour), the bidirectional controls (which
 * reorder what follows: U+061C, U+200E/F, U+202A-E, U+2066-9) and the line and paragraph
 * separators U+2028/9. A dumpId holding "ESC[2K\r ESC[32mPASS" would otherwise erase the
 * FAIL line it sits on and print a green PASS.
 */
const TERMINAL_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * Artifact data as terminal text: every terminal control becomes a visible escape (\x1b,
 * \u202e), so that the line shows what the artifact holds and cannot rewrite the screen.
 * Every string from an artifact, a path or an error message goes through this before a
 * text renderer prints it; JSON output needs nothing (JSON.stringify escapes C0, and a
 * JSON consumer is no terminal).
 */
export function safeText(s: string): string {
  return s.replace(TERMINAL_CONTROLS, (c) => {
    const n = c.charCodeAt(0);
    return n < 0x100 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
  });
}


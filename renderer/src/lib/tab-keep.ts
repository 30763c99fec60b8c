/**
 * What the window keeps across a reload of the same tab (docs/workbench.md "Kept across a
 * reload"): sessionStorage, which belongs to this tab alone and goes with it, never shared
 * with another tab or written to disk for the next session as localStorage would be. Each
 * value is held to a size and read back only through its own check: anything too large,
 * malformed or unreadable is dropped, never shown and never thrown. Nothing secret is kept
 * here (no key material): only what the window already showed.
 */

/** Writes `value` under `key`, or drops what was there when it is larger than `maxChars` or cannot be written. */
export function keepInTab(key: string, value: unknown, maxChars: number): boolean {
  try {
    const text = JSON.stringify(value);
    if (text.length <= maxChars) {
      sessionStorage.setItem(key, text);
      return true;
    }
  } catch {
    /* storage unavailable or full: nothing is kept */
  }
  forgetInTab(key);
  return false;
}

/** What was kept under `key`, when it is at most `maxChars` and passes `check`; else dropped, and null. */
export function keptInTab<T>(key: string, check: (v: unknown) => v is T, maxChars: number): T | null {
  try {
    const text = sessionStorage.getItem(key);
    if (text === null) return null;
    if (text.length <= maxChars) {
      const v: unknown = JSON.parse(text);
      if (check(v)) return v;
    }
  } catch {
    /* unreadable: dropped below */
  }
  forgetInTab(key);
  return null;
}

export function forgetInTab(key: string): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    /* storage unavailable: nothing was kept */
  }
}

/** A whole number from `min` to `max`. */
export const isCount = (v: unknown, min = 0, max = Number.MAX_SAFE_INTEGER): v is number =>
  Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;

/** An array of at most `max` strings. */
export const isStrings = (v: unknown, max: number): v is string[] =>
  Array.isArray(v) && v.length <= max && v.every((s) => typeof s === 'string');

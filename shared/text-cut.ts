/**
 * Cutting a shown string without splitting a surrogate pair (a cut half shows as U+FFFD):
 * the one rule for every view that shortens a value (the text output, the diff, its page)
 * and for the engine's pieces of a long text.
 */
export const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
export const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/**
 * Where to cut `s` at `i` without splitting a surrogate pair: `i`, or `i − 1` when `i` falls
 * between a pair's halves (a cut half shows as U+FFFD). A slice from it keeps the whole
 * pair, a slice up to it leaves the whole pair out. Every cut of a shown string comes here.
 */
export function cutIndex(s: string, i: number): number {
  return i > 0 && i < s.length && isLowSurrogate(s.charCodeAt(i)) && isHighSurrogate(s.charCodeAt(i - 1)) ? i - 1 : i;
}

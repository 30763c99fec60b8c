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

/** How far either side of a place the grapheme check reads: longer clusters are cut as surrogates are. */
export const GRAPHEME_WINDOW = 64;
let segmenter: Intl.Segmenter | undefined;

/** Whether a code unit starts or ends a grapheme by itself whatever is beside it (printable, below the combining marks). */
const plain = (c: number): boolean => c >= 0x20 && c < 0x300;

/**
 * Whether `i` is a boundary between two graphemes of `s` (a letter and its combining accents,
 * a flag's two regional indicators, an emoji joined by ZWJ are one each): read from the text
 * around it (GRAPHEME_WINDOW each side), so a cluster longer than that counts its surrogate
 * pairs only. Plain text on both sides answers without segmenting.
 */
export function isGraphemeBoundary(s: string, i: number): boolean {
  if (i <= 0 || i >= s.length) return true;
  if (plain(s.charCodeAt(i - 1)) && plain(s.charCodeAt(i))) return true;
  const from = Math.max(0, i - GRAPHEME_WINDOW);
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const g of segmenter.segment(s.slice(from, Math.min(s.length, i + GRAPHEME_WINDOW)))) {
    const at = from + g.index;
    if (at === i) return true;
    if (at > i) return false;
  }
  return false;
}

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

/** How far before a place the grapheme check reads, and how far back a span's end may move. */
export const GRAPHEME_WINDOW = 64;
/** How many regional indicators before a place are counted to pair them (a flag is two). */
const RI_LOOKBACK = 4096;
let segmenter: Intl.Segmenter | null | undefined;

/** Whether a code unit starts or ends a grapheme by itself whatever is beside it (printable, below the combining marks). */
const plain = (c: number): boolean => c >= 0x20 && c < 0x300;

/** Whether `i` is a grapheme boundary of `s` because the text on both sides of it is plain (or it is an end). */
export function isPlainBoundary(s: string, i: number): boolean {
  return i <= 0 || i >= s.length || (plain(s.charCodeAt(i - 1)) && plain(s.charCodeAt(i)));
}

/** A regional indicator (half of a flag) at `j`: U+1F1E6 to U+1F1FF, a surrogate pair. */
function isRegionalIndicator(s: string, j: number): boolean {
  const lo = s.charCodeAt(j + 1);
  return s.charCodeAt(j) === 0xd83c && lo >= 0xdde6 && lo <= 0xddff;
}

/**
 * Where segmenting may start, at or just before `from`: off a surrogate pair's middle, and
 * inside a run of regional indicators on the first of a pair, counted from the run's start
 * (up to RI_LOOKBACK back), since the segmenter pairs them from wherever it starts.
 */
function segmentStart(s: string, from: number): number {
  const at = cutIndex(s, from);
  if (!isRegionalIndicator(s, at)) return at;
  let before = 0;
  for (let j = at - 2; j >= 0 && before < RI_LOOKBACK && isRegionalIndicator(s, j); j -= 2) before++;
  return before % 2 === 1 ? at - 2 : at;
}

/**
 * The grapheme boundaries of `s` from `lo` to `hi` (both included): a letter and its
 * combining accents, a flag's two regional indicators, an emoji joined by ZWJ, CR LF are
 * one grapheme each. Read with Intl.Segmenter from GRAPHEME_WINDOW before `lo`, so a cluster
 * longer than that may be cut (never inside a surrogate pair); where the platform has no
 * segmenter, every place off a surrogate pair's middle counts.
 */
export function graphemeBoundaries(s: string, lo: number, hi: number): Set<number> {
  const out = new Set<number>();
  if (lo <= 0) out.add(0);
  if (hi >= s.length) out.add(s.length);
  if (segmenter === undefined)
    segmenter =
      typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;
  if (segmenter === null) {
    for (let i = Math.max(lo, 1); i <= Math.min(hi, s.length - 1); i++) if (cutIndex(s, i) === i) out.add(i);
    return out;
  }
  const from = segmentStart(s, Math.max(0, lo - GRAPHEME_WINDOW));
  for (const g of segmenter.segment(s.slice(from, Math.min(s.length, hi + GRAPHEME_WINDOW)))) {
    const at = from + g.index;
    if (at > hi) break;
    // The slice's own start is a boundary of the slice, not necessarily of the text.
    if (at >= lo && (at > from || from === 0)) out.add(at);
  }
  return out;
}

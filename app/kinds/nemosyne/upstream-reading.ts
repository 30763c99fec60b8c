/**
 * What upstream Nemosyne would do with a JSON entry that Reprise refuses as not strict
 * I-JSON. Reprise keeps its strictness (every reader must see one value in the bytes the
 * digests cover), but a refusal must not read as a forgery: the finding says whether
 * upstream would have read the file, how, and why Reprise does not.
 *
 * Upstream decodes the manifest, the dataset and the ledger with fflate's `strFromU8` (a
 * `TextDecoder` that is not fatal: invalid bytes become U+FFFD, a leading byte-order mark
 * is dropped) and the receipt and forma entries with `new TextDecoder('utf-8', { fatal:
 * true })` (invalid UTF-8 refused, the mark still dropped), then parses each with
 * `JSON.parse` (TsatsuAmable/nemosyne src/session/NemosynePackage.ts `unpack`,
 * src/session/InvestigationReplayRunner.ts `replayPayload`).
 */
import type { JcsErrorCode } from '../../core/jcs.js';

/** How upstream decodes an entry's bytes before `JSON.parse`. */
export type UpstreamDecoder = 'lenient' | 'fatal';

const NOT_ALTERED = 'a strictness refusal, not evidence that the package was altered';

const READS: Partial<Record<JcsErrorCode, string>> = {
  ERR_BOM:
    'its UTF-8 decoder drops a leading byte-order mark); Reprise refuses it because I-JSON forbids the mark, bytes the digests cover that no reader shows',
  ERR_DUPLICATE_KEY:
    'JSON.parse keeps the last of the repeated members); Reprise refuses it because other readers keep the first, so the file does not say one thing',
  ERR_LONE_SURROGATE:
    'JSON.parse keeps the lone surrogate); Reprise refuses it because a lone surrogate has no UTF-8 form, so the canonical text a digest would cover is not defined',
  ERR_NONFINITE:
    'JSON.parse reads the number as Infinity, which JSON.stringify writes as null); Reprise refuses a number that is not finite',
  ERR_DEPTH:
    'JSON.parse has no nesting limit of its own); Reprise refuses nesting deeper than 512 levels to bound its stack and memory',
};

/**
 * The note a refusal with `code` carries (to append after the parse error), or null when
 * upstream refuses the file too (a syntax error; invalid UTF-8 in a fatally decoded entry).
 */
export function upstreamReadingNote(code: JcsErrorCode, decoder: UpstreamDecoder): string | null {
  if (code === 'ERR_UTF8') {
    return decoder === 'fatal'
      ? 'upstream Nemosyne refuses it too (it decodes this entry with a fatal UTF-8 decoder)'
      : `upstream Nemosyne would read this file (its decoder replaces each invalid byte sequence with U+FFFD); Reprise refuses it because the text it would then read is not the bytes the package holds: ${NOT_ALTERED}`;
  }
  const reads = READS[code];
  return reads ? `upstream Nemosyne would read this file (${reads}: ${NOT_ALTERED}` : null;
}

/** The note on a number whose parse changed its value (`9007199254740993`, `1E-400`). */
export const CHANGED_NUMBER_NOTE = `upstream Nemosyne would read the nearest double and go on; Reprise refuses it because the digests cover that rounded value, not the number written: ${NOT_ALTERED}`;

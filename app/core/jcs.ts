/**
 * Canonical JSON (RFC 8785, JCS) from JSON *text*, the one canonicalizer of Reprise.
 *
 * Why hand-written around JSON.parse/JSON.stringify rather than the `canonicalize`
 * package: that package takes an already-parsed value, so it cannot see what JSON.parse
 * silently repairs (duplicate members, lone surrogates escaped as \uD800, 1e400 becoming
 * Infinity) and it is slower (see bench/). ECMAScript's own number and string
 * serialization *is* the JCS serialization, so we reuse V8's native code for the leaves
 * and only sort members when they are out of order.
 *
 * Design: a fast path does cheap global checks and records suspicion; anything suspicious
 * is re-examined by a precise, position-tracking validator (`diagnose`) that names the
 * member (RFC 6901 pointer) of the first violation. The fast path never accepts input the
 * precise validator would refuse.
 */
// The public face of app/core/jcs/: callers import from here, the folder holds one step each
// (decode, parse, strip, serialize, diagnose, prefix).
export { MAX_DEPTH, JcsError, type JcsErrorCode, type JcsWarning } from './jcs/errors.js';
export { escapePointerToken } from './closed.js';
export { decodeJsonBytes } from './jcs/decode.js';
export {
  parseCanonical,
  canonicalizeText,
  canonicalizeBytes,
  mayUnderflow,
  nestsDeeperThan,
  type StrictParse,
  type ParseOptions,
} from './jcs/parse.js';
export {
  stripToCanonical,
  stripArriving,
  SPAN_DEPTH,
  type ArrivingStrip,
  type MemberSpan,
  type Stripped,
} from './jcs/strip.js';
export { canonicalizeValue, canonicalizeParsed, checkJsonData } from './jcs/serialize.js';
export { diagnose } from './jcs/diagnose.js';
export { checkBounds, countChar, type JsonLimits } from './jcs/bounds.js';
export { firstLineEndBeforeValue } from './jcs/lines.js';
export { ITEMS_LIMIT, MAX_ITEMS, MAX_MEMBER_NAMES, MEMBER_NAMES_LIMIT } from './json-limits.js';
export { endsInsideJsonValue, refusedAsCutShort } from './jcs/prefix.js';

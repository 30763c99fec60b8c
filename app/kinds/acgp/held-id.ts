/**
 * How the ACGP checks hold and quote an id a trace names (a trust-debt provider, a blueprint,
 * a tier, the trace id). An id is a short name, but one may be as long as a line
 * (acgp-line-bytes, 1 MiB): held whole until the end of the trace and quoted whole, a few
 * dozen of them made memory and the report grow by megabytes each. Past ID_SHOWN characters
 * an id is held and quoted cut: its start, its length and the SHA-256 of its UTF-8, so two
 * long ids that share a start stay two. The id whole is where the finding points, in the trace.
 */
import { hashBytes } from '../../core/hash.js';
import { cutIndex } from '../../../shared/text-cut.js';

/** The longest id held and quoted whole. */
export const ID_SHOWN = 80;

/**
 * The id as the report names it and a map holds it: the id itself up to ID_SHOWN characters,
 * else `"<its first ID_SHOWN>"… (cut from N characters; sha256:<hex>)`, the start quoted as
 * JSON (never cut inside a surrogate pair). The cut form is longer than ID_SHOWN, so no short
 * id is ever the key of a long one, and two long ids share one only if their hashes do.
 */
export function heldId(id: string): string {
  if (id.length <= ID_SHOWN) return id;
  const start = JSON.stringify(id.slice(0, cutIndex(id, ID_SHOWN)));
  return `${start}… (cut from ${id.length} characters; ${hashBytes(id)})`;
}

/** The id quoted in a message: as JSON, or cut (heldId), whose start is quoted already. */
export function quotedId(id: string): string {
  return id.length <= ID_SHOWN ? JSON.stringify(id) : heldId(id);
}

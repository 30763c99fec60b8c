/**
 * The words of a link's refusal (lib/deep-link.ts, lib/compare-link.ts): how a parameter is
 * quoted, and why an option given empty or with spaces at an end is no option; and why what a
 * link reopened is not what it was made from.
 */
import type { Verdict } from '../../../shared/report.js';

/**
 * A parameter as the user wrote it, cut short: a refusal quotes it, and a link can be any
 * length. Its controls stay as written: the window shows every message through Shown, which
 * escapes them (a JSON escape here would be escaped again there, and read as typed text).
 */
export const quoted = (k: string, v?: string): string => {
  const t = v === undefined ? k : `${k}=${v}`;
  return `"${t.length > 400 ? `${t.slice(0, 400)}…` : t}"`;
};

/**
 * An option a link gives whose value is not the path it reads as: empty (which would run as
 * no trust store, no providers, and change the verdict without a word), or with spaces at an
 * end (which a path field trims, so another file than the link named would be read).
 */
export function unclearOption(k: string, v: string): string {
  return v.trim() === ''
    ? `This link gives ${quoted(k, v)} with no value: it would run without that option and say nothing of it`
    : `This link gives ${quoted(k, v)}, a path with spaces at an end, which would be read without them`;
}

/**
 * Why a file a link reopened is not what the link was made from, in words beginning "this
 * link was made", or null when it is: other bytes (`nowVerdict`: with the verdict this run
 * read of them), or the same bytes reading another verdict, which only a file its options
 * name can make. One wording for an artifact's link (deep-link.ts) and a comparison's sides
 * (compare-link.ts).
 */
export function seenDiffers(
  seen: { sha256: string | null; verdict: Verdict },
  now: { sha256: string | null; verdict: Verdict },
  name: string,
  nowVerdict = false,
): string | null {
  const v = (x: Verdict): string => x.toUpperCase();
  if (seen.sha256 !== null && seen.sha256 !== now.sha256)
    return (
      `this link was made from a file whose SHA-256 was ${seen.sha256} (${v(seen.verdict)}); the file now at ${name} ` +
      `is ${now.sha256 ?? 'of no SHA-256 the engine could take'}${nowVerdict ? ` (${v(now.verdict)})` : ''}: ` +
      `it is not the file the link was shared from.`
    );
  if (seen.verdict !== now.verdict)
    return (
      `this link was made when ${name} read ${v(seen.verdict)}; the same bytes now read ${v(now.verdict)} with the ` +
      `link's options: a file one of them names (a trust store, providers, a policy) is not what it was.`
    );
  return null;
}

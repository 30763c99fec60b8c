/**
 * The words of a link's refusal (lib/deep-link.ts, lib/compare-link.ts): how a parameter is
 * quoted, and why an option given empty or with spaces at an end is no option.
 */

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

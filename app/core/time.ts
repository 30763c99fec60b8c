/**
 * RFC 3339 timestamps in UTC with the `Z` suffix (common.md). Anything else, including
 * impossible dates like 2026-02-30 or an offset other than Z, is refused.
 */

const RFC3339_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z$/;

const DAYS_IN_MONTH: readonly number[] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function isRfc3339Utc(s: unknown): s is string {
  if (typeof s !== 'string') return false;
  const m = RFC3339_UTC.exec(s);
  if (!m) return false;
  // Fields read one by one: no intermediate arrays (this runs several times per dump).
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (mo === 2 && leap ? 29 : DAYS_IN_MONTH[mo - 1]!);
}

/** Explains why a string is not an RFC 3339 UTC timestamp (for finding messages). */
export function whyNotRfc3339Utc(s: unknown): string {
  if (typeof s !== 'string') return 'not a string';
  // +00:00 is UTC, but RFC 3339 gives it a meaning of its own (-00:00: local offset unknown) and the format requires Z.
  if (/[+-]00:00$/.test(s)) return `an offset (${s.slice(-6)}) where the format requires Z, even for UTC`;
  if (/[+-]\d{2}:\d{2}$/.test(s)) return 'an offset other than Z';
  if (/^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?[Zz]$/.test(s) && /[tz]/.test(s))
    return 'a lower-case t or z (RFC 3339 allows it; the format requires upper case)';
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return 'a date without a time';
  if (!/Z$/.test(s)) return 'no Z suffix (local time)';
  // RFC 3339 allows both; Reprise documents these two limits (docs/architecture.md).
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{10,}Z$/.test(s))
    return 'more than 9 fraction digits (Reprise reads times to the nanosecond, a documented limit)';
  if (!RFC3339_UTC.test(s)) return 'not RFC 3339';
  if (s.slice(17, 19) === '60')
    return 'a leap second (:60), which Reprise refuses: it compares times as POSIX time, which has none (a documented decision)';
  return 'an impossible date or time';
}

/** Milliseconds since the epoch of a valid RFC 3339 UTC timestamp (sub-ms digits dropped). */
export function epochMs(s: string): number {
  return Date.parse(s.replace(/(\.\d{3})\d+Z$/, '$1Z'));
}

/** The current time, RFC 3339 UTC with milliseconds. */
export function nowUtc(clock: () => number = Date.now): string {
  return new Date(clock()).toISOString();
}

/**
 * The dump's times are .NET `DateTime`s (the seed's `ReplayContext.CreatedAtUtc`, upstream's
 * `ReplayDump.CreatedAt`), whose least value is 0001-01-01 and whose resolution is a tick of
 * 100 ns: RFC 3339 allows year 0000 and any number of fraction digits, which no AIKernel writer
 * can have written (a fraction of more than 7 digits is one only when the rest are zeros). One
 * rule for the dump's verification (RDS-003) and its case facts, so a case never places a time
 * the dump's verification failed.
 */
export function whyNotDotNetDateTime(rfc3339Utc: string): string | null {
  if (rfc3339Utc.startsWith('0000-'))
    return "year 0000, before .NET's DateTime.MinValue (0001-01-01), which no AIKernel writer can hold";
  if (/\.\d{7}\d*[1-9]/.test(rfc3339Utc))
    return "a fraction of a second finer than .NET's DateTime holds (ticks of 100 ns: 7 digits), which no AIKernel writer can have written";
  return null;
}

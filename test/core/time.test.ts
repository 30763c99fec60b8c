import { describe, expect, it } from 'vitest';
import { isRfc3339Utc, whyNotRfc3339Utc } from '../../app/core/time.js';

describe('RFC 3339 UTC timestamps', () => {
  it('accepts UTC with Z, with or without fractions', () => {
    for (const ok of [
      '2026-05-04T10:00:00Z',
      '2026-05-04T10:00:00.123Z',
      '2024-02-29T23:59:59Z',
      '2000-02-29T00:00:00Z',
    ])
      expect(isRfc3339Utc(ok), ok).toBe(true);
  });
  it('refuses local times, offsets, dates alone and impossible dates', () => {
    for (const bad of [
      '2026-05-04T10:00:00',
      '2026-05-04T10:00:00+02:00',
      '2026-05-04',
      '2026-02-30T00:00:00Z',
      '2026-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-05-04T24:00:00Z',
      '2026-05-04 10:00:00Z',
      '2026-05-04t10:00:00z',
      42,
    ]) {
      expect(isRfc3339Utc(bad), String(bad)).toBe(false);
    }
  });
  it('says which documented limit refused a timestamp RFC 3339 itself allows', () => {
    expect(isRfc3339Utc('2016-12-31T23:59:60Z')).toBe(false);
    expect(whyNotRfc3339Utc('2016-12-31T23:59:60Z')).toMatch(/^a leap second/);
    expect(isRfc3339Utc('2026-05-04T10:00:00.123456789Z')).toBe(true);
    expect(isRfc3339Utc('2026-05-04T10:00:00.1234567890Z')).toBe(false);
    expect(whyNotRfc3339Utc('2026-05-04T10:00:00.1234567890Z')).toMatch(/^more than 9 fraction digits/);
    expect(whyNotRfc3339Utc('2026-02-30T10:00:00Z')).toBe('an impossible date or time');
  });
  it('agrees with the calendar on every day of every month (leap years included)', () => {
    for (const y of [1900, 2000, 2023, 2024, 2026]) {
      for (let mo = 0; mo <= 13; mo++) {
        for (let d = 0; d <= 32; d++) {
          const t = `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}T23:59:59Z`;
          const real = mo >= 1 && mo <= 12 && d >= 1 && new Date(Date.UTC(y, mo - 1, d)).getUTCDate() === d;
          expect(isRfc3339Utc(t), t).toBe(real);
        }
      }
    }
  });
});

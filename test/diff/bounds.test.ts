/**
 * The diff stays bounded on large inputs: past its listing limit it only counts (no exact
 * decimal, span or pointer text is made for an unlisted difference), and it walks a wide
 * array one child at a time. Bounded by CPU time (process.resourceUsage), never wall time.
 */
import { describe, expect, it } from 'vitest';
import { diffJson } from '../../shared/diff.js';
import type { JsonValue } from '../../shared/report.js';

const cpuMs = (): number => {
  const r = process.resourceUsage();
  return (r.userCPUTime + r.systemCPUTime) / 1000;
};

describe('diff bounds', () => {
  it('a million changed numbers: every one counted, the first thousand listed with exact differences, in little CPU', () => {
    const a = Array.from({ length: 1_000_000 }, (_, i) => i / 10);
    const b = a.map((x) => x + 0.1);
    const t = cpuMs();
    const r = diffJson(a, b, { limit: 1000 });
    const spent = cpuMs() - t;
    expect(r.total).toBe(1_000_000);
    expect(r.differences).toHaveLength(1000);
    expect(r.differences[999]).toMatchObject({ pointer: '/999', difference: '0.1' });
    console.log(`1e6 changed numbers: ${spent.toFixed(0)} ms CPU`);
    expect(spent).toBeLessThan(1500);
  });

  it('a 64 MiB string changed in the middle: the span found in one pass', () => {
    const half = 'x'.repeat(32 * 1024 * 1024);
    const t = cpuMs();
    const r = diffJson({ s: `${half}A${half}` } as JsonValue, { s: `${half}BC${half}` } as JsonValue);
    const spent = cpuMs() - t;
    expect(r.differences[0]!.span).toEqual({ prefix: half.length, suffix: half.length, left: 1, right: 2 });
    console.log(`64 MiB string: ${spent.toFixed(0)} ms CPU`);
    expect(spent).toBeLessThan(2000);
  });
});

// The structured diff's walk over a large array of small records costs about what parsing
// the two texts does: CPU time of diffJson against JSON.parse of the same two texts, in the
// same process (a ratio, so the machine's speed cancels; no wall clock). Each record's frame
// once made a set and a sorted copy of both member lists and spread a base object: 7 times
// the parse here, against about half of it now (a red team's 1.3 million objects took 16.8 s).
import { describe, expect, it } from 'vitest';
import { ALIGN_BUDGET, diffJson } from '../../shared/diff.js';

const cpuMs = (f: () => void): number => {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};

describe('diffJson at scale', () => {
  it('walks 500,000 records for at most a few times the CPU of parsing their two texts', () => {
    // Past the alignment's budget (three values a record), so most records are walked by position.
    const rows = Array.from({ length: ALIGN_BUDGET / 2 }, (_, i) => ({ id: i, v: i % 7, name: `r${i}` }));
    const left = JSON.stringify({ rows });
    rows[1_000]!.v = 99;
    rows[400_000]!.name = 'changed';
    const right = JSON.stringify({ rows });
    let a: unknown;
    let b: unknown;
    // The least of three of each: a scavenge or another process's burst falls on one run.
    const parse = Math.min(...[0, 1, 2].map(() => cpuMs(() => ((a = JSON.parse(left)), (b = JSON.parse(right))))));
    let total = 0;
    const walk = Math.min(...[0, 1, 2].map(() => cpuMs(() => (total = diffJson(a as never, b as never).total))));
    expect(total).toBe(2);
    expect(walk / parse).toBeLessThan(3);
  });
});

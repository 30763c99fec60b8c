/**
 * The trainer's sweep with a governed ε of 0 (allowed: the engine passes only |Δ| = 0): an
 * output with |Δ| > 0 against it is beyond ε, counted so in the words and charted past every
 * finite bar with its name saying why; |Δ| = 0 against it is within. Never dropped, and the
 * chart never disappears for a reason that is untrue.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';
import type { Comparison, Report } from '../../shared/report';
import {
  againstEpsilon,
  sweepBars,
  sweepDeltas,
  sweepDeltaWords,
  type Sweep,
  type SweepRun,
} from '../../renderer/src/lib/sweep';
import { SweepDeltaChart } from '../../renderer/src/components/SweepDeltaChart';

stubBrowser();

/** A run of `whatIf` whose report has one BANDED row, its status as the engine gives it (exact: |Δ| ≤ ε passes). */
function run(whatIf: string, delta: number, epsilon: number, repeat = 0): SweepRun {
  const row: Comparison = {
    output: 'comp.TG.OUTPUT.A',
    mode: 'BANDED',
    original: 0.5,
    replayed: 0.5 + delta,
    delta,
    epsilon,
    status: delta > epsilon ? 'fail' : 'pass',
    reason: '',
  };
  return {
    whatIf,
    repeat,
    report: { comparisons: [row], findings: [] } as unknown as Report,
    error: null,
    cancelled: false,
  };
}

const sweep = (runs: SweepRun[]): Sweep => ({
  plan: [...new Set(runs.map((r) => r.whatIf))],
  repeats: 1,
  runs,
  done: runs.length,
  planned: runs.length,
  running: false,
  cancelled: false,
});

describe('a governed ε of 0 in the sweep', () => {
  it('|Δ| > 0 against ε 0 is beyond it, infinitely; |Δ| = 0 is within', () => {
    expect(againstEpsilon(2.43e-7, 0)).toBe(Number.POSITIVE_INFINITY);
    expect(againstEpsilon(0, 0)).toBe(0);
    expect(againstEpsilon(0.06, 0.03)).toBe(2);
  });

  it('is measured and counted beyond ε in the words, not "No substitution puts an output beyond its ε"', () => {
    const d = sweepDeltas(sweep([run('model=ref-2', 2.43e-7, 0), run('model=ref-1', 0, 0)]));
    expect(d.map((x) => x.worst)).toEqual([Number.POSITIVE_INFINITY, 0]);
    expect(d[0]!.outputs).toEqual([{ output: 'comp.TG.OUTPUT.A', deltas: [2.43e-7], epsilon: 0, beyond: true }]);
    const words = sweepDeltaWords(d, 1);
    expect(words).toContain('Beyond ε (drift): model=ref-2 (|Δ| > 0 against an ε of 0). Within ε: 1 of 2.');
    expect(words).not.toContain('No substitution');
  });

  it('charts it past every finite bar and the band edge, on a finite scale', () => {
    const d = sweepDeltas(sweep([run('model=ref-2', 2.43e-7, 0), run('shape=a/1/fp32', 0.06, 0.03)]));
    const bars = sweepBars(d);
    expect(bars.worst.every(Number.isFinite)).toBe(true);
    expect(bars.worst[0]).toBeGreaterThan(bars.worst[1]!);
    expect(bars.worst[0]).toBeGreaterThan(1);
    expect(bars.top).toBeGreaterThan(bars.worst[0]!);
    expect(Number.isFinite(bars.top)).toBe(true);
  });

  it('with every ε 0 the chart is still shown, its bar named for what it is', () => {
    const d = sweepDeltas(sweep([run('model=ref-2', 2.43e-7, 0)]));
    const html = renderToStaticMarkup(createElement(SweepDeltaChart, { deltas: d, repeats: 1 }));
    expect(html).toContain('data-testid="chart-sweep"');
    expect(html).toContain('Beyond ε (drift): model=ref-2');
    expect(html).not.toContain('Infinity');
  });
});
